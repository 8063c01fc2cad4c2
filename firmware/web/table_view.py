"""What the table's web pages show, shared by the simulator (`firmware.sim.table.Simulator`)
and the appliance (`firmware.web.live.LiveTable`): the table as JSON, public parts plus one
seat's hand (`firmware.web.views` decides what a seat may see), cached per version.

A subclass gives `companion`, `journal` and `frame_images()`, and calls `_changed()` after
anything that may have changed what the page shows (which bumps `version`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from PIL import Image

from engine.arcana.secrets import PublicReplay
from engine.records import shown, split
from firmware.controllers.base import Shelf
from firmware.errors import FirmwareError
from firmware.games import GameShelf
from firmware.language import load as load_language
from firmware.language import text as say
from firmware.language import using
from firmware.screens import ArcanaStatusScreen, PromptScreen
from firmware.screens.icons import LEGEND_ICONS, icon
from firmware.web import views
from firmware.web.sentences import said
from hardware.profile import Profile

# The page's icon legend: the OLEDs' own icons, row by row ("#" ink); what each means is
# added in the language of the state (`legend`).
LEGEND_ROWS = [
    {
        "icon": name,
        "rows": [
            "".join("#" if icon(name).getpixel((x, y)) else "." for x in range(icon(name).width))
            for y in range(icon(name).height)
        ],
    }
    for name in LEGEND_ICONS
]


def legend() -> list[dict[str, Any]]:
    """The legend's rows with what each icon means in the current language."""
    return [{**entry, "means": say(f"legend.{entry['icon']}")} for entry in LEGEND_ROWS]


def agents_face_up(
    game: str, games: Shelf, state: Any, pads: tuple[str, ...], seat: int
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


class BadInput(FirmwareError, ValueError):
    """A request the table cannot even try (HTTP 4xx); nothing changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def frame_hash(frame: Image.Image) -> str:
    """A short digest of a screen's pixels (a changed screen, a new version)."""
    return hashlib.sha1(frame.tobytes()).hexdigest()[:16]


class TableView:
    """The state JSON of one table (`state(seat)`), from its companion and journal."""

    companion: Any
    journal: Any

    def __init__(self, profile: Profile, games: GameShelf) -> None:
        self.profile = profile
        self.pads = tuple(reader.role for reader in profile.readers)
        self.displays = tuple(display.role for display in profile.displays)
        self.games = games
        self.roles: tuple[str, ...] = games.pads
        self.buttons = tuple(button.role for button in profile.buttons)
        self.version = 0  # goes up whenever anything the page shows may have changed
        self._frames: dict[str, str] = {}
        self._states: dict[tuple[Any, ...], dict[str, Any]] = {}  # by version, seat, notices
        self._replay = PublicReplay()  # each state replays only the record's new lines

    def frame_images(self) -> dict[str, Image.Image]:
        """What each screen shows now (its hash goes into the state)."""
        raise NotImplementedError

    def state(self, seat: Any = None) -> dict[str, Any]:
        """The table as JSON: public parts, plus `hand` (secrets included) for one seat."""
        notices = tuple((role, n.message) for role, n in self.companion.notices.items())
        key = (self.version, str(seat), notices)
        cached = self._states.get(key)
        if cached is None:
            if len(self._states) > 16:
                self._states.clear()
            with using(self.companion.current_language()):  # the sentences as the OLEDs say
                cached = self._states[key] = self._state(seat)
        return cached

    def _state(self, seat: Any) -> dict[str, Any]:
        companion = self.companion
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
            "legend": legend(),
        }
        if companion.game_id is not None and companion.rules is not None and game is not None:
            lines = [line for line in split(self.journal.record(companion.game_id)) if line]
            record = [json.loads(line) for line in lines]
            out["record"] = views.public_record(game, record, seat, self._replay)
            out["result"] = views.public_result(game, companion.rules, controller_state, seat)
            out["view"] = self._engine_view(game, controller_state, seat)
            out["can_redo"] = self.journal.can_redo(companion.game_id)
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
        status = self.companion.controller.screens().get(self.companion.status_role)
        match status:
            case ArcanaStatusScreen(turn=turn, prompt=prompt) if turn:
                said = say("status.to_play", name=turn)
                return f"{said}. {prompt}." if prompt else f"{said}."
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
            return {role: say("seating.seat", n=i + 1) for i, role in enumerate(self.games.seats)}
        if game == "arcana" and state is not None:
            from firmware.controllers.arcana.seating import stake_label

            count = len(state.stakes)
            return {role: stake_label(i, count) for i, role in enumerate(self.roles[:count])}
        return {}

    # -- inside ----------------------------------------------------------------------------
    def _game(self) -> str | None:
        companion = self.companion
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
        single = getattr(self.companion, "single_pad", None)
        return None if single is None else single.focus

    def _phase(self) -> str:
        companion = self.companion
        if companion.rules is None:
            return "setup"
        return "over" if companion.controller.is_over() else "play"

    def _players(self, state: Any) -> list[dict[str, Any]]:
        companion = self.companion
        if companion.rules is None:
            return []
        result = companion.rules.result(state)
        ranked = sorted(result["players"], key=lambda p: -p["vp"])
        finished = result.get("finished", False)
        winners = set(result.get("winners", []))
        shown = self._shown_names(state)  # as the screens name the players
        out = []
        for seat, player in enumerate(result["players"]):
            entry: dict[str, Any] = {
                "seat": seat,
                "name": player["name"],
                "shown": shown[seat],
                "pad": self._seat_pad(seat),
                "vp": player["vp"],
            }
            if finished:
                entry["rank"] = 1 + sum(1 for other in ranked if other["vp"] > player["vp"])
                entry["winner"] = player["name"] in winners
            out.append(entry)
        return out

    def _shown_names(self, state: Any) -> list[str]:
        """The players' names as the screens show them in the game's language, seat by seat:
        a player named after their guild or mage by its name in it ("Fährleute", "جادوگر آتش")."""
        if self.companion.rules.name == "arcana":
            from firmware.controllers.arcana.screens import player_name

            return [player_name(state, seat) for seat in range(state.players)]
        from engine.resarcana import view
        from firmware.controllers.resarcana.screens import player_name as seat_name

        return [seat_name(seat) for seat in view(state, None)["players"]]

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
            if not players:
                raise BadInput(said("no_seat_yet", seat=shown(seat)))
            raise BadInput(said("no_seat", seat=shown(seat), last=players - 1))
        return number

    @staticmethod
    def _engine_view(game: str, state: Any, seat: int | None) -> dict[str, Any]:
        """The engine's view (English, for programs); an Arcana stake's market card also
        as `market_shown`, its name in the language of the screens."""
        if game != "arcana":
            from engine.resarcana import view as res_view

            return res_view(state, seat)
        from engine.arcana import view
        from firmware.controllers.arcana.screens import card_name

        out = view(state, seat)
        for stake in out["stakes"]:
            if stake.get("market"):
                stake["market_shown"] = card_name(state, stake["market"])
        return out

    def _frame_hashes(self) -> dict[str, str]:
        return {role: frame_hash(frame) for role, frame in self.frame_images().items()}

    def _changed(self, only_if_frames_differ: bool = False) -> None:
        frames = self._frame_hashes()
        if not only_if_frames_differ or frames != self._frames:
            self.version += 1
        self._frames = frames
