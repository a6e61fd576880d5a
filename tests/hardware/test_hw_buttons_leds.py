"""Buttons and LEDs on gpiozero's MockFactory, driving a real session through the table."""

import time

import hwtools
import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.speech import Announcer
from hardware import MESSAGES_DIR
from hardware.buttons import Buttons
from hardware.inputs import Press
from hardware.leds import COLOURS, Indicator, RGBLights, SingleLights
from hardware.status import Status
from hardware.table import Table

PINS = {"next": 17, "undo": 27, "draw": 22, "roll": 23}


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def table(tmp_path):
    session = hwtools.started_game(tmp_path)
    voice = hwtools.RecordingVoice()
    announcer = Announcer(voice, "en", catalogs=[MESSAGES_DIR]).start()
    announcer.attach(session)
    t = Table(session, announcer)
    t.voice = voice
    yield t
    t.stop()
    announcer.stop()
    session.close()


def press(factory, pin, hold=0.08):
    """A human press: down for ``hold`` seconds, then a pause."""
    factory.pin(pin).drive_low()
    time.sleep(hold)
    factory.pin(pin).drive_high()
    time.sleep(0.08)


def settled(done, timeout: float = 5.0) -> None:
    """Wait until ``done()`` (a press is handled on gpiozero's thread, after ``press`` returns
    on a loaded machine)."""
    end = time.monotonic() + timeout
    while not done() and time.monotonic() < end:
        time.sleep(0.01)


def spoken(table):
    table.announcer.wait_idle()
    return [text for text, _ in table.voice.lines]


def test_next_confirms_what_the_game_expects_and_undo_goes_back(factory, table):
    buttons = table.add(Buttons(PINS, {"next": "repeat"}, hold_time=2.0, pin_factory=factory))
    session = table.session
    session.submit({"type": "card", "id": "incube"}, source="web")
    session.submit({"type": "place", "slot": "red.1"}, source="web")
    press(factory, 17)                      # the printed-effect prompt: its default, no effect
    assert hwtools.journal_types(session)[-1] == ("answer", "button")
    assert session.journal_entries()[-1].event.fields == {"effects": []}
    press(factory, 17)                      # hero phase: next ends the turn
    assert hwtools.journal_types(session)[-1] == ("end_turn", "button")
    press(factory, 27)
    assert hwtools.journal_types(session)[-1] == ("undo", "button")
    assert session.view()["expects"]["kind"] == "action"
    assert set(buttons.devices) == set(PINS)


def test_a_press_that_cannot_be_turned_into_an_event_is_explained(factory, table):
    warnings = []
    table.on_warning.append(warnings.append)
    table.add(Buttons(PINS, pin_factory=factory))
    before = len(table.session.journal_entries())
    press(factory, 17)                      # waiting for a card: nothing to confirm
    settled(lambda: len(warnings) == 1)     # the press reached the table (a loaded machine)
    assert len(table.session.journal_entries()) == before
    assert spoken(table)[-1] == "Nothing to confirm with the button. Draw a Horde card."
    table.session.submit({"type": "card", "id": "incube"}, source="web")
    table.announcer.wait_idle()             # the draw is heard first (a warning jumps the queue)
    press(factory, 17)                      # three legal slots: the host chooses
    settled(lambda: len(warnings) == 2)
    assert spoken(table)[-1].startswith("Nothing to confirm with the button. Where does Incube")
    assert [w.key for w in warnings] == ["press.cannot_confirm"] * 2


def test_refused_events_are_spoken_and_the_companion_goes_on(table):
    table.emit({"type": "dice", "faces": ["red"], "source": "camera"})
    assert spoken(table)[-1].startswith("dice is not expected now")
    table.emit(Press("undo", "undo"))
    table.emit(Press("undo", "undo"))       # only the setup is left: cannot undo it
    assert "Cannot undo" in spoken(table)[-1]


def test_chattering_contacts_make_one_press(factory, table):
    table.add(Buttons(PINS, bounce_time=0.05, pin_factory=factory))
    pin = factory.pin(27)
    table.session.submit({"type": "card", "id": "incube"}, source="web")
    table.session.submit({"type": "place", "slot": "red.1"}, source="web")
    def undos():
        return [t for t, _ in hwtools.journal_types(table.session)].count("undo")

    for _ in range(6):                      # 12 edges within a few milliseconds
        pin.drive_low()
        pin.drive_high()
    time.sleep(0.3)                         # well past the bounce time, on a loaded machine
    # too (a press 60 ms after the chatter was once handled inside it)
    assert undos() == 1
    press(factory, 27)                      # a real second press, later
    settled(lambda: undos() == 2)
    assert undos() == 2


def test_long_press_gives_its_own_role_once_and_no_short_press(factory, table):
    table.add(Buttons(PINS, {"next": "repeat"}, hold_time=0.4, pin_factory=factory))
    before = len(table.session.journal_entries())
    press(factory, 17, hold=1.2)            # held far beyond hold_time: one repeat only
    assert spoken(table).count("Draw a Horde card.") == 1
    assert len(table.session.journal_entries()) == before
    press(factory, 17)                      # a short press of the same button still confirms
    assert "Nothing to confirm" in spoken(table)[-1]


