"""`arcana-table sim`: the table in a web browser, on the emulated hardware of a profile.

The real firmware runs on emulated readers, displays and buttons; the page shows the pads,
each seat's cards, the buttons and live mirrors of every OLED. The journal keeps the game,
so stopping and starting the simulator finds it where it was. Needs the `sim` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import os
import secrets
import signal
import sys
from pathlib import Path
from typing import Any

from firmware.commands.refusal import refuse, whole

GAMES = ("arcana", "res-arcana")
LOOPBACK = {"localhost"}


def default_state_dir() -> Path:
    """~/.local/state/arcana-table-sim (or under $XDG_STATE_HOME)."""
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "arcana-table-sim"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", choices=GAMES, default=None, help="skip the choice of game and seat players"
    )
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=2, help="with --game (default 2)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the seating with --game")
    parser.add_argument(
        "--variant",
        choices=("basic", "advanced"),
        default="basic",
        help="with --game arcana: the variant (advanced: kept tasks too)",
    )
    parser.add_argument(
        "--profile",
        default="full-table",
        help="table profile: a shipped name (full-table, minimal) or a TOML file",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=whole(0, 65535), default=8080, help="port (default 8080; 0: any free)"
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help=f"journal directory (default {default_state_dir()})",
    )
    parser.add_argument(
        "--token",
        default=None,
        help="secret every API call must carry; required to bind anything but loopback",
    )


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    try:
        from firmware.sim.server import make_app
    except ModuleNotFoundError as err:
        print(
            f"arcana-table sim needs the sim extra ({err.name} is missing): "
            "pip install -e '.[sim]' (python3 dev.py sim does it for you)",
            file=sys.stderr,
        )
        return 2
    from firmware.journal import JournalError
    from firmware.sim.table import Simulator
    from hardware.profile import ProfileError, load_profile

    if not is_loopback(args.host) and not args.token:
        print(
            f"arcana-table sim: binding {args.host} lets other machines in; "
            f"give a secret with --token (for example --token {secrets.token_urlsafe(12)})",
            file=sys.stderr,
        )
        return 2
    state_dir = args.state_dir or default_state_dir()
    try:
        profile = load_profile(args.profile)
    except ProfileError as err:
        return refuse(f"arcana-table sim: {err}")
    if profile.missing():
        return refuse(f"arcana-table sim: {'; '.join(profile.missing())}")
    try:
        table = Simulator(state_dir, profile)
    except (JournalError, OSError) as err:
        return refuse(f"arcana-table sim: {err}")
    companion = table.top.companion
    for sentence in companion.set_asides:
        print(f"arcana-table sim: {sentence}", file=sys.stderr)
    if companion.game_id is not None:
        print(f"resuming game {companion.game_id} ({companion.rules.name}) from {state_dir}")
    elif args.game:
        try:
            table.set_up(args.game, args.players, args.seed, args.variant)
        except ValueError as err:
            table.close()
            print(f"arcana-table sim: {err}", file=sys.stderr)
            return 2
    app = make_app(table, token=args.token)
    return asyncio.run(_serve(app, args.host, args.port, args.token, state_dir))


async def _serve(app: Any, host: str, port: int, token: str | None, state_dir: Path) -> int:
    from aiohttp import web

    from firmware.web.site import Site

    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = Site(runner, host, port)
    try:
        await site.start()
    except OSError as err:
        await runner.cleanup()
        print(
            f"arcana-table sim: cannot listen on {host}:{port} ({err.strerror}); "
            "choose another port with --port (0: any free one)",
            file=sys.stderr,
        )
        return 2
    bound = site.port  # the one chosen when --port 0
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    address = f"http://{shown}:{bound}/" + (f"?token={token}" if token else "")
    print(f"arcana-table sim: open {address} in a browser", flush=True)
    print(f"(journal in {state_dir}; Ctrl+C stops, and the game waits there)", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await runner.cleanup()
    return 0
