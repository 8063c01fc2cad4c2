"""Res Arcana at the table: seats by mage taps, turns by taps and buttons, a demo bot.

setup_controller(games, None)      # the players tap their mages; OK begins
game_controller(games, setup)      # -> (RULES, ResArcanaController)
Bot(seed=7, players=3)             # plays a real seeded deal through taps and presses
play_demo_game(top, bot)           # a whole game on an EmulatedTable -> the result dict
"""

from __future__ import annotations

from typing import Any

from engine.resarcana import RULES
from firmware.controllers.resarcana.bot import Bot, play_demo_game
from firmware.controllers.resarcana.controller import GAINS, ResArcanaController
from firmware.controllers.resarcana.seating import ResArcanaSeating

__all__ = [
    "GAINS",
    "RULES",
    "Bot",
    "ResArcanaController",
    "ResArcanaSeating",
    "game_controller",
    "play_demo_game",
    "setup_controller",
]


def setup_controller(games: Any, variant: str | None) -> ResArcanaSeating:
    """The setup screens of Res Arcana (it has no variant: `variant` is None)."""
    return ResArcanaSeating(games)


def game_controller(games: Any, setup: dict[str, Any]) -> tuple[Any, ResArcanaController]:
    """The rules and the controller of a game that starts, or resumes, with this setup."""
    return RULES, ResArcanaController(games, RULES.setup(setup))
