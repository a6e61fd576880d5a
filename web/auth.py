"""The host PIN, the first-run setup code, host logins and their CSRF tokens, and the brake on
PIN guesses.

The PIN is kept only as a salted scrypt hash in the data directory (``web/host-pin.json``, mode
0600) and never logged. Until one exists, choosing it needs a one-time setup code that
``companion run`` prints in its terminal and the table speaks: being at the table is the proof.

A login gives the browser an HttpOnly, SameSite=Strict cookie naming a host session. Sessions are
kept in ``web/host-sessions.json`` (mode 0600, written atomically) by the SHA-256 of their cookie
only, so they survive a restart, can be listed and revoked, and a copy of the file opens nothing;
each is bound to the PIN it was opened under, so choosing a new PIN ends them all. A change of
the sessions (login, logout, log out everywhere, revoke) is written before it is answered: a
data directory that cannot take the write refuses it (:class:`StoreError`, 507 or 503) and
nothing changes in memory either, so a restart never brings back a session the host ended.
Every change also needs a CSRF token, each usable once and kept in memory only: a host request
consumes its token and the response carries the next one (after a restart the page asks for a
fresh one).

Each PIN or setup-code check costs 16 MiB and a noticeable time (scrypt). :class:`LoginLimiter`
counts an attempt *before* the check, atomically, per address and for everyone, and lets one
check run at a time, so concurrent guesses cannot overtake the count nor the memory.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from companion.engine import DataPaths
from companion.engine.files import storage_error, write_atomic

PIN_DIGITS = (4, 12)
PIN_PATTERN = re.compile(r"[0-9]{4,12}", re.ASCII)
SCRYPT = {"n": 2**14, "r": 8, "p": 1}
TOKENS_PER_HOST = 16
SETUP_DIGITS = 6
AGENT_CHARS = 120


class PinError(ValueError):
    """A PIN that is not 4 to 12 ASCII digits."""


def check_pin_format(pin: object) -> str:
    """The PIN if it is 4 to 12 ASCII digits (``0``-``9`` only: other scripts' digits look
    alike on one phone and not on another), else PinError."""
    low, high = PIN_DIGITS
    if not isinstance(pin, str) or not PIN_PATTERN.fullmatch(pin):
        raise PinError(f"a PIN is {low} to {high} digits 0-9")
    return pin


_SCRYPT = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scrypt")
"""Every scrypt runs on this one thread. Its 16 MiB come from the C allocator's arena of the
thread that asks, and are kept there once freed: run from each request thread, they made the
server's memory grow by 16 MiB per thread (806 MB measured with 48 threads)."""


def _hash(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return _SCRYPT.submit(hashlib.scrypt, pin.encode(), salt=salt, n=n, r=r, p=p,
                          dklen=32).result()


def write_private(path: Path, data: Any) -> None:
    """Write JSON to ``path`` atomically, readable by the owner only (the engine's temporary
    files are made 0600 and swept at the next start if a crash leaves one); a data directory
    that cannot take it raises :class:`StoreError` (full, read-only) and ``path`` is unchanged."""
    try:
        write_atomic(path, json.dumps(data))
    except OSError as exc:
        raise storage_error(exc, path) from None


class PinStore:
    """The host PIN of a data directory, stored as a salted scrypt hash."""

    def __init__(self, data_dir: Path) -> None:
        self.path = DataPaths(Path(data_dir)).host_pin

    def stamp(self) -> str:
        """Which PIN is in force ("" if none): its random salt, new at every change, so host
        sessions opened under an older PIN are void, across restarts too."""
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))["salt"]
        except (OSError, ValueError, KeyError, TypeError):
            return ""

    def is_set(self) -> bool:
        """Whether a PIN was chosen (the first-run page asks for one until then)."""
        return self.path.exists()

    def set(self, pin: str) -> None:
        """Choose or replace the PIN (written atomically, readable by the owner only)."""
        salt = os.urandom(16)
        write_private(self.path, {"salt": salt.hex(),
                                  "hash": _hash(check_pin_format(pin), salt, **SCRYPT).hex(),
                                  **SCRYPT})

    def verify(self, pin: object) -> bool:
        """Whether ``pin`` is the PIN (constant-time comparison)."""
        if not isinstance(pin, str) or not self.is_set():
            return False
        record = json.loads(self.path.read_text(encoding="utf-8"))
        got = _hash(pin, bytes.fromhex(record["salt"]), record["n"], record["r"], record["p"])
        return hmac.compare_digest(got, bytes.fromhex(record["hash"]))


