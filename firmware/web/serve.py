"""The web app beside the table loop: `arcana-table run` calls `start` when the profile's
`[web]` section enables it.

    loop, served = start(table, journal, games, service, profile, state_dir)
    loop.run()          # the table as ever; the web app answers from its own thread
    served.stop()

The status display (or a minimal table's one screen) is wrapped in a `QrOverlay` that shows
the open pairing code's QR code. `sock`: a listening socket handed over by systemd
(`firmware/web/activation.py`), served on instead of binding the port. The address in the
codes is the first of (docs/web.md, "The address in the QR code"): `address`, the profile's
`[web] address`, the address `sock` is bound to, the first private address of `sock`'s
network, the address this machine's default route leaves by.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from pathlib import Path
from typing import Any

from firmware.controllers.base import Shelf
from firmware.table_loop import ServiceLoop
from firmware.web import activation
from firmware.web.app import SETTINGS, make_app, overlay_pending
from firmware.web.live import LiveTable
from firmware.web.pairing import Pairing
from firmware.web.qr import QrOverlay, Remembered
from firmware.web.running import Running
from firmware.web.table_pairing import owner_code
from hardware.profile import Profile

log = logging.getLogger(__name__)
BIND = "0.0.0.0"  # the unit's IPAddressAllow keeps it to the local networks (docs/web.md)


def table_address() -> str:
    """This machine's address on its network (the route a packet out would take; nothing
    is sent), or 127.0.0.1 without a network (or without the right to open a socket)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a route, never a peer
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def pairing_address(profile: Profile, sock: socket.socket | None = None) -> str:
    """The address the phones reach the table by, for the QR codes (the order: above)."""
    if profile.web.address:
        return profile.web.address
    if sock is not None:
        found = activation.bound_address(sock) or activation.phone_address(
            activation.network_addresses(sock)
        )
        if found:
            return found
    found = table_address()
    if ipaddress.ip_address(found).is_loopback:
        log.warning(
            "the pairing QR codes show %s, which no phone can open: set the table's address "
            'in the profile ([web] address = "192.168.1.20", docs/web.md)',
            found,
        )
    return found


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
    sock: socket.socket | None = None,
) -> tuple[ServiceLoop, Running]:
    """A ServiceLoop whose status display shows pairing codes, and the web app serving it
    (`port`: the profile's unless given; 0 picks a free one, for tests). Raises OSError when
    the web app cannot listen (the port taken, or no network allowed)."""
    port = profile.web.port if port is None else port
    if sock is not None and sock.getsockname()[1] != port:
        log.warning(
            "systemd's socket listens on port %d, the profile's [web] port is %d: the web app "
            "serves on %d; make them the same (arcana-table pair prints the profile's)",
            sock.getsockname()[1],
            port,
            sock.getsockname()[1],
        )
    pairing = Pairing(state_dir)
    address = address or pairing_address(profile, sock)
    displays: dict[str, Any] = {role: Remembered(d) for role, d in table.displays.items()}
    role = status_role(displays)
    overlay = displays[role] = QrOverlay(table.displays[role], lambda: None)
    loop = ServiceLoop(table, journal, games, service, displays=displays)
    loop.companion.pair_phone = owner_code(pairing)  # hold Select on the game choice
    live = LiveTable(loop, profile, games)
    app = make_app(live, pairing, address, port, spectators=profile.web.spectators)
    served = Running(app, host=host, port=port, sock=sock)
    app[SETTINGS]["port"] = served.port
    overlay.pending = overlay_pending(pairing, address, served.port)  # the port now known
    return loop, served
