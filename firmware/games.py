"""The games a table can run: controllers, card registries and action descriptions for the
companion (which draws notices itself, `firmware.drawing`).

    games = GameShelf(catalog="sample", bindings=journal.bindings())
    Companion(displays, journal, games)

Each game has a controller module in `firmware.controllers` offering
`setup_controller(games, variant)` and `game_controller(games, setup)`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from engine.protocol import Rules
from firmware.controllers.base import Controller
from firmware.controllers.chooser import GameChooser
from firmware.language import DIGITS, LanguageError, res_arcana_name, text
from firmware.language import code as language_code
from firmware.language import load as load_language
from firmware.registry import Registry

FULL_TABLE_PADS = ("stake-0", "stake-1", "stake-2", "stake-3", "stake-4")
RES_ARCANA_SEATS = 4  # at most; without seats in the profile, the first pads are the seats
VERBS = {
    "agent": "placed",
    "bribe": "bribed with",
    "location": "played",
    "discard": "discarded",
    "militia": "placed",
    "stash": "put under the base",
    "reveal": "revealed",
    "play": "played",
    "activate": "used",
    "buy": "bought",
    "pass": "passed",
}


CONTROLLERS = {
    "arcana": "firmware.controllers.arcana",
    "res-arcana": "firmware.controllers.resarcana",
}


class GameShelf:
    """Both games with one Arcana catalog and the table's tag bindings."""

    def __init__(
        self,
        catalog: str | dict[str, Any] = "sample",
        bindings: Mapping[str, str] | None = None,
        status_role: str = "status",
        pads: tuple[str, ...] = FULL_TABLE_PADS,
        seed: int | None = None,
        seats: tuple[str, ...] = (),
        language: str = "en",
        digits: str = "latin",
    ) -> None:
        self.catalog_source = catalog
        self.language = load_language(language).code  # the setup's first; chosen per game
        if digits not in DIGITS:
            raise LanguageError(f"digits are written {' or '.join(DIGITS)}, not {digits!r}")
        self.digits = digits  # "persian": ۰-۹ on the screens of a right-to-left game
        self.bindings = dict(bindings or {})
        self.status_role = status_role
        self.pads = pads  # reader roles, in table order; each has a display of the same role
        # Res Arcana's seats 1, 2, ...: the pads the profile names (`seat = N`), else the
        # first pads in table order.
        strays = [seat for seat in seats if seat not in pads]
        if strays or len(set(seats)) != len(seats):
            raise ValueError(f"seats {seats} must be different pads of {pads}")
        self.seats: tuple[str, ...] = tuple(seats) or tuple(pads[:RES_ARCANA_SEATS])
        # Draws what the rules leave to chance at the table (Res Arcana's start player): a
        # seed replays the same draws (demo, tests); without one, the OS seeds it.
        self.rng = random.Random(seed)

    @classmethod
    def for_profile(cls, profile: Any, **options: Any) -> GameShelf:
        """The games for a table profile: its reader roles are the pads (a minimal table's
        single "main" pad stands in turn for each pad of the full table, see SinglePad), and
        its seats (if it gives any) are Res Arcana's."""
        roles = tuple(reader.role for reader in profile.readers)
        if roles == ("main",) or not roles:
            roles = FULL_TABLE_PADS
        options.setdefault("language", getattr(profile, "language", "en"))
        options.setdefault("digits", getattr(profile, "digits", "latin"))
        return cls(pads=roles, seats=tuple(getattr(profile, "seats", ())), **options)

    @cached_property
    def catalog(self) -> Any:
        from engine.arcana import load_catalog

        return load_catalog(self.catalog_source)

    def use_catalog(self, source: str | dict[str, Any]) -> None:
        """Play another Arcana catalog from the next game on (the owner's, once it checks);
        CatalogError, and the catalog played stays, if it does not load."""
        from engine.arcana import load_catalog

        catalog = load_catalog(source)
        self.catalog_source = source
        self.__dict__["catalog"] = catalog  # the cached property's value

    def cards(self, game: str | None) -> set[str]:
        """Every card id a tag may stand for in this game (or in either game)."""
        ids: set[str] = set()
        if game in (None, "arcana"):
            ids |= set(self.catalog.cards)
        if game in (None, "res-arcana"):
            from engine.resarcana import CARDS

            ids |= set(CARDS)
        return ids

    def _module(self, game: str) -> Any:
        return importlib.import_module(CONTROLLERS[game])

    # -- what the companion asks ---------------------------------------------------------
    def setup_controller(self) -> Controller:
        def setup_for(game: str, variant: str | None) -> Controller:
            if game == "enroll":
                return self.enroll_controller(variant or "arcana")
            return self._module(game).setup_controller(self, variant)

        return GameChooser(setup_for, self.status_role, self.language)

    def enroll_controller(self, game: str) -> Controller:
        from firmware.controllers.enroll import EnrollController

        if game == "res-arcana":
            from engine.resarcana import CARDS

            cards, catalog = list(CARDS), "res-arcana"
        else:
            cards, catalog = list(self.catalog.cards), self.catalog.name
        return EnrollController(catalog, cards, self.card_name, self.bindings, self.status_role)

    def game_controller(
        self, game: str, setup: dict[str, Any]
    ) -> tuple[Rules[Any, Any], Controller]:
        return self._module(game).game_controller(self, setup)

    def registry(self, game: str | None, setup: dict[str, Any] | None) -> Registry:
        return Registry(self.bindings, self.cards(game))

    def card_name(self, card: str) -> str:
        """A card of either game by its name in the language of the screens."""
        if card in self.catalog.cards:
            return self.catalog.card_name(card, language_code())
        from engine.resarcana import CARDS

        return res_arcana_name(card) if card in CARDS else card

    def describe(self, line: dict[str, Any], before: Any = None) -> str:
        """A few words for an action line: "placed Blades agent 3 on stake 3".

        `before` is the position the line was played in: a card the line laid face down
        there is not named ("placed a face-down agent on stake 2"), whoever reads it.
        """
        action = str(line.get("action", "?"))
        what = ""
        if "card" in line:
            card = str(line["card"])
            hidden = card in _laid_face_down(line, before)
            what = text("undo.face_down") if hidden else self.card_name(card)
        key = f"undo.{action}"
        said = text(key, card=what).strip() if action in VERBS else f"{action} {what}".strip()
        if isinstance(line.get("stake"), int):
            said = text("undo.on_stake", what=said, n=line["stake"] + 1)
        return said


def _laid_face_down(line: dict[str, Any], before: Any) -> frozenset[str]:
    """The cards an Arcana line lays face down in the position `before` (none elsewhere)."""
    from engine.arcana import State, decode_action, laid_face_down

    if not isinstance(before, State):
        return frozenset()
    return laid_face_down(before, decode_action(line))
