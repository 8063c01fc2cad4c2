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
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--games", type=int, default=3, help="games per kind (seeds in a row)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    games = [args.game] if args.game else list(CONTROLLERS)
    seeds = range(args.seed, args.seed + args.games)
    return {
        "benchmark": "companion",
        "players": args.players,
        "seeds": list(seeds),
        "games": {game: measure(game, args.players, seeds) for game in games},
    }


def measure(game: str, players: int, seeds: range) -> dict[str, Any]:
    """Latency figures over one demo game per seed."""
    latencies: list[float] = []
    finished = 0
    for seed in seeds:
        played, taps = play(game, players, seed)
        finished += played
        latencies += taps
    ms = sorted(t * 1000 for t in latencies)
    return {
        "finished": finished,
        "taps": len(ms),
        "p50_ms": round(statistics.median(ms), 3),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 3),
        "max_ms": round(ms[-1], 3),
    }


def play(game: str, players: int, seed: int) -> tuple[bool, list[float]]:
    """One demo game: did it finish, and the latency of each tap (seconds)."""
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable

    bot = importlib.import_module(CONTROLLERS[game]).Bot(seed, players)
    with (
        tempfile.TemporaryDirectory(prefix="arcana-bench-") as scratch,
        EmulatedTable(scratch, GameShelf()) as top,
        open(os.devnull, "w") as sink,
    ):
        result = Demo(top, quiet=True, out=sink).play(bot)
        return result is not None, list(top.tap_latencies)
