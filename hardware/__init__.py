"""The table's senses: buttons, LEDs, RFID readers and cameras, turned into events.

Every input is a small class with ``start(emit)`` / ``stop()``. ``emit`` takes an event dict
(submitted as it is) or one of the input records of :mod:`hardware.inputs` (a button
:class:`~hardware.inputs.Press`, a tag :class:`~hardware.inputs.Swipe`, a
:class:`~companion.engine.Message` to say as a warning); the :class:`~hardware.table.Table` turns
records into the event the game expects now. :func:`hardware.build.start` builds everything the
config describes; hardware that is configured but missing is reported once and skipped.
"""

from pathlib import Path

#: The hardware's own message catalogs (fr, en), for the announcer.
MESSAGES_DIR = Path(__file__).parent / "messages"
