"""A bot for the demo: it deals itself a real seeded game and plays it through taps and presses.

The companion plays physical Res Arcana (it never sees hands or decks), so the bot keeps the
full deal privately (`random_setup`, seat 0 starting, players named after their mages), picks
a sensible legal action there, applies it privately too and answers the physical steps that
make the companion take the same action.

    bot = Bot(seed=7, players=2)
    result = play_demo_game(top, bot)      # top: a firmware.tabletop.EmulatedTable
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.resarcana import CARDS, RULES, Action, Position, State, random_setup, view
from engine.resarcana.essences import KINDS
from engine.resarcana.essences import Essences as Stock
from engine.resarcana.state import MIN_PLAYERS
from firmware.controllers.chooser import GAMES
from firmware.controllers.resarcana.screens import GAINS
from firmware.controllers.resarcana.seating import MAX_SEATS, seating_record
from firmware.steps import Step

FULL_TABLE_PADS = ("stake-0", "stake-1", "stake-2", "stake-3", "stake-4")
CHOOSE_RES_ARCANA = [game for game, _ in GAMES].index("res-arcana")  # Selects from the first
DEMO_ROUNDS = 15
DEALS = 100  # deals tried per seed (about 1 two-player deal in 50 does not end soon)


class Bot:
    """Plays every seat of a seeded deal greedily: VP powers, buys, producers, pass."""

    def __init__(self, seed: int, players: int, pads: Sequence[str] = FULL_TABLE_PADS) -> None:
        if not MIN_PLAYERS <= players <= MAX_SEATS:
            raise ValueError(f"Res Arcana is played by {MIN_PLAYERS} to {MAX_SEATS} players")
        if len(pads) < players:
            raise ValueError(f"{players} players need {players} pads, the table has {len(pads)}")
        rng = random.Random(seed)
        deal = _deal(rng, players)
        # A deal this policy cannot finish soon would make a dull demo: deal again (the same
        # seed always gives the same game).
        for _ in range(DEALS):  # the table draws the start player: any must end soon
            if all(
                _ends_soon(RULES.setup(deal | {"start_player": start})) for start in range(players)
            ):
                break
            deal = _deal(rng, players)
        else:
            raise RuntimeError(f"no deal of seed {seed} ends within {DEMO_ROUNDS} rounds")
        self.deal = deal
        self.pads = tuple(pads[:players])
        # The private line of play, and where the table is on it: an undo (or a redo) at
        # the table moves back (or on) along it.
        self.line: list[State] = [RULES.setup(deal)]
        self.at = 0

    @property
    def state(self) -> State:
        """The bot's private state (full information) where the table now is."""
        return self.line[self.at]

    def setup_steps(self) -> list[Step]:
        """From the chooser's first screen until the game has begun."""
        steps = [Step.press("select")] * CHOOSE_RES_ARCANA + [Step.press("ok")]
        steps += [
            Step.tap(pad, mage) for pad, mage in zip(self.pads, self.deal["mages"], strict=True)
        ]
        if len(self.pads) < MAX_SEATS:
            steps.append(Step.press("ok"))
        return steps

    def next_steps(self, table: State) -> list[Step]:
        """The steps of the next action of the player to act (none once the game is over).

        `table` is the companion's state: it must be one the bot's own play went through
        (undo and redo at the table are followed); RuntimeError otherwise.
        """
        self._follow(table)
        if RULES.is_terminal(self.state):
            return []
        action = choose(self.state)
        outcome = RULES.apply(self.state, action)
        del self.line[self.at + 1 :]  # a new move after an undo: the old future is gone
        self.line.append(outcome.state)  # type: ignore[union-attr]  (a legal action)
        self.at += 1
        return steps_for(action, self.pads)

    def _follow(self, table: State) -> None:
        seen = public(table)
        if public(self.state) == seen:
            return
        start = Position(table).start_player
        if len(self.line) == 1 and start != self.deal["start_player"]:
            # the table drew another start player: the same deal, started there
            self.deal = self.deal | {"start_player": start}
            self.line = [RULES.setup(self.deal)]
            if public(self.state) == seen:
                return
        for at in range(len(self.line) - 1, -1, -1):
            if public(self.line[at]) == seen:
                self.at = at
                return
        look = Position(table)
        raise RuntimeError(
            f"the table (round {look.round}, seat {look.current} to act) and the bot disagree:"
            " was a card played by hand?"
        )


def public(state: State) -> dict[str, Any]:
    """What the table can know of a state, whether or not it knows the deal."""
    seen = view(state, None)
    del seen["hands_known"], seen["monuments"]  # monument ids, or only their count
    return seen