class SetupCode:
    """The one-time code that allows choosing the first PIN from a phone.

    It exists while no PIN is set; ``companion run`` prints it and the table speaks it
    (``listeners`` are told each new code). Using it once spends it.
    """

    def __init__(self, pins: PinStore) -> None:
        self.pins = pins
        self._code: str | None = None
        self._lock = threading.Lock()

    def current(self) -> str | None:
        """The code to show at the table, or None once a PIN exists."""
        if self.pins.is_set():
            return None
        with self._lock:
            if self._code is None:
                self._code = "".join(secrets.choice("0123456789") for _ in range(SETUP_DIGITS))
            return self._code

    def matches(self, given: object) -> bool:
        """Whether ``given`` is the code (it stays good until :meth:`spend`, so a PIN the data
        directory could not store can be chosen again with the same code)."""
        code = self.current()
        if code is None or not isinstance(given, str):
            return False
        return hmac.compare_digest(given.encode(), code.encode())

    def spend(self) -> None:
        """Use the code up once the PIN is stored (the next call of :meth:`current` makes a
        new one, for a next first run)."""
        with self._lock:
            self._code = None


class LoginLimiter:
    """At most ``attempts`` PIN checks per client per ``window`` seconds, and four times as many
    for all clients together, so that a 4-digit PIN cannot be guessed by trying them all.

    :meth:`attempt` counts the attempt before anything is checked (under one lock, so concurrent
    requests cannot all pass the test before any is counted) and then holds the single check slot
    while the caller runs scrypt: at most one costly check at a time. A right PIN gives its
    attempt back (the host is not slowed down by having logged in).
    """

    def __init__(self, attempts: int, window: float) -> None:
        self.attempts, self.window = attempts, window
        self._tries: dict[str, deque[float]] = {}
        self._lock = threading.Lock()
        self._check = threading.Lock()

    def _count(self, key: str, now: float) -> int:
        """How many attempts ``key`` made in the window (older ones are forgotten)."""
        times = self._tries.get(key)
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            self._tries.pop(key, None)  # an address seen once is not kept forever
            return 0
        return len(times)

    def _wait(self, client: str, now: float) -> float:
        waits = [self._tries[key][0] + self.window - now
                 for key, limit in ((client, self.attempts), ("*", 4 * self.attempts))
                 if self._count(key, now) >= limit]
        return max(waits, default=0.0)

    @contextmanager
    def attempt(self, client: str, counted: bool = True) -> Iterator[Attempt]:
        """Count one attempt of ``client`` now, or raise :class:`RateLimited`; then hold the
        only check slot until the block ends. ``refund()`` on the yielded attempt gives it back
        (a right PIN). ``counted=False`` (a host already logged in) skips the count, never the
        one-at-a-time check."""
        now = time.monotonic()
        with self._lock:
            wait = self._wait(client, now) if counted else 0.0
            if wait > 0:
                raise RateLimited(wait)
            for key in (client, "*") if counted else ():
                self._tries.setdefault(key, deque()).append(now)
        try_ = Attempt(self, client, now, counted)
        with self._check:
            yield try_

    def _refund(self, client: str, at: float) -> None:
        with self._lock:
            for key in (client, "*"):
                times = self._tries.get(key)
                if times and at in times:
                    times.remove(at)


@dataclass
class Attempt:
    """One counted PIN attempt (see :meth:`LoginLimiter.attempt`)."""

    limiter: LoginLimiter
    client: str
    at: float
    counted: bool

    def refund(self) -> None:
        """Give the attempt back: it was the right PIN."""
        if self.counted:
            self.limiter._refund(self.client, self.at)


class RateLimited(Exception):
    """Too many PIN attempts: ``seconds`` to wait."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


@dataclass
class HostRecord:
    """A host session as stored: when it opened and ends, the PIN it was opened under, the
    browser it came from (to recognise it in the list), and its public id."""

    sid: str
    opened: float
    expires: float
    stamp: str
    agent: str = ""


@dataclass
class HostTokens:
    """The unused and recently used CSRF tokens of one host session (memory only)."""

    tokens: deque[str] = field(default_factory=lambda: deque(maxlen=TOKENS_PER_HOST))
    used: deque[str] = field(default_factory=lambda: deque(maxlen=4 * TOKENS_PER_HOST))


class CsrfError(Exception):
    """A host request whose CSRF token is missing, already used, or unknown (``key`` says)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _digest(cookie: str) -> str:
    return hashlib.sha256(cookie.encode("utf-8", "replace")).hexdigest()


