"""The simulator's table: one emulated Tabletop running the companion, and what the page asks
of it. Not thread-safe on purpose: the server calls it from one thread only.

    table = SimTable(state_dir, "full-table")
    table.tap("stake-2", "blades_agent_3")   # -> Outcome(ok, message, where)
    table.press("undo", held=True)           # held Undo = redo
    table.state(seat=1)                      # the public table plus seat 1's hand

Bad input (an unknown pad, card or button) raises `BadInput` before anything happens; a
refusal of the game or the table is an `Outcome` with `ok=False` and the sentence the OLED
shows.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from engine.records import shown, split
from firmware.games import CONTROLLERS, TableGames
from firmware.language import load as load_language
from firmware.screens import ArcanaStatusScreen, PromptScreen
from firmware.screens.icons import LEGEND, icon
from firmware.sim import views
from firmware.tabletop import Tabletop
from hardware.profile import Profile, load_profile

GAMES = tuple(CONTROLLERS)
# The page's icon legend: the OLEDs' own icons, row by row ("#" ink), and what they mean.
LEGEND_ROWS = [
    {
        "icon": name,
        "means": means,
        "rows": [
            "".join("#" if icon(name).getpixel((x, y)) else "." for x in range(icon(name).width))
            for y in range(icon(name).height)
        ],
    }
    for name, means in LEGEND.items()
]


def agents_face_up(
    game: str, games: Any, state: Any, pads: tuple[str, ...], seat: int
) -> list[dict[str, Any]]:
    """A seat's face-up agents on the stakes (public): a location may move one of them."""
    if game != "arcana":
        return []
    return [
        {
            **views.card_info(game, games, card),
            "stake": i,
            "pad": pads[i] if i < len(pads) else None,
        }
        for i, stake in enumerate(state.stakes)
        for card, down in stake.agents[seat]
        if not down
    ]


