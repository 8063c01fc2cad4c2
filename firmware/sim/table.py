"""The simulator's table: one emulated EmulatedTable running the companion, and what the page asks
of it. Not thread-safe on purpose: the server calls it from one thread only.

    table = Simulator(state_dir, "full-table")
    table.tap("stake-2", "blades_agent_3")   # -> Outcome(ok, message, where)
    table.press("undo", held=True)           # held Undo = redo
    table.state(seat=1)                      # the public table plus seat 1's hand

Bad input (an unknown pad, card or button) raises `BadInput` before anything happens; a
refusal of the game or the table is an `Outcome` with `ok=False` and the sentence the OLED
shows.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from engine.records import shown
from firmware.games import CONTROLLERS, GameShelf
from firmware.language import text as say
from firmware.language import using
from firmware.tabletop import EmulatedTable
from firmware.web.sentences import said
from firmware.web.table_view import LEGEND_ROWS, BadInput, TableView, agents_face_up
from hardware.profile import Profile, load_profile

__all__ = ["LEGEND_ROWS", "BadInput", "Outcome", "Simulator", "agents_face_up"]

GAMES = tuple(CONTROLLERS)


@dataclass(frozen=True)
class Outcome:
    """What a tap or a press did: `ok`, or refused with the sentence shown on `where`."""

    ok: bool
    message: str | None = None
    where: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.ok:
            return {"ok": True, "notice": self.message, "where": self.where}
        return {"ok": False, "error": self.message, "where": self.where}


class Simulator(TableView):
    """An EmulatedTable for the web page: taps, presses, time, and the state as JSON."""

    def __init__(self, state_dir: Path | str, profile: Profile | str = "full-table") -> None:
        profile = load_profile(profile) if isinstance(profile, str | Path) else profile
        # The readers; on a minimal table its one pad stands in turn for each of the game's
        # pads (`roles`): holding Select moves it on, and its one screen follows.
        super().__init__(profile, GameShelf.for_profile(profile))
        self.top = EmulatedTable(state_dir, self.games, self.profile)
        self._frames = self._frame_hashes()

    @property
    def companion(self) -> Any:
        return self.top.companion

    @property
    def journal(self) -> Any:
        return self.top.journal

    def frame_images(self) -> dict[str, Image.Image]:
        return self.top.screens()

    # -- what players do ----------------------------------------------------------------
    def tap(self, pad: Any, card: Any) -> Outcome:
        """Place the card's tag on the pad's reader (and take it away)."""
        if not isinstance(pad, str) or pad not in self.pads:
            pads = ", ".join(self.pads)
            raise BadInput(said("no_pad", pad=shown(pad), pads=pads))
        if not isinstance(card, str) or card not in self.games.cards(None):
            raise BadInput(said("no_card", card=shown(card)))
        before = dict(self.top.companion.notices)
        self.top.tap(pad, card)
        refusal = self._new_notice(before, prefer=pad)
        self._changed()
        if refusal is not None:
            return Outcome(False, *refusal)
        return Outcome(True)

    def press(self, name: Any, held: Any = False) -> Outcome:
        """Press a button (held: past its hold time; a held Undo redoes)."""
        if not isinstance(name, str) or name not in self.buttons:
            buttons = ", ".join(self.buttons)
            raise BadInput(said("no_button", button=shown(name), buttons=buttons))
        if not isinstance(held, bool):
            raise BadInput(said("held_bool"))
        before = dict(self.top.companion.notices)
        lines = self._lines()
        self.top.press(name, held=held)
        notice = self._new_notice(before, prefer=self.top.companion.status_role)
        self._changed()
        if notice is None:
            return Outcome(True)
        if name == "undo" and self._lines() != lines:
            return Outcome(True, *notice)  # "Undone: ..." says what was taken back
        return Outcome(False, *notice)

    def new_game(self) -> Outcome:
        """After a game's ranking, back to the choice of game (the next game's setup)."""
        if not self.top.companion.finished:
            with using(self.top.companion.current_language()):
                return Outcome(False, say("sim.finish_first"), None)
        self.top.companion.new_game()
        self.top.companion.redraw()
        self._changed()
        return Outcome(True)

    def tick(self, seconds: float) -> bool:
        """Let emulated time pass (notices expire); True if a screen changed."""
        before = self.version
        self.top.wait(seconds)
        self._changed(only_if_frames_differ=True)
        return self.version != before

    def set_up(self, game: str, players: int, seed: int = 1, variant: str | None = None) -> None:
        """Skip the choice: press and tap what seats `players` in `game`, as a bot would
        (Arcana: in `variant`, basic by default)."""
        if game not in GAMES:
            raise BadInput(said("sim_unknown_game", game=repr(game), games=", ".join(GAMES)))
        module = importlib.import_module(CONTROLLERS[game])
        options = {"variant": variant} if game == "arcana" and variant else {}
        pads = self.games.seats if game == "res-arcana" else self.roles
        bot = module.Bot(seed, players, pads=pads, **options)
        for step in bot.setup_steps():
            if step.kind != "tap":
                self.press(step.target, held=step.held)
            elif step.target in self.pads:
                self.tap(step.target, step.card)
            else:  # a minimal table: bring the pad round to that role first
                single = self.top.companion.single_pad
                for _ in self.roles:
                    if single is None or single.focus == step.target:
                        break
                    self.press("select", held=True)
                self.tap(self.pads[0], step.card)

    # -- what the page shows ----------------------------------------------------------------
    def screen(self, role: Any) -> Image.Image:
        """The exact frame the display driver last sent to this display."""
        if role not in self.displays:
            displays = ", ".join(self.displays)
            raise BadInput(said("no_display", display=shown(role), displays=displays))
        return self.top.table.displays[role].frame()

    # -- inside ----------------------------------------------------------------------------
    def _lines(self) -> list[dict[str, Any]]:
        game_id = self.top.companion.game_id
        return self.top.journal.lines(game_id) if game_id is not None else []

    def _new_notice(self, before: dict[str, Any], prefer: str) -> tuple[str, str] | None:
        """(sentence, display) of a notice the last step put up, the preferred display first."""
        fresh = {
            role: notice
            for role, notice in self.top.companion.notices.items()
            if before.get(role) is not notice
        }
        if not fresh:
            return None
        role = prefer if prefer in fresh else next(iter(fresh))
        with using(self.top.companion.current_language()):  # as the OLED says it
            return fresh[role].message, role

    def close(self) -> None:
        self.top.close()
