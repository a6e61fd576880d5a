"""The child process of ``tests/web/test_host_storage.py``: host sessions on a data directory
that cannot take a write, on a real file system.

Usage: ``unshare -rm sh -c 'mount -t tmpfs -o size=8m tmpfs MOUNT && exec python
tests/helpers/host_storage_child.py MOUNT MODE'`` with MODE ``full`` (a small tmpfs filled to
the last byte: the kernel answers ENOSPC) or ``read-only`` (the data directory's ``web/``
folder bind-mounted read-only: EROFS). It logs two hosts in, blocks the directory, tries every
session change, restarts the web app, unblocks, and prints what each step answered as JSON.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "web")]

from webtools import PIN, login  # noqa: E402

from companion.engine import Session  # noqa: E402
from web import WebConfig, create_app  # noqa: E402
from web.host import COOKIE  # noqa: E402


def fill(path: Path, chunk: int) -> None:
    """Write ``chunk`` bytes at a time to ``path`` until the file system is full."""
    with open(path, "wb", buffering=0) as out, contextlib.suppress(OSError):
        while True:
            out.write(b"\0" * chunk)


@contextlib.contextmanager
def blocked(mount: Path, roots: list[Path], mode: str) -> Iterator[None]:
    """The data directories ``roots`` cannot take a write for the length of the block."""
    if mode == "full":
        fillers = [mount / "filler", mount / "filler-tail"]
        fill(fillers[0], 4096)
        fill(fillers[1], 1)  # the last partial block, byte by byte
        yield
        for filler in fillers:
            filler.unlink()
    else:
        folders = [str(root / "web") for root in roots]
        for web in folders:
            os.makedirs(web, exist_ok=True)
            subprocess.run(["mount", "--bind", web, web], check=True)
            subprocess.run(["mount", "-o", "remount,bind,ro", web], check=True)
        yield
        for web in folders:
            subprocess.run(["umount", web], check=True)


def app_of(session: Session):
    """A fresh web app over ``session`` (a restart of the server, as far as hosts go)."""
    return create_app(session, WebConfig(simulate=True, seed=7, login_attempts=3))


def live(app, cookies: list[str]) -> list[bool]:
    """Which of these host cookies this app takes."""
    return [app.extensions["companion"].hosts.valid(cookie) for cookie in cookies]


def run(mount: Path, mode: str) -> dict:
    """Every session change on the blocked directory, and what a restart finds."""
    data, fresh = mount / "data", mount / "fresh"
    session, first_run = Session(data), Session(fresh)
    app, new = app_of(session), app_of(first_run)
    a, b = login(app), login(app)
    cookies = [a.client.get_cookie(COOKIE).value, b.client.get_cookie(COOKIE).value]
    b_id = next(s["id"] for s in a.client.get("/api/sessions").json["sessions"]
                if not s["current"])
    code = new.extensions["companion"].setup.current()
    seen: dict = {}
    with blocked(mount, [data, fresh], mode):
        probe = mount / "data" / "web" / "probe"
        try:
            probe.write_bytes(b"x" * 8192)
            seen["probe"] = "written"
        except OSError as exc:
            seen["probe"] = errno.errorcode[exc.errno]
        with contextlib.suppress(OSError):
            probe.unlink()
        for name, reply in (
                ("login", app.test_client().post("/api/login", json={"pin": PIN})),
                ("revoke", a.post("/api/sessions/revoke", {"id": b_id})),
                ("logout_all", a.post("/api/logout", {"all": True})),
                ("logout", b.post("/api/logout")),
                ("first_pin", new.test_client().post("/api/pin",
                                                     json={"pin": PIN, "code": code}))):
            seen[name] = [reply.status_code, reply.json["error"], reply.json["message"]]
        seen["listed"] = len(a.client.get("/api/sessions").json["sessions"])
        seen["live_before_restart"] = live(app, cookies)
        seen["live_after_restart"] = live(app_of(session), cookies)
        seen["tmp_left"] = sorted(p.name for p in (data / "web").iterdir())
    seen["logout_all_unblocked"] = a.post("/api/logout", {"all": True}).status_code
    seen["live_after_logout_restart"] = live(app_of(session), cookies)
    seen["first_pin_unblocked"] = new.test_client().post(
        "/api/pin", json={"pin": PIN, "code": code}).status_code
    return seen


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]), sys.argv[2])))
