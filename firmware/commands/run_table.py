"""`arcana-table run --profile FILE`: the table on real hardware, as the systemd unit runs it.

`--emulated` runs the same loop on the profile's emulated devices (for trying a profile and
for tests); the journal makes a restarted table continue where it stopped. With `[web]`
enabled, a listening socket systemd hands over ($LISTEN_FDS, `arcana-table-web.socket`) is
served on; without one the web app binds the profile's port itself (docs/web.md).
"""

from __future__ import annotations

import argparse
import logging
import socket
import sys

from firmware import state_dir
from firmware.commands import open_table, table_buses
from firmware.commands.refusal import refuse
from firmware.errors import FirmwareError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile", default="full-table", help="table profile: a TOML file or a shipped name"
    )
    parser.add_argument(
        "--catalog",
        default=None,
        help="Arcana catalog: TOML file or name (default: the state directory's catalog.toml, "
        "the one the owner's phone builds, once it checks; else the sample)",
    )
    parser.add_argument(
        "--emulated",
        action="store_true",
        help="run on the profile's emulated devices (as ARCANA_TABLE_BUSES=emulated does)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log more")
    state_dir.add_argument(parser)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    from firmware.games import GameShelf
    from firmware.service import Service
    from firmware.table_loop import ServiceLoop
    from hardware.profile import ProfileError, load_profile

    try:
        profile = load_profile(args.profile)
    except (ProfileError, OSError) as err:
        print(f"arcana-table run: {err}", file=sys.stderr)
        return 2
    if profile.missing():  # no READY=1 for a table that cannot play
        print(f"arcana-table run: {'; '.join(profile.missing())}", file=sys.stderr)
        return 2
    try:
        handed = _handed_socket(profile.web.enabled)
    except FirmwareError as err:  # HandedSocketError: what fd 3 holds cannot be served on
        return refuse(f"arcana-table run: {err}")
    games = GameShelf.for_profile(profile, catalog=args.catalog or _owners_catalog(args))
    try:
        games.catalog  # noqa: B018 - validate the catalog before touching any device
    except Exception as err:  # CatalogError and file errors: one sentence, exit 2
        return refuse(f"arcana-table run: {err}")
    journal = state_dir.open_journal(args.state_dir, "run", announce=False)
    if journal is None:
        return 2
    games.bindings = journal.bindings()
    buses = table_buses(profile, "run", emulated=args.emulated)
    table = open_table(profile, "run", buses) if buses else None
    if table is None:
        journal.close()
        return 1 if buses else 2
    service = Service.from_environment()
    served = None
    try:
        if profile.web.enabled:  # the owner's web app (docs/web.md)
            try:
                loop, served = _with_web(table, journal, games, service, profile, args, handed)
            except OSError as err:
                journal.close()
                table.close()
                return refuse(_cannot_listen(profile.web.port, err))
        else:
            loop = ServiceLoop(table, journal, games, service)
        loop.run()
    finally:
        if served is not None:
            served.stop()
        service.close()
    return 0


def _owners_catalog(args: argparse.Namespace) -> str:
    """The catalog the owner built on the phone (docs/web.md), if it checks; else the sample."""
    from engine.arcana.catalog import CatalogError, load_catalog

    path = state_dir.resolve(args.state_dir) / "catalog.toml"
    if not path.is_file():
        return "sample"
    try:
        load_catalog(str(path))
    except CatalogError as err:
        more = f" (+{len(err.problems) - 1} more)" if len(err.problems) > 1 else ""
        logging.getLogger(__name__).warning(
            "%s is not complete yet (%s%s): playing the sample catalog", path, err.problems[0], more
        )
        return "sample"
    return str(path)


def _handed_socket(web_enabled: bool) -> socket.socket | None:
    """The listening socket systemd handed over, if any (None without [web] too)."""
    from firmware.web.activation import handed_socket

    sock = handed_socket()
    if sock is not None and not web_enabled:
        logging.getLogger(__name__).warning(
            "systemd handed over a listening socket (port %d) but the profile does not serve "
            "the web app: nothing answers on it. Add [web] enabled = true to the profile, or "
            "stop arcana-table-web.socket and remove the drop-in web.conf (docs/web.md)",
            sock.getsockname()[1],
        )
        sock.close()
        return None
    return sock


def _cannot_listen(port: int, err: OSError) -> str:
    return (
        f"arcana-table run: the web app cannot listen on port {port} ({err.strerror or err}). "
        "Under the systemd unit the service has no network of its own: install "
        "systemd/arcana-table-web.socket and its drop-in web.conf (docs/web.md); "
        "otherwise free the port or set another [web] port"
    )


def _with_web(table, journal, games, service, profile, args, handed):  # type: ignore[no-untyped-def]
    from firmware.web.serve import start

    state = state_dir.resolve(args.state_dir)
    loop, served = start(table, journal, games, service, profile, state, sock=handed)
    how = "on systemd's socket" if handed is not None else "on its own socket"
    logging.getLogger(__name__).info(
        "web app %s, port %d (pair with: arcana-table pair)", how, served.port
    )
    return loop, served