class HostSessions:
    """The logged-in hosts, by the SHA-256 of the random value their cookie holds, kept in the
    data directory so that a restart keeps them; changing the PIN (even from the terminal while
    the server runs) ends every one."""

    def __init__(self, pins: PinStore, hours: float, path: Path) -> None:
        self.pins = pins
        self.lifetime = hours * 3600
        self.path = path
        self._lock = threading.Lock()
        self._records: dict[str, HostRecord] = self._load()
        self._tokens: dict[str, HostTokens] = {}

    def _load(self) -> dict[str, HostRecord]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            return {digest: HostRecord(**record) for digest, record in raw.items()}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError, AttributeError):
            return {}  # an unreadable file logs every host out; it is rewritten at next login

    def _live(self, record: HostRecord, now: float, stamp: str) -> bool:
        return record.expires > now and record.stamp == stamp and stamp != ""

    def _commit(self, records: dict[str, HostRecord]) -> None:
        """Write ``records`` (the expired and void ones left out), then make them the sessions
        in memory; a write the data directory refuses raises StoreError and changes nothing.
        The caller holds the lock."""
        now, stamp = time.time(), self.pins.stamp()
        records = {d: r for d, r in records.items() if self._live(r, now, stamp)}
        write_private(self.path, {d: asdict(r) for d, r in records.items()})
        self._records = records
        self._tokens = {d: t for d, t in self._tokens.items() if d in records}

    def open(self, agent: str = "") -> str:
        """Start a host session; return the value for its cookie."""
        cookie = secrets.token_urlsafe(32)
        now = time.time()
        with self._lock:
            self._commit({**self._records, _digest(cookie): HostRecord(
                secrets.token_hex(6), now, now + self.lifetime, self.pins.stamp(),
                agent[:AGENT_CHARS])})
        return cookie

    def close(self, cookie: str | None) -> None:
        """End a host session (logout)."""
        digest = _digest(cookie or "")
        with self._lock:
            if digest in self._records:
                self._commit({d: r for d, r in self._records.items() if d != digest})

    def close_all(self) -> int:
        """End every host session (logout everywhere); say how many there were."""
        with self._lock:
            count = len(self._records)
            self._commit({})
        return count

    def revoke(self, sid: str) -> bool:
        """End the host session whose public id is ``sid``; whether there was one."""
        with self._lock:
            kept = {d: r for d, r in self._records.items() if r.sid != sid}
            found = len(kept) < len(self._records)
            if found:
                self._commit(kept)
        return found

    def listing(self, cookie: str | None) -> list[dict[str, Any]]:
        """The live host sessions, oldest first: public id, when opened and ends, browser, and
        whether it is the one asking."""
        mine = _digest(cookie or "")
        now, stamp = time.time(), self.pins.stamp()
        with self._lock:
            return [{"id": r.sid, "opened": round(r.opened), "expires": round(r.expires),
                     "agent": r.agent, "current": d == mine}
                    for d, r in sorted(self._records.items(), key=lambda i: i[1].opened)
                    if self._live(r, now, stamp)]

    def valid(self, cookie: str | None) -> bool:
        """Whether a cookie names a live host session."""
        if not cookie:
            return False
        with self._lock:
            record = self._records.get(_digest(cookie))
            return record is not None and self._live(record, time.time(), self.pins.stamp())

    def expires(self, cookie: str) -> float:
        """When this session ends (seconds since the epoch)."""
        with self._lock:
            return self._records[_digest(cookie)].expires

    def issue(self, cookie: str) -> str:
        """A fresh CSRF token for a host session."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._tokens.setdefault(_digest(cookie), HostTokens()).tokens.append(token)
        return token

    def consume(self, cookie: str, token: str | None) -> None:
        """Use up a CSRF token of this host session, or raise CsrfError saying what is wrong."""
        if not token:
            raise CsrfError("csrf.missing")
        with self._lock:
            host = self._tokens.setdefault(_digest(cookie), HostTokens())
            if token in host.used:
                raise CsrfError("csrf.replayed")
            if token not in host.tokens:
                raise CsrfError("csrf.invalid")
            host.tokens.remove(token)
            host.used.append(token)


class RoleTokens:
    """The current token of each role (one phone per role; a new token revokes the old)."""

    def __init__(self) -> None:
        self._tokens: dict[str, str] = {}
        self._lock = threading.Lock()

    def issue(self, role: str) -> str:
        """A new token for ``role``; the previous one stops working."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._tokens[role] = token
        return token

    def role_of(self, token: str | None) -> str | None:
        """The role this token opens, if any (compared in constant time)."""
        if not token:
            return None
        with self._lock:
            items = list(self._tokens.items())
        return next((role for role, known in items if hmac.compare_digest(known, token)), None)
