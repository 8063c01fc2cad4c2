"""`arcana-table bench companion`: tap-to-screen latency over demo games.

Each tap is timed from the emulated tag appearing on its PN532 to the last display byte
written: the scan cycle through the real driver, the registry, the controller, the engine,
the journal's durable append, rendering and luma's partial update, all in software (the Pi's
bus time comes on top; see `bench hardware`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import tempfile
from typing import Any

from firmware.commands.demo import CONTROLLERS, Demo


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", choices=tuple(CONTROLLERS), default=None, help="one game (default: both)"
    )
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    parser.add_argument("--seed", type=int, default=1)


def run(args: argparse.Namespace) -> dict[str, Any]:
    games = [args.game] if args.game else list(CONTROLLERS)
    return {
        "benchmark": "companion",
        "players": args.players,
        "seed": args.seed,
        "games": {game: measure(game, args.players, args.seed) for game in games},
    }


def measure(game: str, players: int, seed: int) -> dict[str, Any]:
    from firmware.games import TableGames
    from firmware.tabletop import Tabletop

    controllers = importlib.import_module(CONTROLLERS[game])
    bot = controllers.Bot(seed, players)
    with (
        tempfile.TemporaryDirectory(prefix="arcana-bench-") as scratch,
        Tabletop(scratch, TableGames()) as top,
        open(os.devnull, "w") as sink,
    ):
        result = Demo(top, quiet=True, out=sink).play(bot)
        latencies = sorted(top.tap_latencies)
    ms = [t * 1000 for t in latencies]
    return {
        "finished": result is not None,
        "taps": len(ms),
        "p50_ms": round(statistics.median(ms), 3),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 3),
        "max_ms": round(ms[-1], 3),
    }
