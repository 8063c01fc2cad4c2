"""Twin Arcana games for the indistinguishability tests: identical except for WHICH hidden card
one player lays face down (or which two tasks they keep), driven by the same following moves.

    twins = agent_twins(seed=4, players=3, variant="basic", warmup=12)
    twins.records()      # (record A, record B) as JSON objects, header first
    move = next_move(state_a, pick, twins.secrets)   # a common move, or None: stop here

A move is ("act", action) (a legal action of game A that names neither secret card and
turns neither face up: not the evaluation or a bribe at its stake), ("both", action A,
action B) (the owner moves their face-down agent to a stake where it stays face down: in each
game its own), ("stray", action) (any action at all, legal or not, naming neither secret),
("undo",) or ("redo",). A run that meets a
stray action turning a secret up stops before it: from then on the card is public.

How many examples each test runs: `examples(default)`; the environment variable
ARCANA_FUZZ_SCALE (default 1, the suite's one switch for longer Hypothesis runs, see
CONTRIBUTING.md) multiplies them.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from engine.arcana import (
    RULES,
    Action,
    State,
    encode_action,
    laid_face_down,
    load_catalog,
    pending,
    random_setup,
)
from engine.arcana.actions import SHAPES
from engine.arcana.events import Bribed, StakeEvaluated
from engine.arcana.state import controllers
from engine.protocol import Applied
from engine.records import header
from firmware.steps import Step

SCALE = max(1, int(os.environ.get("ARCANA_FUZZ_SCALE", "1")))
CATALOG = load_catalog("sample")
CARDS = sorted(CATALOG.cards)
MOVES = ("act",) * 5 + ("undo",) * 2 + ("redo",) * 2 + ("stray",)


# The twins' draws, shared by the engine, table and HTTP tests: `@given(**AGENT_TWINS, picks=...)`.
AGENT_TWINS = {
    "seed": st.integers(0, 2**32),
    "players": st.sampled_from([2, 3, 4]),
    "variant": st.sampled_from(["basic", "advanced"]),
    "warmup": st.integers(0, 40),
}
TASK_TWINS = {"seed": st.integers(0, 2**32), "players": st.sampled_from([2, 3, 4])}


def examples(default: int) -> int:
    """The number of Hypothesis examples: the default, times ARCANA_FUZZ_SCALE."""
    return default * SCALE


@dataclass
class Twins:
    """Two games: `setups` (A, B), the common `prefix` of actions, then A and B's own `first`
    action (the face-down placement; none for kept tasks). `secrets` are the two cards that
    differ (A's, B's) and `owner` their player."""

    setups: tuple[dict[str, Any], dict[str, Any]]
    prefix: list[Action]
    first: tuple[Action | None, Action | None]
    owner: int
    secrets: frozenset[str]
    pair: tuple[str, str] | None = None  # the face-down agent of A and of B

    def records(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Both records so far, header first (what a journal would hold)."""
        out = []
        for setup, first in zip(self.setups, self.first, strict=True):
            lines = [header("arcana", setup), *(encode_action(a) for a in self.prefix)]
            if first is not None:
                lines.append(encode_action(first))
            out.append(lines)
        return out[0], out[1]

    def states(self) -> tuple[State, State]:
        """Both positions after the prefix and the differing first action."""
        out = []
        for setup, first in zip(self.setups, self.first, strict=True):
            state = RULES.setup(setup)
            for action in [*self.prefix, *([first] if first else [])]:
                state = played(state, action).state
            out.append(state)
        return out[0], out[1]


def played(state: State, action: Action) -> Applied[State]:
    outcome = RULES.apply(state, action)
    assert isinstance(outcome, Applied), outcome
    return outcome


def agent_twins(seed: int, players: int, variant: str, warmup: int) -> Twins | None:
    """Play `warmup` random legal actions, then on to the first turn whose player may lay one
    of two ready agents face down on a stake they control; None if the game ends first."""
    rng = random.Random(seed)
    setup = random_setup(rng, players, variant)
    state = RULES.setup(setup)
    prefix: list[Action] = []
    for step in range(warmup + 300):
        if state.phase == "over":
            return None
        if step >= warmup and (choice := _hidden_choice(state, rng)) is not None:
            owner, secret_a, secret_b, stake = choice
            first = (
                Action("agent", owner, secret_a, stake),
                Action("agent", owner, secret_b, stake),
            )
            secrets = frozenset((secret_a, secret_b))
            return Twins((setup, setup), prefix, first, owner, secrets, (secret_a, secret_b))
        action = rng.choice(RULES.legal_actions(state))
        state = played(state, action).state
        prefix.append(action)
    return None


def _hidden_choice(state: State, rng: random.Random) -> tuple[int, str, str, int] | None:
    waiting = pending(state)
    if waiting.kind != "turn" or waiting.player is None or sum(state.hand) < 3:
        return None  # a turn, with the round going on for a while after it
    owner = waiting.player
    own = [
        s
        for s, stake in enumerate(state.stakes)
        if owner in controllers(state.players, s) and stake.market is not None
    ]
    agents = [c for c in state.ready[owner] if CATALOG.cards[c].kind == "agent"]
    if not own or len(agents) < 2:
        return None
    secret_a, secret_b = rng.sample(sorted(agents), 2)
    return owner, secret_a, secret_b, rng.choice(own)


