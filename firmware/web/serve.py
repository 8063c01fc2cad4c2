"""The web app beside the table loop: `arcana-table run` calls `start` when the profile's
`[web]` section enables it.

    loop, served = start(table, journal, games, service, profile, state_dir)
    loop.run()          # the table as ever; the web app answers from its own thread
    served.stop()

The status display (or a minimal table's one screen) is wrapped in a `QrOverlay` that shows
the open pairing code's QR code; `address` (default: the address this machine reaches its
network by) goes into the codes.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from firmware.controllers.base import Shelf
from firmware.table_loop import ServiceLoop
from firmware.web.app import SETTINGS, make_app, overlay_pending
from firmware.web.live import LiveTable
from firmware.web.pairing import Pairing
from firmware.web.qr import QrOverlay, Remembered
from firmware.web.running import Running
from firmware.web.table_pairing import owner_code
from hardware.profile import Profile

BIND = "0.0.0.0"  # the unit's IPAddressAllow keeps it to the local networks (docs/web.md)


def table_address() -> str:
    """This machine's address on its network (the route a packet out would take; nothing
    is sent), or 127.0.0.1 without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a route, never a peer
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def status_role(displays: dict[str, Any]) -> str:
    return "status" if "status" in displays else next(iter(displays))


def start(
    table: Any,
    journal: Any,
    games: Shelf,
    service: Any,
    profile: Profile,
    state_dir: Path,
    address: str | None = None,
    host: str = BIND,
    port: int | None = None,
) -> tuple[ServiceLoop, Running]:
    """A ServiceLoop whose status display shows pairing codes, and the web app serving it
    (`port`: the profile's unless given; 0 picks a free one, for tests)."""
    port = profile.web.port if port is None else port
    pairing = Pairing(state_dir)
    address = address or table_address()
    displays: dict[str, Any] = {role: Remembered(d) for role, d in table.displays.items()}
    role = status_role(displays)
    overlay = displays[role] = QrOverlay(table.displays[role], lambda: None)
    loop = ServiceLoop(table, journal, games, service, displays=displays)
    loop.companion.pair_phone = owner_code(pairing)  # hold Select on the game choice
    live = LiveTable(loop, profile, games)
    app = make_app(live, pairing, address, port, spectators=profile.web.spectators)
    served = Running(app, host=host, port=port)
    app[SETTINGS]["port"] = served.port
    overlay.pending = overlay_pending(pairing, address, served.port)  # the port now known
    return loop, served