def _deal(rng: random.Random, players: int) -> dict[str, Any]:
    """A random deal as the table seats it: in pad order, players named after their mages,
    seat 0 starting (until the table draws its own start player, see `_follow`)."""
    deal = random_setup(rng, players)
    return deal | seating_record(deal["mages"])


def _ends_soon(state: State) -> bool:
    """Whether the greedy policy ends this game within DEMO_ROUNDS rounds."""
    while not RULES.is_terminal(state):
        if Position(state).round > DEMO_ROUNDS:
            return False
        state = RULES.apply(state, choose(state)).state  # type: ignore[union-attr]
    return True


def steps_for(action: Action, pads: Sequence[str]) -> list[Step]:
    """The taps and presses that make the companion take `action`."""
    pad = pads[action.player]
    if action.kind == "pass":
        return [Step.press("ok")]
    assert action.card is not None
    if action.kind == "discard":
        cycle = [Step.press("select")] * GAINS.index(action.gain or "gold")
        return [Step.press("select"), Step.tap(pad, action.card), *cycle, Step.press("ok")]
    return [Step.tap(pad, action.card)]


def choose(state: State) -> Action:
    """A greedy choice among the legal actions: VP powers, buying places and monuments,
    playing producers early, free powers, discarding what cannot be paid, else pass."""
    legal = RULES.legal_actions(state)
    worth = _worth_in(state)
    return max(legal, key=lambda action: (worth(action), -legal.index(action)))


def _worth_in(state: State) -> Callable[[Action], float]:
    look = Position(state)
    seat = look.current
    stock = look.essences(seat).as_dict()
    target = _target(look, stock)
    missing = {kind: max(0, need - stock[kind]) for kind, need in target.items()}

    def worth(action: Action) -> float:
        if action.kind == "pass":
            return 1
        card = CARDS[action.card or ""]
        if action.kind == "buy":
            return 90 + card.vp
        if action.kind == "activate":
            power = card.power
            assert power is not None
            if power.vp:
                return 100 + power.vp
            if not power.cost:
                return 50
            return 40 if _converts_toward(power.cost, power.gain, stock, target) else 0
        if action.kind == "play":
            if card.power is not None and card.power.vp:
                return 80 - sum(card.cost.counts())
            return (70 if card.produces else 60) - sum(card.cost.counts())
        # discard: only what this stock cannot pay, for the essence the next buy lacks most
        cost = card.cost.as_dict()
        if all(stock[kind] >= n for kind, n in cost.items()):
            return 0
        gained = 1 if action.gain == "gold" else 2
        return 2 + min(gained, missing.get(action.gain or "gold", 0)) / 2

    return worth


def _converts_toward(
    cost: Stock, gain: Stock, stock: dict[str, int], target: dict[str, int]
) -> bool:
    """A paid power is worth it when it gains what the next buy lacks, paid from spares."""
    lacking = any(n and stock[kind] < target.get(kind, 0) for kind, n in gain.as_dict().items())
    spare = all(stock[kind] - n >= target.get(kind, 0) for kind, n in cost.nonzero().items())
    return lacking and spare


def _target(look: Position, stock: dict[str, int]) -> dict[str, int]:
    """The cost of the cheapest place of power or face-up monument still to buy."""
    face_up = look.monuments_face_up()
    monuments = ["monument_1"] if face_up else []  # every monument costs the same
    options = [CARDS[card].cost.as_dict() for card in [*look.places_available(), *monuments]]
    if not options:
        return dict.fromkeys(KINDS, 0)
    return min(options, key=lambda cost: sum(max(0, n - stock[k]) for k, n in cost.items()))


def play_demo_game(
    top: Any,
    bot: Bot,
    max_steps: int = 2000,
    after_step: Callable[[Step], None] | None = None,
) -> dict[str, Any]:
    """Play the bot's game on an EmulatedTable to its end (seating the players first if the game
    has not begun) and return the engine's result dict. `after_step` sees every step (the
    demo prints the screens there). RuntimeError if it takes more than `max_steps` steps.
    """
    done = 0

    def run(steps: list[Step]) -> None:
        nonlocal done
        for step in steps:
            top.perform(step)
            done += 1
            if after_step is not None:
                after_step(step)
            if done > max_steps:
                raise RuntimeError(f"the demo game did not end within {max_steps} steps")

    if top.companion.game_id is None:
        run(bot.setup_steps())
    while not top.companion.controller.is_over():
        steps = bot.next_steps(top.companion.controller.state)
        if not steps:
            raise RuntimeError("the bot has no move but the table's game is not over")
        run(steps)
    return RULES.result(top.companion.controller.state)