class BadInput(ValueError):
    """A request the table cannot even try (HTTP 4xx); nothing changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


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


class SimTable:
    """A Tabletop for the web page: taps, presses, time, and the state as JSON."""

    def __init__(self, state_dir: Path | str, profile: Profile | str = "full-table") -> None:
        self.profile = load_profile(profile) if isinstance(profile, str | Path) else profile
        # The readers; on a minimal table its one pad stands in turn for each of the game's
        # pads (`roles`): holding Select moves it on, and its one screen follows.
        self.pads = tuple(reader.role for reader in self.profile.readers)
        self.displays = tuple(display.role for display in self.profile.displays)
        self.games = TableGames.for_profile(self.profile)
        self.roles: tuple[str, ...] = self.games.pads
        self.top = Tabletop(state_dir, self.games, self.profile)
        self.buttons = tuple(button.role for button in self.profile.buttons)
        self.version = 0  # goes up whenever anything the page shows may have changed
        self._frames = self._frame_hashes()
        self._states: dict[tuple[Any, ...], dict[str, Any]] = {}  # by version, seat, notices

    # -- what players do ----------------------------------------------------------------
    def tap(self, pad: Any, card: Any) -> Outcome:
        """Place the card's tag on the pad's reader (and take it away)."""
        if not isinstance(pad, str) or pad not in self.pads:
            pads = ", ".join(self.pads)
            raise BadInput(f"There is no pad {shown(pad)} on this table (pads: {pads})")
        if not isinstance(card, str) or card not in self.games.cards(None):
            raise BadInput(f"There is no card {shown(card)} in either game")
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
            raise BadInput(
                f"There is no button {shown(name)} on this table "
                f"(buttons: {', '.join(self.buttons)})"
            )
        if not isinstance(held, bool):
            raise BadInput('"held" must be true or false')
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
            return Outcome(False, "Finish this game first (or undo to the start)", None)
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
            raise BadInput(f"Unknown game {game!r} (games: {', '.join(GAMES)})")
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
            raise BadInput(f"There is no display {shown(role)} (displays: {displays})")
        return self.top.table.displays[role].frame()

    def state(self, seat: Any = None) -> dict[str, Any]:
        """The table as JSON: public parts, plus `hand` (secrets included) for one seat."""
        notices = tuple((role, n.message) for role, n in self.top.companion.notices.items())
        key = (self.version, str(seat), notices)
        cached = self._states.get(key)
        if cached is None:
            if len(self._states) > 16:
                self._states.clear()
            cached = self._states[key] = self._state(seat)
        return cached

    def _state(self, seat: Any) -> dict[str, Any]:
        companion = self.top.companion
        game = self._game()
        controller_state = companion.controller.state if companion.rules else None
        players = self._players(controller_state)
        if seat is not None:
            seat = self._seat(seat, len(players))
        out: dict[str, Any] = {
            "version": self.version,
            "table": {
                "profile": self.profile.description,
                "pads": list(self.pads),
                "roles": list(self.roles),
                "seats": list(self.games.seats),  # Res Arcana's seat pads, seat 1 first
                "focus": self._focus(),
                "displays": list(self.displays),
                "buttons": list(self.buttons),
                "status": companion.status_role,
                # the language the screens are drawn in; the page follows it (lang, dir)
                "language": load_language(companion.current_language() or "en").code,
                "direction": load_language(companion.current_language() or "en").direction,
            },
            "screens": self._frames,
            "notices": {role: notice.message for role, notice in companion.notices.items()},
            "game": game,
            "game_id": companion.game_id,
            "phase": self._phase(),
            "players": players,
            "seat": seat,
            "record": [],
            "result": None,
            "view": None,
            "table_cards": views.setup_cards(self.games, companion.controller),
            "box": views.card_box(game, self.games),
            "prompt": self._prompt(),
            "pad_labels": self._pad_labels(game, controller_state),
            "legend": LEGEND_ROWS,
        }
        if companion.game_id is not None and companion.rules is not None and game is not None:
            lines = [line for line in split(self.top.journal.record(companion.game_id)) if line]
            record = [json.loads(line) for line in lines]
            out["record"] = views.public_record(game, record, seat)
            out["result"] = views.public_result(game, companion.rules, controller_state, seat)
            out["view"] = self._engine_view(game, controller_state, seat)
            out["can_redo"] = self.top.journal.can_redo(companion.game_id)
            # Arcana's pads are its stakes in table order; Res Arcana's are its seats.
            pads = self.games.seats if game == "res-arcana" else self.roles
            out["table_cards"] = views.table_cards(
                game, self.games, companion.rules, controller_state, pads
            )
            if seat is not None:
                out["hand"] = views.hand(
                    game, self.games, companion.rules, controller_state, pads, seat
                )
                out["hand"]["on_stakes"] = agents_face_up(
                    game, self.games, controller_state, pads, seat
                )
        return out

    def _prompt(self) -> str:
        """What the status display asks now, as one sentence for the page."""
        status = self.top.companion.controller.screens().get(self.top.companion.status_role)
        match status:
            case ArcanaStatusScreen(turn=turn, prompt=prompt) if turn:
                return f"{turn} to play. {prompt}." if prompt else f"{turn} to play."
            case ArcanaStatusScreen(prompt=prompt):
                return f"{prompt}." if prompt else ""
            case PromptScreen(text=text, title=title):
                text = " ".join(text.split("\n"))
                return f"{title}: {text}" if title else text
        return ""

    def _pad_labels(self, game: str | None, state: Any) -> dict[str, str]:
        """How the page names each pad, as the OLEDs do: "Stake 1".."Free trade", or the
        profile's "Seat N" (Res Arcana)."""
        if game == "res-arcana":
            return {role: f"Seat {i + 1}" for i, role in enumerate(self.games.seats)}
        if game == "arcana" and state is not None:
            from firmware.controllers.arcana.seating import stake_label

            count = len(state.stakes)
            return {role: stake_label(i, count) for i, role in enumerate(self.roles[:count])}
        return {}

    # -- inside ----------------------------------------------------------------------------
    def _game(self) -> str | None:
        companion = self.top.companion
        if companion.rules is not None:
            return companion.rules.name
        chooser = companion.controller  # the GameChooser until a game begins
        if getattr(chooser, "game", None) == "arcana":
            return "arcana"  # its variant, then its seating
        if getattr(chooser, "game", None) is None and getattr(chooser, "inner", None):
            return "res-arcana"  # the one game chosen without a second question
        return None  # the choice itself, or enrolling cards

    def _focus(self) -> str | None:
        """The role a minimal table's one pad stands for now (None on a full table)."""
        single = getattr(self.top.companion, "single_pad", None)
        return None if single is None else single.focus

    def _phase(self) -> str:
        companion = self.top.companion
        if companion.rules is None:
            return "setup"
        return "over" if companion.controller.is_over() else "play"

    def _players(self, state: Any) -> list[dict[str, Any]]:
        companion = self.top.companion
        if companion.rules is None:
            return []
        result = companion.rules.result(state)
        ranked = sorted(result["players"], key=lambda p: -p["vp"])
        finished = result.get("finished", False)
        winners = set(result.get("winners", []))
        out = []
        for seat, player in enumerate(result["players"]):
            entry: dict[str, Any] = {
                "seat": seat,
                "name": player["name"],
                "pad": self._seat_pad(seat),
                "vp": player["vp"],
            }
            if finished:
                entry["rank"] = 1 + sum(1 for other in ranked if other["vp"] > player["vp"])
                entry["winner"] = player["name"] in winners
            out.append(entry)
        return out

    def _seat_pad(self, seat: int) -> str | None:
        if self._game() == "res-arcana" and seat < len(self.games.seats):
            return self.games.seats[seat]
        return None

    @staticmethod
    def _seat(seat: Any, players: int) -> int:
        try:
            number = int(seat)
        except (TypeError, ValueError):
            number = -1
        if not 0 <= number < players:
            seats = f"0 to {players - 1}" if players else "none yet: no game has begun"
            raise BadInput(f"There is no seat {shown(seat)} (seats: {seats})")
        return number

    @staticmethod
    def _engine_view(game: str, state: Any, seat: int | None) -> dict[str, Any]:
        if game == "arcana":
            from engine.arcana import view
        else:
            from engine.resarcana import view
        return view(state, seat)

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
        return fresh[role].message, role

    def _frame_hashes(self) -> dict[str, str]:
        return {
            role: hashlib.sha1(frame.tobytes()).hexdigest()[:16]
            for role, frame in self.top.screens().items()
        }

    def _changed(self, only_if_frames_differ: bool = False) -> None:
        frames = self._frame_hashes()
        if not only_if_frames_differ or frames != self._frames:
            self.version += 1
        self._frames = frames

    def close(self) -> None:
        self.top.close()
