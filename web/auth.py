"""The host PIN, host logins and their CSRF tokens, and the brake on wrong PINs.

The PIN is kept only as a salted scrypt hash in the data directory (``web/host-pin.json``, mode
0600) and never logged. A login gives the browser an HttpOnly, SameSite=Strict cookie naming a
host session held in memory; every change also needs a CSRF token, each usable once: a host
request consumes its token and the response carries the next one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from companion.engine import DataPaths

PIN_DIGITS = (4, 12)
SCRYPT = {"n": 2**14, "r": 8, "p": 1}
TOKENS_PER_HOST = 16


class PinError(ValueError):
    """A PIN that is not 4 to 12 digits."""


def check_pin_format(pin: object) -> str:
    """The PIN if it is 4 to 12 digits, else PinError."""
    low, high = PIN_DIGITS
    if not isinstance(pin, str) or not pin.isdigit() or not low <= len(pin) <= high:
        raise PinError(f"a PIN is {low} to {high} digits")
    return pin


def _hash(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, dklen=32)


class PinStore:
    """The host PIN of a data directory, stored as a salted scrypt hash."""

    def __init__(self, data_dir: Path) -> None:
        self.path = DataPaths(Path(data_dir)).host_pin

    def stamp(self) -> int:
        """When the PIN was last chosen (0 if never): host sessions opened before are void."""
        try:
            return self.path.stat().st_mtime_ns
        except FileNotFoundError:
            return 0

    def is_set(self) -> bool:
        """Whether a PIN was chosen (the first-run page asks for one until then)."""
        return self.path.exists()

    def set(self, pin: str) -> None:
        """Choose or replace the PIN (written atomically, readable by the owner only)."""
        salt = os.urandom(16)
        record = {"salt": salt.hex(), "hash": _hash(check_pin_format(pin), salt, **SCRYPT).hex(),
                  **SCRYPT}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(record, out)
        os.replace(tmp, self.path)

    def verify(self, pin: object) -> bool:
        """Whether ``pin`` is the PIN (constant-time comparison)."""
        if not isinstance(pin, str) or not self.is_set():
            return False
        record = json.loads(self.path.read_text(encoding="utf-8"))
        got = _hash(pin, bytes.fromhex(record["salt"]), record["n"], record["r"], record["p"])
        return hmac.compare_digest(got, bytes.fromhex(record["hash"]))


class LoginLimiter:
    """Allows ``attempts`` wrong PINs per client per ``window`` seconds, and four times as many
    for all clients together, so that a 4-digit PIN cannot be guessed by trying them all."""

    def __init__(self, attempts: int, window: float) -> None:
        self.attempts, self.window = attempts, window
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def retry_after(self, client: str) -> float:
        """Seconds before ``client`` may try again (0 if it may now)."""
        now = time.monotonic()
        with self._lock:
            waits = [times[0] + self.window - now
                     for key, limit in ((client, self.attempts), ("*", 4 * self.attempts))
                     if len(times := self._recent(key, now)) >= limit]
        return max(waits, default=0.0)

    def failed(self, client: str) -> None:
        """Count a wrong PIN."""
        now = time.monotonic()
        with self._lock:
            for key in (client, "*"):
                self._recent(key, now).append(now)


@dataclass
class HostSession:
    """One logged-in host (a phone or a browser profile) and its unused CSRF tokens."""

    expires: float
    stamp: int
    tokens: deque[str] = field(default_factory=lambda: deque(maxlen=TOKENS_PER_HOST))
    used: deque[str] = field(default_factory=lambda: deque(maxlen=4 * TOKENS_PER_HOST))


class CsrfError(Exception):
    """A host request whose CSRF token is missing, already used, or unknown (``key`` says)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class HostSessions:
    """The logged-in hosts, by the random id their cookie holds; changing the PIN (even from the
    terminal while the server runs) logs every host out."""

    def __init__(self, pins: PinStore, hours: float) -> None:
        self.pins = pins
        self.lifetime = hours * 3600
        self._hosts: dict[str, HostSession] = {}
        self._lock = threading.Lock()

    def open(self) -> str:
        """Start a host session; return the id for its cookie."""
        host_id = secrets.token_urlsafe(32)
        with self._lock:
            now = time.time()
            self._hosts = {k: h for k, h in self._hosts.items() if h.expires > now}
            self._hosts[host_id] = HostSession(now + self.lifetime, self.pins.stamp())
        return host_id

    def close(self, host_id: str | None) -> None:
        """End a host session (logout)."""
        with self._lock:
            self._hosts.pop(host_id or "", None)

    def valid(self, host_id: str | None) -> bool:
        """Whether a cookie names a live host session."""
        with self._lock:
            host = self._hosts.get(host_id or "")
            return (host is not None and host.expires > time.time()
                    and host.stamp == self.pins.stamp())

    def issue(self, host_id: str) -> str:
        """A fresh CSRF token for a host session."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._hosts[host_id].tokens.append(token)
        return token

    def consume(self, host_id: str, token: str | None) -> None:
        """Use up a CSRF token of this host session, or raise CsrfError saying what is wrong."""
        if not token:
            raise CsrfError("csrf.missing")
        with self._lock:
            host = self._hosts[host_id]
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
