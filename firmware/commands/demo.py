"""`arcana-table demo`: a complete game through the whole stack on emulated hardware.

Tags are placed on emulated PN532s at bus level and read by the real adafruit driver, the
scanner reports them, the registry knows them (half carry their card id in NDEF, half are
bound by UID), a simple bot plays every seat, and luma draws into emulated displays whose
frames are printed here as text art.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware.commands.refusal import refuse
from firmware.errors import FirmwareError

if TYPE_CHECKING:
    from firmware.steps import Step

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
        "--frames",
        action="store_true",
        help="print every screen each time it changes, under the caption of its action",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="no captions: print the screens once per round"
    )
    parser.add_argument(
        "--state-dir", type=Path, default=None, help="journal directory (default: a temporary one)"
    )


class JournalStopped(FirmwareError):
    """The journal refused a write: the demo cannot go on (one sentence, exit 1)."""


class Demo:
    """A bot's game on an EmulatedTable, printed as it goes.

    By default one caption line per action ("12. tap on stake-2 -> Blades: placed Blades
    agent 3 on stake 3") and the screens at the end; `frames`: every screen as it changes,
    each under the caption of the action that changed it; `quiet`: the screens once a round.
    Captions never name a card laid face down (the journal's description hides it).
    """

    def __init__(self, top: Any, quiet: bool, out: Any = None, frames: bool = False) -> None:
        self.top = top
        self.quiet = quiet
        self.frames = frames and not quiet
        self.out = sys.stdout if out is None else out  # read when run: tests swap stdout
        self.shown: dict[str, bytes] = {}
        self.last_round: int | None = None
        self.steps = 0

    def show(self, force: bool = False) -> None:
        from firmware.screens import text_art

        for role, frame in self.top.screens().items():
            data = frame.tobytes()
            if force or self.shown.get(role) != data:
                self.shown[role] = data
                print(f"--- {role} " + "-" * (60 - len(role)), file=self.out)
                print(text_art(frame), file=self.out)

    def step(self, move: Step) -> None:
        companion = self.top.companion
        before = companion.controller.state
        played = self._lines()
        self.top.perform(move)
        self.steps += 1
        trouble = self.top.companion.journal_trouble
        if trouble is not None:  # a full disk refuses every move: stop, never spin
            raise JournalStopped(trouble)
        if not self.quiet:
            print(f"{self.steps:>4}. {self.caption(move, before, played)}", file=self.out)
        if self.frames:
            self.show()
        elif self.quiet and (current := self.round()) is not None and current != self.last_round:
            self.last_round = current
            print(f"=== round {current} ===", file=self.out)
            self.show(force=True)

    def caption(self, move: Step, before: Any, played: int) -> str:
        """The step (never the tapped card: it may go face down) and what it did: the
        journalled action, the notice shown, or what the status screen asks next."""
        done = move.caption
        companion = self.top.companion
        lines = self._lines()
        if lines > played and companion.game_id is not None:
            line = self.top.journal.lines(companion.game_id)[-1]
            player = line.get("player")
            names = companion.rules.result(companion.controller.state)["players"]
            who = f"{names[player]['name']}: " if isinstance(player, int) else ""
            return f"{done} -> {who}{companion.games.describe(line, before)}"
        notices = [notice.message for notice in companion.notices.values()]
        if notices:
            return f"{done} -> {notices[-1]}"
        asked = self.asked()
        return f"{done} -> {asked}" if asked else done

    def asked(self) -> str:
        """What the status screen shows now, in a line (the setup's questions)."""
        from firmware.screens import ChoiceScreen, PromptScreen

        companion = self.top.companion
        status = companion.controller.screens().get(companion.status_role)
        match status:
            case ChoiceScreen(title=title, options=options, selected=selected) if options:
                return f"{title} {options[selected]}"
            case PromptScreen(title=title, text=text):
                text = " ".join(text.split("\n"))
                return f"{title}: {text}" if title else text
        return ""

    def _lines(self) -> int:
        game_id = self.top.companion.game_id
        return 0 if game_id is None else len(self.top.journal.lines(game_id))

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
                if not self.frames:
                    print("=== the screens at the end ===", file=self.out)
                self.show(force=not self.frames)
                return companion.rules.result(companion.controller.state)
            for move in bot.next_steps(companion.controller.state):
                self.step(move)
        return None


def run(args: argparse.Namespace) -> int:
    from firmware.games import GameShelf
    from firmware.journal import JournalError
    from firmware.tabletop import EmulatedTable, uid_for
    from hardware.profile import load_profile

    controllers = importlib.import_module(CONTROLLERS[args.game])
    # the full table as shipped: Res Arcana's players sit at the profile's seats
    games = GameShelf.for_profile(load_profile("full-table"), seed=args.seed)
    if args.game == "arcana":
        bot = controllers.Bot(args.seed, args.players, variant=args.variant)
    else:
        bot = controllers.Bot(args.seed, args.players, pads=games.seats)
    cards = sorted(games.cards(None))
    games.bindings = {uid_for(card): card for card in cards[1::2]}  # the rest carry their id
    try:
        scratch = (
            contextlib.nullcontext(args.state_dir)
            if args.state_dir
            else tempfile.TemporaryDirectory(prefix="arcana-demo-")
        )
        with (
            scratch as state,
            EmulatedTable(state, games, written_ids=set(cards[0::2])) as top,
        ):
            for sentence in top.companion.set_asides:
                print(f"arcana-table demo: {sentence}", file=sys.stderr)
            result = Demo(top, args.quiet, frames=args.frames).play(bot)
    except (JournalError, OSError) as err:  # no journal at all: nothing was played
        return refuse(f"arcana-table demo: {err}")
    except JournalStopped as err:
        print(f"arcana-table demo: {err} The demo stopped.", file=sys.stderr)
        return 1
    if result is None:
        print("the demo game did not finish", file=sys.stderr)
        return 1
    print("=== final ranking ===")
    for player in sorted(result["players"], key=lambda p: -p["vp"]):
        crown = "  (winner)" if player["name"] in result.get("winners", []) else ""
        print(f"{player['name']:<10} {player['vp']:>3} VP{crown}")
    return 0
