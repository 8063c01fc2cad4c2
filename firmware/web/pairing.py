"""Who may use the table's web app: one-time pairing codes, the paired devices and their roles.

    pairing = Pairing(state_dir)               # web-devices.json in the journal's directory
    offer = pairing.offer(Role.owner())        # the code the status OLED's QR code carries
    device, token = pairing.redeem(offer.code, "Ana's phone")   # the phone's cookie: token
    pairing.device_for(token)                  # -> Device (its role), or None once revoked
    pairing.revoke(device.id)

Roles: the owner (the first device paired, and whoever `arcana-table pair` pairs later:
holding the table is the proof), a seat (`seat` 1..4, paired from the owner's page) and a
spectator (only if the profile allows it). A code is good for one device and `CODE_S`
seconds, and only one code is open at a time (a new offer replaces it). Tokens are 256 random
bits; only their SHA-256 is stored. Refused redemptions are rate-limited: at most
`MAX_FAILURES` per `FAILURE_WINDOW_S` for the whole table (a per-client limit would let a
guesser change addresses), then every redemption is refused until the window passes.

The file is shared by the service (`arcana-table run`) and `arcana-table pair`: each change
is a read-modify-write under an flock, written atomically (a temporary file renamed over it)
with mode 0600, so a code or a hash never sits in a file others may read.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from firmware.errors import FirmwareError
from firmware.web.sentences import said

FILE = "web-devices.json"
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"  # no I/L/O/U, 0/1: read aloud without doubt
CODE_LENGTH = 10  # 30**10: 49 bits
CODE_S = 300.0
MAX_FAILURES = 5
FAILURE_WINDOW_S = 60.0
MAX_DEVICES = 32
SEATS = range(1, 5)


class PairingRefused(FirmwareError):
    """A pairing or a revocation that did not happen: `status` (HTTP) and a sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Role:
    """ "owner", "seat" (with its number, 1..4, as the table's screens count) or "spectator"."""

    kind: str
    seat: int | None = None

    @staticmethod
    def owner() -> Role:
        return Role("owner")

    @staticmethod
    def spectator() -> Role:
        return Role("spectator")

    @staticmethod
    def of_seat(seat: int) -> Role:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
            raise PairingRefused(400, said("no_seat_to_pair", seat=repr(seat)))
        return Role("seat", seat)

    @property
    def label(self) -> str:
        """How the status OLED and the pages name it: "Owner", "Seat 2", "Spectator"."""
        return f"Seat {self.seat}" if self.kind == "seat" else self.kind.capitalize()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "label": self.label}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Role:
        return Role(data["kind"], data.get("seat"))


@dataclass(frozen=True)
class Offer:
    code: str
    role: Role
    until: float  # wall-clock seconds (the CLI and the service share it)


@dataclass(frozen=True)
class Device:
    id: str  # short and public: the owner's page lists and revokes devices by it
    role: Role
    name: str
    paired_at: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "role": self.role.to_json(), "name": self.name,
                "paired_at": self.paired_at}  # fmt: skip


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


