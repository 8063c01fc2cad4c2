"""`arcana-table demo`: a complete game through the whole stack on emulated hardware.

Tags are placed on emulated PN532s at bus level and read by the real adafruit driver, the
scanner reports them, the registry knows them (half carry their card id in NDEF, half are
bound by UID), a simple bot plays every seat, and luma draws into emulated displays whose
frames are printed here as text art.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
from pathlib import Path
from typing import Any

from firmware.commands.refusal import refuse

CONTROLLERS = {
    "arcana": "firmware.controllers.arcana",
    "res-arcana": "firmware.controllers.resarcana",
}
MAX_TURNS = 100_000


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=tuple(CONTROLLERS), default="arcana")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal and the bot")
    parser.add_argument(
        "--variant", choices=("basic", "advanced"), default="basic", help="Arcana variant"
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print the screens once per round, not every change"
    )
    parser.add_argument(
        "--state-dir", type=Path, default=None, help="journal directory (default: a temporary one)"
    )


class Demo:
    """A bot's game on a Tabletop, printing the screens as they change (or once a round)."""

    def __init__(self, top: Any, quiet: bool, out: Any = sys.stdout) -> None:
        self.top = top
        self.quiet = quiet
        self.out = out
        self.shown: dict[str, bytes] = {}
        self.last_round: int | None = None

    def show(self, force: bool = False) -> None:
        from firmware.screens import text_art

        for role, frame in self.top.screens().items():
            data = frame.tobytes()
            if force or self.shown.get(role) != data:
                self.shown[role] = data
                print(f"--- {role} " + "-" * (60 - len(role)), file=self.out)
                print(text_art(frame), file=self.out)

    def step(self, move: Any) -> None:
        self.top.perform(move)
        if not self.quiet:
            self.show()
        elif (current := self.round()) is not None and current != self.last_round:
            self.last_round = current
            print(f"=== round {current} ===", file=self.out)
            self.show(force=True)

    def round(self) -> int | None:
        companion = self.top.companion
        if companion.rules is None:
            return None
        return companion.rules.result(companion.controller.state)["round"]

    def play(self, bot: Any) -> dict[str, Any] | None:
        """Set up and play to the end; the replay result, or None if it never ended."""
        for move in bot.setup_steps():
            self.step(move)
        companion = self.top.companion  # its controller changes when the game begins
        for _ in range(MAX_TURNS):
            if companion.controller.is_over():
                self.show(force=self.quiet)
                return companion.rules.result(companion.controller.state)
            for move in bot.next_steps(companion.controller.state):
                self.step(move)
        return None


def run(args: argparse.Namespace) -> int:
    from firmware.games import TableGames
    from firmware.journal import JournalError
    from firmware.tabletop import Tabletop, uid_for

    controllers = importlib.import_module(CONTROLLERS[args.game])
    if args.game == "arcana":
        bot = controllers.Bot(args.seed, args.players, variant=args.variant)
    else:
        bot = controllers.Bot(args.seed, args.players)
    games = TableGames()
    cards = sorted(games.cards(None))
    games.bindings = {uid_for(card): card for card in cards[1::2]}  # the rest carry their id
    with tempfile.TemporaryDirectory(prefix="arcana-demo-") as scratch:
        try:
            top = Tabletop(args.state_dir or scratch, games, written_ids=set(cards[0::2]))
        except JournalError as err:
            return refuse(f"arcana-table demo: {err}")
        with top:
            result = Demo(top, args.quiet).play(bot)
    if result is None:
        print("the demo game did not finish", file=sys.stderr)
        return 1
    print("=== final ranking ===")
    for player in sorted(result["players"], key=lambda p: -p["vp"]):
        crown = "  (winner)" if player["name"] in result.get("winners", []) else ""
        print(f"{player['name']:<10} {player['vp']:>3} VP{crown}")
    return 0