def task_twins(seed: int, players: int) -> Twins:
    """An advanced game where `owner` keeps two tasks in A and another two in B (one shared),
    set up as the table's seating writes it (`seated`)."""
    rng = random.Random(seed)
    setup = seated(random_setup(rng, players, "advanced"))
    owner = rng.randrange(players)
    kept = {t for tasks in setup["tasks"] for t in tasks}
    spare = sorted(set(CATALOG.tasks) - kept)
    mine = setup["tasks"][owner]
    other = sorted([rng.choice(mine), rng.choice(spare)])
    setup_b = {**setup, "tasks": [other if p == owner else t for p, t in enumerate(setup["tasks"])]}
    secrets = frozenset(set(mine) ^ set(other))
    return Twins((setup, setup_b), [], (None, None), owner, secrets)


def names(action: Action, cards: frozenset[str]) -> bool:
    """True when the action names one of the cards (as its card or a location's parameter)."""
    return action.card in cards or any(value in cards for _, value in action.params)


def reveals(events: tuple[Any, ...], cards: frozenset[str]) -> bool:
    """True when the events turn one of the cards face up (a struggle or a bribe)."""
    return any(
        card in cards
        for event in events
        if isinstance(event, StakeEvaluated | Bribed)
        for _, card in event.turned_face_up
    )


def next_move(state: State, pick: int, twins: Twins) -> tuple | None:
    """The move number `pick` chooses in game A's position (see the module doc); None when
    nothing is left to do (the game is over)."""
    if state.phase == "over":
        return None
    secrets = twins.secrets
    kind = MOVES[pick % len(MOVES)]
    pick //= len(MOVES)
    if kind in ("undo", "redo"):
        return (kind,)
    if kind == "act" and pick % 2 and (moves := secret_moves(state, twins)):
        return moves[pick // 2 % len(moves)]
    if kind == "stray":
        return ("stray", stray_action(random.Random(pick), state, secrets))
    legal = [a for a in RULES.legal_actions(state) if not names(a, secrets)]
    keeping = [a for a in legal if not reveals(played(state, a).events, secrets)]
    if not keeping:  # every action left would turn a secret up: go back instead
        return ("undo",)
    return ("act", keeping[pick % len(keeping)])


def secret_moves(state: State, twins: Twins) -> list[tuple]:
    """("both", action A, action B): a location moving the face-down agent to another stake
    where it stays face down, in A and in B their own agent (what its owner may do)."""
    if twins.pair is None:
        return []
    mine, theirs = twins.pair
    out = []
    for action in RULES.legal_actions(state):
        if action.kind != "location" or dict(action.params).get("card") != mine:
            continue
        if mine in laid_face_down(state, action):
            params = tuple((k, theirs if v == mine else v) for k, v in action.params)
            out.append(("both", action, action._replace(params=params)))
    return out


def stray_action(rng: random.Random, state: State, secrets: frozenset[str]) -> Action:
    """Any action at all, legal or not, that does not name a secret card."""
    kind = rng.choice(sorted(SHAPES))
    card = rng.choice([c for c in CARDS if c not in secrets])
    player = None if kind == "reveal" else rng.randrange(state.players + 1)
    stake = rng.randrange(len(state.stakes) + 1)
    return Action(kind, player, card, stake if SHAPES[kind] else None)


# -- at the table: moves as taps and presses ----------------------------------------------------
def table_steps(move: tuple, pads: tuple[str, ...]) -> tuple[list[Step], list[Step]]:
    """The taps and presses of a move at a full table (an EmulatedTable's `perform` steps), at
    game A's table and at game B's."""
    if move[0] == "both":
        return _steps(("act", move[1]), pads), _steps(("act", move[2]), pads)
    steps = _steps(move, pads)
    return steps, steps


def _steps(move: tuple, pads: tuple[str, ...]) -> list[Step]:
    from firmware.controllers.arcana import Bot

    if move[0] == "undo":
        return [Step.press("undo")]
    if move[0] == "redo":
        return [Step.press("undo", held=True)]
    action: Action = move[1]
    if move[0] == "stray":
        return [Step.tap(pads[(action.stake or 0) % len(pads)], action.card)]
    if action.kind == "reveal":
        assert action.stake is not None
        return [Step.tap(pads[action.stake], action.card)]
    if action.kind == "stash":
        return [Step.press("ok")]  # yes to the question the status screen asks
    return Bot(0, 2, pads=pads).steps_for(action)


def seating_steps(setup: dict[str, Any], pads: tuple[str, ...]) -> list[Step]:
    """The chooser's presses, then the seating taps that begin this setup (as `seated`
    writes it): guild bases in seat order, each stake's first market card, kept tasks."""
    from firmware.controllers.arcana import Bot

    bot = Bot(0, len(setup["players"]), variant=setup["variant"], pads=pads)
    chooser = bot.setup_steps()
    steps = chooser[: next(i for i, s in enumerate(chooser) if s.kind == "tap")]
    steps += [Step.tap(pads[0], CATALOG.base_of(p["guild"])) for p in setup["players"]]
    if len(setup["players"]) < 4:
        steps.append(Step.press("ok"))
    steps += [Step.tap(pads[i], card) for i, card in enumerate(setup["stakes"])]
    steps += [Step.tap(pads[0], task) for kept in setup.get("tasks", []) for task in kept]
    return steps


def seated(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup as the table's seating writes it: seat 0 starts, players named by guild."""
    players = [
        {"name": CATALOG.guilds[p["guild"]].name, "guild": p["guild"]} for p in setup["players"]
    ]
    return {**setup, "players": players, "start_player": 0}