def test_a_release_handled_after_the_hold_time_is_still_a_short_press(factory):
    """On a loaded Pi, gpiozero's hold timer can run out before its thread has handled the
    release of a short press: the pin already reads up, so it is "next", not the long role."""
    sent = []
    buttons = Buttons(PINS, {"next": "repeat"}, bounce_time=0, hold_time=10,
                      pin_factory=factory)
    buttons.start(sent.append)
    try:
        pin = factory.pin(17)
        pin.drive_low()                       # pressed, and handled
        pin._change_state(True)               # released: the pin reads up, not handled yet
        buttons.devices["next"].when_held()   # the hold timer runs out first
        pin._call_when_changed()              # then the release is handled
        assert sent == [Press("next", "next")]
    finally:
        buttons.stop()


class StuckPin(MockPin):
    """A pin held low by a stuck (or shorted) button: the pull-up cannot raise it."""

    def _set_pull(self, value):
        self._pull = value


def test_missing_or_stuck_buttons_are_reported_once_and_the_others_work(factory, table):
    factory.pin(22, pin_class=StuckPin)     # draw button stuck down at start
    buttons = table.add(Buttons({**PINS, "roll": 17}, pin_factory=factory, status=table.status))
    problems = table.status.snapshot()["problems"]
    assert problems["Roll button"].startswith("GPIO17 cannot be used")
    assert problems["Draw button"].startswith("down at start (GPIO22)")
    assert set(buttons.devices) == {"next", "undo", "draw"}


def test_a_button_stuck_during_play_is_reported_and_back_once_released(factory, table):
    heard = []
    status = Status(listener=lambda device, problem: heard.append(
        (device, problem and problem.key)))
    table.add(Buttons(PINS, pin_factory=factory, status=status, stuck_time=0.6))
    press(factory, 22, hold=0.3)            # a long-ish press is not a stuck button
    time.sleep(0.5)
    assert status.problems == {}
    factory.pin(23).drive_low()             # the roll button jams down
    assert hwtools.wait_until(lambda: "button.roll" in status.problems)
    assert status.text("button.roll", "fr") == (
        "enfoncé depuis 1 s (GPIO23) : coincé ? Il refonctionne dès qu'il remonte")
    factory.pin(23).drive_high()
    assert hwtools.wait_until(lambda: len(heard) == 2)
    assert heard == [("button.roll", "problem.stuck"), ("button.roll", None)]
    assert status.problems == {}


def test_rgb_led_shows_what_is_awaited_and_flashes_on_warnings(factory, table):
    lights = RGBLights(5, 6, 13, pin_factory=factory)
    indicator = Indicator(lights, table.waiting).start()
    indicator.attach(table.session)
    table.on_warning.append(indicator.warn)
    rgb = lambda: tuple(int(factory.pin(p).state) for p in (5, 6, 13))  # noqa: E731
    assert hwtools.wait_until(lambda: indicator.shown == "card")
    assert rgb() == COLOURS["card"]
    table.session.submit({"type": "card", "id": "incube"}, source="web")
    assert hwtools.wait_until(lambda: indicator.shown == "host") and rgb() == COLOURS["host"]
    table.session.submit({"type": "place", "slot": "red.1"}, source="web")
    assert hwtools.wait_until(lambda: indicator.shown == "choice") and rgb() == COLOURS["choice"]
    factory.pin(5).clear_states()
    table.emit({"type": "end_turn"})        # not expected: refused, a warning
    assert hwtools.wait_until(lambda: sum(s.state for s in factory.pin(5).states) >= 3, 3)
    assert hwtools.wait_until(lambda: rgb() == COLOURS["choice"])
    indicator.stop()
    assert rgb() == (0, 0, 0)


def test_single_leds_one_per_state(factory):
    lights = SingleLights({"card": 5, "dice": 6, "choice": 13, "host": 19}, warning=26,
                          pin_factory=factory)
    lights.show("dice")
    assert [factory.pin(p).state for p in (5, 6, 13, 19)] == [False, True, False, False]
    lights.flash()
    assert [s.state for s in factory.pin(26).states].count(True) == 3
    lights.close()


def test_a_tap_shorter_than_the_bounce_time_is_not_lost(factory, table):
    table.add(Buttons(PINS, {"next": "repeat"}, bounce_time=0.05, pin_factory=factory))
    table.session.submit({"type": "card", "id": "incube"}, source="web")
    table.session.submit({"type": "place", "slot": "red.1"}, source="web")
    pin = factory.pin(17)
    pin.drive_low()
    pin.drive_high()                        # released at once: hidden in the quiet time
    assert hwtools.wait_until(
        lambda: hwtools.journal_types(table.session)[-1] == ("answer", "button"), 1)
