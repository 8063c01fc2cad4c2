"""The games' protocols name what their users read: GameShelf offers all of it."""

from __future__ import annotations

import typing

from firmware.companion import Games
from firmware.controllers.base import Shelf
from firmware.games import GameShelf


def test_the_game_shelf_offers_what_controllers_and_pages_read() -> None:
    shelf = GameShelf(seats=("stake-1", "stake-3"))
    assert isinstance(shelf, Shelf)
    assert shelf.seats == ("stake-1", "stake-3") and shelf.status_role == "status"
    assert "brazier" in shelf.cards("res-arcana")
    assert shelf.catalog.cards  # the Arcana catalog, loaded when first read


def test_the_game_shelf_offers_every_method_the_companion_calls() -> None:
    wanted = {
        name for name in dir(Games) if not name.startswith("_") and callable(getattr(Games, name))
    } | set(typing.get_type_hints(Games))
    missing = [name for name in sorted(wanted) if not hasattr(GameShelf(), name)]
    assert wanted and missing == []
