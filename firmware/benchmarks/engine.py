"""`arcana-table bench engine --game G`: random playouts through the public game API.

Each engine package offers `random_playout(rng, players) -> dict` (at least `actions`,
`rounds` and `finished`): one complete game with legal actions generated at every step and
the benchmark policy (when other actions exist, pass with probability 0.15; otherwise a
uniformly random legal action). This module only keeps the clock, which the engine may not.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from collections import Counter
from typing import Any

from engine.records import GAMES
from firmware.commands.refusal import seconds


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=sorted(GAMES), default="res-arcana")
    parser.add_argument(
        "--players",
        type=int,
        choices=(2, 3, 4),
        default=None,
        help="players per game (default: 2, 3 and 4 in turn)",
    )
    parser.add_argument("--seconds", type=seconds, default=5.0, help="time budget (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random playouts")


def run(args: argparse.Namespace) -> dict[str, Any]:
    return measure(args.game, args.seconds, args.seed, args.players)


def measure(game: str, seconds: float, seed: int, players: int | None = None) -> dict[str, Any]:
    """Play random games for `seconds` of process time on one core; return the figures."""
    playout = importlib.import_module(GAMES[game]).random_playout
    rng = random.Random(seed)
    games = actions = unfinished = 0
    rounds: Counter[int] = Counter()
    per_game: list[float] = []
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        count = players or (2, 3, 4)[games % 3]
        before = time.process_time()
        stats = playout(rng, count)
        per_game.append(time.process_time() - before)
        games += 1
        actions += stats["actions"]
        rounds[stats["rounds"]] += 1
        unfinished += not stats["finished"]
        elapsed = time.process_time() - start
    return {
        "benchmark": "engine",
        "game": game,
        "seed": seed,
        "players": players or "2,3,4",
        "cpu_seconds": round(elapsed, 3),
        "games": games,
        "actions": actions,
        "actions_per_s": round(actions / elapsed),
        "games_per_s": round(games / elapsed, 2),
        "median_ms_per_game": round(statistics.median(per_game) * 1000, 3),
        "unfinished_games": unfinished,
        "rounds_per_game": {str(k): v for k, v in sorted(rounds.items())},
        "median_rounds": statistics.median(rounds.elements()),
    }
