"""A Hypothesis state machine over whole Arcana games (sample catalog, 2-4 players, basic and
advanced): random legal and illegal actions never crash; an action is accepted exactly when
`legal_actions` lists it; an illegal action changes nothing; every card is in exactly one place
at all times; and replaying the record reproduces the game."""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine.arcana import (
    RULES,
    is_terminal,
    load_catalog,
    pending,
    random_setup,
    state_to_json,
    view,
)
from engine.arcana.actions import SHAPES
from engine.arcana.state import Action, State
from engine.protocol import Applied, Rejection
from engine.records import RecordError, dumps, load

CATALOG = load_catalog("sample")
CARD_IDS = sorted(CATALOG.cards)
KINDS = sorted(SHAPES)


def places(state: State) -> Counter[str]:
    """How many of the explicit zones hold each card (possession, stakes, under a base, the
    militia deck, kept tasks, bases); unseen market cards are in a pile or out of the game."""
    count: Counter[str] = Counter()
    for p in range(state.players):
        count.update(state.possession[p])
        count.update(state.under_base[p])
        count.update(state.tasks[p])
        count[CATALOG.base_of(state.guilds[p])] += 1
    for stake in state.stakes:
        if stake.market is not None:
            count[stake.market] += 1
        for side in stake.agents:
            count.update(card for card, _ in side)
    count.update(state.militia_deck)
    return count


def out_of_play(state: State) -> set[str]:
    """Cards that are in no zone by the rules: unused guilds, tasks not kept, militia of the
    basic game, and (once revealed) the game-end card."""
    used = set(state.guilds)
    cards = {c.id for c in CATALOG.cards.values() if c.guild and c.guild not in used}
    kept = {t for tasks in state.tasks for t in tasks}
    cards |= {t for t in CATALOG.tasks if t not in kept}
    if state.variant == "basic":
        cards |= set(CATALOG.militia)
    if state.game_end_revealed:
        cards.add(CATALOG.game_end)
    return cards


def in_piles(state: State) -> set[str]:
    unseen = {c for c in CATALOG.market if c not in state.seen}
    return unseen | (set() if state.game_end_revealed else {CATALOG.game_end})


class ArcanaGame(RuleBasedStateMachine):
    @initialize(
        seed=st.integers(0, 2**20),
        players=st.sampled_from([2, 3, 4]),
        variant=st.sampled_from(["basic", "advanced"]),
    )
    def setup(self, seed: int, players: int, variant: str) -> None:
        self.setup_dict = random_setup(random.Random(seed), players, variant)
        self.state = RULES.setup(self.setup_dict)
        self.lines: list[dict] = []

    def accept(self, action: Action) -> None:
        outcome = RULES.apply(self.state, action)
        assert isinstance(outcome, Applied), (action, outcome)
        self.state = outcome.state
        self.lines.append(RULES.encode_action(action))

    @precondition(lambda self: not is_terminal(self.state))
    @rule(data=st.data())
    def a_legal_action(self, data) -> None:
        self.accept(data.draw(st.sampled_from(RULES.legal_actions(self.state))))

    @precondition(lambda self: not is_terminal(self.state))
    @rule(seed=st.integers(0, 2**20), steps=st.integers(1, 80))
    def many_legal_actions(self, seed: int, steps: int) -> None:
        rng = random.Random(seed)
        for _ in range(steps):
            legal = RULES.legal_actions(self.state)
            if not legal:
                return
            self.accept(rng.choice(legal))

    @rule(data=st.data())
    def any_action(self, data) -> None:
        legal = RULES.legal_actions(self.state)
        if legal and data.draw(st.booleans()):
            base = data.draw(st.sampled_from(legal))  # near-legal: one field changed
            field = data.draw(st.sampled_from(["kind", "player", "card", "stake", "params"]))
        else:
            base, field = Action("discard", 0, "blades_agent_1"), "all"
        kind = data.draw(st.sampled_from(KINDS)) if field in ("kind", "all") else base.kind
        player = data.draw(st.integers(-1, 4)) if field in ("player", "all") else base.player
        card = (
            data.draw(st.sampled_from([*CARD_IDS, "nonsense"]))
            if field in ("card", "all")
            else base.card
        )
        stake = data.draw(st.integers(-1, 6)) if field in ("stake", "all") else base.stake
        params = base.params
        if field in ("params", "all"):
            params = data.draw(
                st.sampled_from([(), (("a", 0), ("b", 1)), (("a", 2), ("b", 2)),
                                 (("card", "blades_agent_1"), ("to", 0)), (("x", 1),)])
            )  # fmt: skip
        action = Action(kind, None if kind == "reveal" else player, card, stake, params)
        # As a record line: fields an action does not use are dropped, as `replay` does. A
        # line that `replay` refuses before the rules see it must be refused by apply too.
        with contextlib.suppress(RecordError):
            action = RULES.decode_action(RULES.encode_action(action))
        before = state_to_json(self.state)
        outcome = RULES.apply(self.state, action)
        if action in legal:
            assert isinstance(outcome, Applied), (action, outcome)
            self.state = outcome.state
            self.lines.append(RULES.encode_action(action))
        else:
            assert isinstance(outcome, Rejection), action
            assert outcome.code and outcome.message
            assert state_to_json(self.state) == before

    @invariant()
    def every_card_is_in_exactly_one_place(self) -> None:
        state = self.state
        count = places(state)
        assert [c for c, n in count.items() if n > 1] == []
        elsewhere = out_of_play(state) | in_piles(state)
        assert set(count).isdisjoint(elsewhere)
        assert set(count) | elsewhere == set(CARD_IDS)

    @invariant()
    def hands_and_piles_add_up(self) -> None:
        state = self.state
        for p in range(state.players):
            assert set(state.ready[p]) <= set(state.possession[p])
            assert 0 <= state.hand[p] <= len(state.ready[p])
        drawn = sum(12 + (i == state.free_stake) - s.pile for i, s in enumerate(state.stakes))
        assert drawn == len(state.seen) + state.game_end_revealed

    @invariant()
    def the_public_view_hides_face_down_agents_and_pending_matches_the_options(self) -> None:
        state = self.state
        public = json.dumps(view(state, None))
        down = [c for stake in state.stakes for side in stake.agents for c, d in side if d]
        assert [c for c in down if f'"{c}"' in public] == []
        for p in range(state.players):
            own = json.dumps(view(state, p))
            mine = [c for stake in state.stakes for c, d in stake.agents[p] if d]
            assert all(f'"{c}"' in own for c in mine)
        waiting = pending(state)
        kinds = {a.kind for a in RULES.legal_actions(state) if a.kind != "stash"}
        expected = {"over": set(), "reveal": {"reveal"}, "militia": {"militia"}}
        if waiting.kind in expected:
            assert kinds == expected[waiting.kind]
        else:
            assert kinds and kinds <= {"agent", "location", "bribe", "discard"}
            assert {a.player for a in RULES.legal_actions(state) if a.kind != "stash"} == {
                waiting.player
            }
        json.dumps(RULES.result(state))

    def teardown(self) -> None:
        if not hasattr(self, "state"):
            return
        text = dumps("arcana", self.setup_dict, self.lines)
        _, replayed, _ = load(text.splitlines())
        assert replayed == self.state
        assert RULES.result(replayed) == RULES.result(self.state)


ArcanaGame.TestCase.settings = settings(
    max_examples=80,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_arcana_game_state_machine = ArcanaGame.TestCase
