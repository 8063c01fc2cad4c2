"""A bot that plays Arcana at an emulated table with physical steps: taps and presses.

It deals seeded physical piles as a table would (`engine.arcana.deal_piles`), seats the
players, taps each stake's first card (and, advanced, each player's two kept tasks), then
for every state chooses a sensible legal move (`engine.arcana.sensible_action`) or the due
table event (the next card of a pile, the militia) and says which taps and presses make the
companion produce it.

    bot = Bot(seed=1, players=3)
    result = play_demo_game(top, bot)      # top: a firmware.tabletop.EmulatedTable
"""

from __future__ import annotations

import random
from typing import Any

from engine.arcana import RULES, Action, State, deal_piles, load_catalog, pending, sensible_action
from engine.arcana.setup import TASKS_DEALT, TASKS_KEPT
from engine.arcana.state import MAX_PLAYERS, MIN_PLAYERS
from firmware.controllers.chooser import GAMES, VARIANTS
from firmware.steps import Step

FULL_TABLE_PADS = ("stake-0", "stake-1", "stake-2", "stake-3", "stake-4")
MAX_STEPS = 5000


class Bot:
    """Seeded players and piles for one demo game (see the module docstring)."""

    def __init__(
        self,
        seed: int,
        players: int,
        variant: str = "basic",
        catalog: Any = "sample",
        pads: tuple[str, ...] = FULL_TABLE_PADS,
    ) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Arcana is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        if variant not in dict(VARIANTS):
            raise ValueError(f'unknown variant {variant!r} (use "basic" or "advanced")')
        self.rng = random.Random(seed)
        self.players = players
        self.variant = variant
        self.catalog = load_catalog(catalog)
        self.pads = pads
        self.guilds = self.rng.sample(sorted(self.catalog.guilds), players)
        self.piles = deal_piles(self.rng, self.catalog, players)
        dealt = self.rng.sample(self.catalog.tasks, TASKS_DEALT * players)
        self.tasks = [
            sorted(self.rng.sample(dealt[p * TASKS_DEALT : (p + 1) * TASKS_DEALT], TASKS_KEPT))
            for p in range(players)
        ]
        self.declined: set[tuple[int, str]] = set()

    # -- setup ------------------------------------------------------------------------------
    def setup_steps(self) -> list[Step]:
        """From the chooser's first screen until the game has begun."""
        select, ok = Step.press("select"), Step.press("ok")
        steps = [select] * [g for g, _ in GAMES].index("arcana") + [ok]
        steps += [select] * [v for v, _ in VARIANTS].index(self.variant) + [ok]
        steps += [Step.tap(self.pads[0], self.catalog.base_of(g)) for g in self.guilds]
        if self.players < 4:
            steps.append(Step.press("ok"))
        steps += [Step.tap(self.pads[i], pile[0]) for i, pile in enumerate(self.piles)]
        if self.variant == "advanced":
            steps += [Step.tap(self.pads[0], task) for kept in self.tasks for task in kept]
        return steps

    # -- play -------------------------------------------------------------------------------
    def next_steps(self, state: State) -> list[Step]:
        """The steps of the next move: a stash answer, a reveal, a militia or a turn."""
        waiting = pending(state)
        if waiting.kind == "over":
            return []
        for player, card in waiting.stash:
            if (player, card) in self.declined:
                continue
            # Keep won agents to play them; put everything else under the base.
            if state.catalog.kind(card) == "agent":
                self.declined.add((player, card))
                return [Step.press("select")]
            return [Step.press("ok")]
        if waiting.kind == "reveal":
            assert waiting.stake is not None
            pile = self.piles[waiting.stake]
            card = pile[len(pile) - state.stakes[waiting.stake].pile]
            return [Step.tap(self.pads[waiting.stake], card)]
        return self.steps_for(sensible_action(state, self.rng))

    def steps_for(self, action: Action) -> list[Step]:
        """The taps and presses that make the companion produce a player's action."""
        pads = self.pads
        if action.kind in ("agent", "bribe", "militia"):
            assert action.stake is not None
            return [Step.tap(pads[action.stake], action.card)]
        if action.kind == "discard":
            return [Step.press("select"), Step.tap(pads[0], action.card)]
        if action.kind == "location":
            steps = [Step.tap(pads[0], action.card)]
            params = dict(action.params)
            if "a" in params:
                steps += [Step.tap(pads[int(params["a"])], action.card)]
                steps += [Step.tap(pads[int(params["b"])], action.card)]
            elif "card" in params:
                agent = str(params["card"])
                steps += [Step.tap(pads[0], agent), Step.tap(pads[int(params["to"])], agent)]
            return steps
        raise ValueError(f"the bot has no steps for a {action.kind!r} action")


def play_demo_game(top: Any, bot: Bot, max_steps: int = MAX_STEPS) -> dict[str, Any]:
    """Play a whole game on an EmulatedTable (setting it up first when it has not begun) and
    return the engine's result object; RuntimeError if it does not end in `max_steps`."""
    steps = 0
    if top.companion.game_id is None:
        for step in bot.setup_steps():
            top.perform(step)
            steps += 1
    controller = top.companion.controller
    while not controller.is_over():
        if steps > max_steps:
            raise RuntimeError(f"the demo game did not end within {max_steps} steps")
        for step in bot.next_steps(controller.state):
            top.perform(step)
            steps += 1
        controller = top.companion.controller  # undo/resume replaces the controller
    return RULES.result(controller.state)
