"""Signed commands: what a sender computes so that a command carries no reusable secret.

A command is ``{"command": "next", "at": 1795454419, "id": "4f1c...", "mac": "..."}`` where
``mac`` is the HMAC-SHA256, keyed with the table's ``[mqtt] command_secret``, of the table's id,
the command, the time (whole seconds since 1970) and the id, one per line. Whoever reads it on
the broker learns no secret; the companion takes it only within a short window around ``at``
and only once (:mod:`.commands`), and for its own table only.

This file uses nothing but Python's standard library, so that it can be copied where the
companion is not installed (Home Assistant's ``/config``, see docs/hardware.md) and run there::

    python3 sign.py --secret-file /config/companion-table-3.secret table-3 next

prints the command to publish on ``companion/table-3/command``.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import secrets
import sys
import time
from pathlib import Path
from typing import Any

COMMANDS = ("next", "undo")


def signed_text(table: str, command: str, at: int, command_id: str) -> bytes:
    """The bytes the MAC covers: the table's id, the command, the time and the id."""
    return f"{table}\n{command}\n{at}\n{command_id}".encode()


def mac(secret: str, table: str, command: str, at: int, command_id: str) -> str:
    """The command's HMAC-SHA256 with the table's secret, in hexadecimal."""
    return hmac.new(secret.encode(), signed_text(table, command, at, command_id),
                    hashlib.sha256).hexdigest()


def sign(secret: str, table: str, command: str, at: int | None = None,
         command_id: str | None = None) -> dict[str, Any]:
    """A signed command for table ``table`` (its id in topics), made now with a fresh random id
    unless ``at`` and ``command_id`` are given."""
    at = int(time.time()) if at is None else at
    command_id = secrets.token_hex(8) if command_id is None else command_id
    return {"command": command, "at": at, "id": command_id,
            "mac": mac(secret, table, command, at, command_id)}


def main(argv: list[str] | None = None) -> int:
    """Print one signed command as JSON (for ``mosquitto_pub -m`` or Home Assistant)."""
    parser = argparse.ArgumentParser(description="sign a command for a table companion")
    parser.add_argument("--secret-file", type=Path, required=True,
                        help="a file holding the table's [mqtt] command_secret")
    parser.add_argument("table", help="the table's id in topics, such as table-3")
    parser.add_argument("command", choices=COMMANDS)
    args = parser.parse_args(argv)
    try:
        secret = args.secret_file.read_text(encoding="utf-8").strip()
    except OSError as exc:
        parser.error(f"cannot read the secret: {exc}")
    if not secret:
        parser.error(f"{args.secret_file} is empty")
    print(json.dumps(sign(secret, args.table, args.command)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
