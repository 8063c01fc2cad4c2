"""Arcana at the table: the setup by taps, the game controller, and a bot for the demo.

    setup_controller(games, "advanced")     # seats, first market cards, kept tasks -> Begin
    rules, controller = game_controller(games, setup)
    play_demo_game(top, Bot(seed=1, players=2))

`games` is a `firmware.games.GameShelf` (its catalog, pads and status role).
"""

from __future__ import annotations

from typing import Any

from engine.arcana import RULES, ArcanaRules
from firmware.controllers.arcana.bot import Bot, play_demo_game
from firmware.controllers.arcana.controller import ArcanaController
from firmware.controllers.arcana.seating import ArcanaSeating


def setup_controller(games: Any, variant: str | None) -> ArcanaSeating:
    """The controller that seats the players and answers `Begin("arcana", setup)`."""
    return ArcanaSeating(games, variant)


def game_controller(games: Any, setup: dict[str, Any]) -> tuple[ArcanaRules, ArcanaController]:
    """The rules and the controller of a game that starts (or resumes) with this setup."""
    return RULES, ArcanaController(games, RULES.setup(setup))


__all__ = [
    "ArcanaController",
    "ArcanaSeating",
    "Bot",
    "game_controller",
    "play_demo_game",
    "setup_controller",
]