class Pairing:
    """The pairing file of one state directory; every method reads it afresh (another
    process may have changed it) and writes it back whole."""

    def __init__(
        self,
        state_dir: Path | str,
        clock: Callable[[], float] = time.time,
        code_s: float = CODE_S,
    ) -> None:
        self.path = Path(state_dir) / FILE
        self.clock = clock
        self.code_s = code_s
        self._failures: deque[float] = deque()  # this process's refused redemptions
        self._seen: tuple[float, int] | None = None  # (mtime, size) of the last read
        self._cached: dict[str, Any] = {}

    # -- offers -------------------------------------------------------------------------
    def offer(self, role: Role) -> Offer:
        """A new one-time code for `role` (replacing any open one)."""
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        offer = Offer(code, role, self.clock() + self.code_s)
        with self._changing() as data:
            data["offer"] = {"code": code, "role": asdict(role), "until": offer.until}
        return offer

    def pending(self) -> Offer | None:
        """The open code, if any and not expired (cheap: re-reads only a changed file)."""
        found = self._read_if_changed().get("offer")
        if not found or found["until"] <= self.clock():
            return None
        return Offer(found["code"], Role.from_json(found["role"]), found["until"])

    def withdraw(self) -> None:
        """Close the open code (the owner's page cancelled it)."""
        with self._changing() as data:
            data.pop("offer", None)

    def redeem(self, code: Any, name: Any = "") -> tuple[Device, str]:
        """Pair the device that brings the open code: its Device and its new token."""
        now = self.clock()
        while self._failures and self._failures[0] <= now - FAILURE_WINDOW_S:
            self._failures.popleft()
        if len(self._failures) >= MAX_FAILURES:
            wait = self._failures[0] + FAILURE_WINDOW_S - now
            raise PairingRefused(429, said("too_many_codes", seconds=max(1, round(wait))))
        with self._changing() as data:
            found = data.get("offer")
            right = (
                isinstance(code, str)
                and found is not None
                and found["until"] > now
                and hmac.compare_digest(code.strip().upper().encode(), found["code"].encode())
            )
            if not right:
                self._failures.append(now)
                raise PairingRefused(403, said("wrong_code"))
            devices = data.setdefault("devices", [])
            if len(devices) >= MAX_DEVICES:
                raise PairingRefused(409, said("too_many_devices", count=MAX_DEVICES))
            role = Role.from_json(found["role"])
            token = secrets.token_urlsafe(32)
            shown = name.strip()[:40] if isinstance(name, str) and name.strip() else role.label
            device = Device(secrets.token_hex(4), role, shown, now)
            devices.append({**device.to_json(), "role": asdict(role), "hash": token_hash(token)})
            del data["offer"]  # one device per code
        return device, token

    # -- devices ------------------------------------------------------------------------
    def device_for(self, token: str | None) -> Device | None:
        """The paired device whose token this is, or None."""
        if not token:
            return None
        wanted = token_hash(token)
        for entry in self._read_if_changed().get("devices", []):
            if hmac.compare_digest(entry["hash"], wanted):
                return _device(entry)
        return None

    def devices(self) -> list[Device]:
        return [_device(entry) for entry in self._read_if_changed().get("devices", [])]

    def has_owner(self) -> bool:
        return any(device.role.kind == "owner" for device in self.devices())

    def revoke(self, device_id: Any) -> Device:
        """Unpair a device: its token is refused from now on."""
        with self._changing() as data:
            devices = data.get("devices", [])
            for entry in devices:
                if entry["id"] == device_id:
                    devices.remove(entry)
                    return _device(entry)
        raise PairingRefused(404, said("no_device", id=repr(str(device_id)[:40])))

    # -- the file -----------------------------------------------------------------------
    def _read(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise PairingRefused(
                500, said("pairing_damaged", path=str(self.path), error=str(err))
            ) from None
        return data if isinstance(data, dict) else {}

    def _read_if_changed(self) -> dict[str, Any]:
        try:
            status = self.path.stat()
            seen: tuple[float, int] | None = (status.st_mtime, status.st_size)
        except FileNotFoundError:
            seen = None
        if seen is None or seen != self._seen:
            self._cached = self._read()
            self._seen = seen
        return self._cached

    @contextlib.contextmanager
    def _changing(self) -> Iterator[dict[str, Any]]:
        """The file's data under its lock, written back atomically when the block ends."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = os.open(self.path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            data = self._read()
            yield data
            temporary = self.path.with_suffix(".tmp")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
            self._seen = None  # read it again next time
        finally:
            os.close(lock)


def _device(entry: dict[str, Any]) -> Device:
    return Device(entry["id"], Role.from_json(entry["role"]), entry["name"], entry["paired_at"])
