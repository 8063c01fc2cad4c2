"""`arcana-table bench companion`: tap-to-screen latency over demo games.

Each tap is timed from the emulated tag appearing on its PN532 to the last display byte
written: the scan cycle through the real driver, the registry, the controller, the engine,
the journal's durable append, rendering and luma's partial update, all in software (the Pi's
bus time comes on top; see `bench hardware`).

`--phones N` serves the owner's web app beside the table and has N paired seats' phones
streaming from it (another process), each fetching its state on every screen change
(`firmware.benchmarks.phones`). Each tap waits until every phone has fetched the screens of
the one before (players are slower than phones); `--back-to-back` taps at once, so the
phones' questions queue before the next tap (the worst case). `--runs R` repeats the whole
measure and gives the median of each figure.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import tempfile
from typing import Any

from firmware.commands.demo import CONTROLLERS, Demo

FIGURES = ("p50_ms", "p99_ms", "max_ms")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", choices=tuple(CONTROLLERS), default=None, help="one game (default: both)"
    )
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--games", type=int, default=3, help="games per kind (seeds in a row)")
    parser.add_argument(
        "--phones",
        type=int,
        choices=range(0, 9),
        default=0,
        metavar="N",
        help="paired seats' phones streaming from the web app meanwhile (0-8, default 0)",
    )
    parser.add_argument(
        "--back-to-back",
        action="store_true",
        help="with --phones: tap again at once, while the phones still fetch (worst case)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="repeat the measure, give medians (default 1)"
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    games = [args.game] if args.game else list(CONTROLLERS)
    seeds = range(args.seed, args.seed + args.games)
    return {
        "benchmark": "companion",
        "players": args.players,
        "phones": args.phones,
        "back_to_back": args.back_to_back,
        "seeds": list(seeds),
        "runs": args.runs,
        "games": {
            game: medians(
                [
                    measure(game, args.players, seeds, args.phones, args.back_to_back)
                    for _ in range(args.runs)
                ]
            )
            for game in games
        },
    }


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One run's figures as they are; several runs' median of each, with every run's p99."""
    if len(runs) == 1:
        return runs[0]
    merged = dict(runs[0])
    for figure in FIGURES:
        merged[figure] = round(statistics.median(r[figure] for r in runs), 3)
    merged["p99_ms_runs"] = [r["p99_ms"] for r in runs]
    if "states_fetched" in merged:
        merged["states_fetched"] = [r["states_fetched"] for r in runs]
    return merged


def measure(
    game: str, players: int, seeds: range, phones: int = 0, back_to_back: bool = False
) -> dict[str, Any]:
    """Latency figures over one demo game per seed."""
    latencies: list[float] = []
    finished = 0
    states = 0
    for seed in seeds:
        played, taps, fetched = play(game, players, seed, phones, back_to_back)
        finished += played
        latencies += taps
        states += fetched
    ms = sorted(t * 1000 for t in latencies)
    figures: dict[str, Any] = {
        "finished": finished,
        "taps": len(ms),
        "p50_ms": round(statistics.median(ms), 3),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 3),
        "max_ms": round(ms[-1], 3),
    }
    if phones:
        figures["states_fetched"] = states
    return figures


def play(
    game: str, players: int, seed: int, phones: int = 0, back_to_back: bool = False
) -> tuple[bool, list[float], int]:
    """One demo game: did it finish, the latency of each tap (seconds), and how many states
    the phones fetched meanwhile."""
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable

    bot = importlib.import_module(CONTROLLERS[game]).Bot(seed, players)
    with (
        tempfile.TemporaryDirectory(prefix="arcana-bench-") as scratch,
        open(os.devnull, "w") as sink,
    ):
        if not phones:
            with EmulatedTable(scratch, GameShelf()) as top:
                result = Demo(top, quiet=True, out=sink).play(bot)
                return result is not None, list(top.tap_latencies), 0
        from firmware.benchmarks.phones import StreamedTable

        with StreamedTable(scratch, GameShelf(), phones, players, back_to_back) as streamed:
            result = Demo(streamed, quiet=True, out=sink).play(bot)
            report = streamed.phones_report()
            if report.get("errors"):
                raise RuntimeError(f"bench phones failed: {report['errors'][:3]}")
            return result is not None, list(streamed.tap_latencies), sum(report["states"])
