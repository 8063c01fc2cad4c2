"""Whole games for benchmarks, tests and tuning: random players and a greedy "sensible" bot.

Reveals come from piles shuffled with the same seeded `rng` (the game-end card among the
free-trade pile's last 5), exactly as a table would turn them up.
"""

from __future__ import annotations

import random
from typing import Any

from engine.arcana import rules
from engine.arcana.actions import encode_action
from engine.arcana.catalog import Catalog, load_catalog
from engine.arcana.setup import VARIANTS, deal_piles, initial_state, random_setup
from engine.arcana.state import Action, State
from engine.arcana.view import pending
from engine.protocol import Rejection

MAX_ROUNDS = 60  # a playout stops here and reports finished False
POLICIES = ("random", "sensible")


def random_playout(
    rng: random.Random,
    players: int,
    variant: str | None = None,
    policy: str = "random",
    record: bool = False,
    catalog: str | Catalog = "sample",
) -> dict[str, Any]:
    """Play one complete game; returns actions, rounds, finished (and setup + lines if
    `record`). `variant` None picks basic or advanced at random; `policy` is "random"
    (uniform legal actions) or "sensible" (`sensible_action`); `catalog` a catalog or its
    name (default the sample). An unknown `policy` is refused (ValueError): a misspelt
    "sensible" would otherwise play random games."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (policies: {', '.join(POLICIES)})")
    variant = variant or rng.choice(VARIANTS)
    deck = load_catalog(catalog)
    piles = deal_piles(rng, deck, players)
    setup = random_setup(rng, players, variant, piles, deck)
    state = initial_state(setup)
    drawn = [1] * len(piles)
    lines: list[dict[str, Any]] = []
    actions = 0
    while state.phase != "over" and state.round <= MAX_ROUNDS:
        waiting = pending(state)
        if waiting.kind == "reveal":
            stake = waiting.stake
            assert stake is not None
            action = Action("reveal", None, piles[stake][drawn[stake]], stake)
            drawn[stake] += 1
        elif policy == "sensible":
            action = sensible_action(state, rng)
        else:
            action = rng.choice(rules.legal_actions(state))
        outcome = rules.apply(state, action)
        assert not isinstance(outcome, Rejection), (action, outcome)
        state = outcome.state
        actions += 1
        if record:
            lines.append(encode_action(action))
    out: dict[str, Any] = {
        "actions": actions,
        "rounds": state.round,
        "finished": state.phase == "over",
        "variant": variant,
    }
    if record:
        out["setup"] = setup
        out["lines"] = lines
        out["state"] = state
    return out


def sensible_action(state: State, rng: random.Random) -> Action:
    """A greedy player: bribe when the bribe wins, place an agent where it takes (or keeps)
    the lead at or above the threshold, put militia where it helps most, else pass the least
    useful card; in the advanced game it puts won relics under its base (a thinner deck).
    It counts face-down agents of others at their printed value (a slightly cheating
    estimate of what a player remembers)."""
    legal = rules.legal_actions(state)
    options = [a for a in legal if a.kind != "stash"]
    player = options[0].player
    assert player is not None
    cards = state.catalog.cards
    for action in legal:
        if (
            action.kind == "stash"
            and action.player == player
            and cards[action.card].kind == "relic"
        ):
            return action
    scored = [(_worth(state, player, action), i) for i, action in enumerate(options)]
    best = max(score for score, _ in scored)
    return options[rng.choice([i for score, i in scored if score == best])]


def _worth(state: State, player: int, action: Action) -> float:
    cards = state.catalog.cards
    if action.kind == "bribe":
        stake = state.stakes[action.stake or 0]
        market = cards[stake.market or ""]
        value = cards[action.card].value("financial") + sum(
            cards[c].value("financial") for c, _ in stake.agents[player]
        )
        return 10 + market.vp if value >= market.value("financial") else -5
    if action.kind in ("agent", "militia"):
        return _placement_worth(state, player, action.card, action.stake or 0)
    if action.kind == "location":
        params = dict(action.params)
        if "to" in params:  # move_agent: worth it when the moved agent takes a card there
            return _placement_worth(state, player, str(params["card"]), int(params["to"])) - 1
        return 0.3 if params else 0.5
    if action.kind == "discard":
        card = cards[action.card]
        if card.kind == "relic" and state.variant == "advanced":
            return 2.5  # brings a militia, worth about a useful agent
        return 0.2 if card.kind == "location" else 0
    return -10


def _placement_worth(state: State, player: int, card_id: str, stake_no: int) -> float:
    cards = state.catalog.cards
    stake = state.stakes[stake_no]
    market = cards[stake.market or ""]
    arcanum = market.main or "military"
    add = cards[card_id].value(arcanum)
    if add == 0:
        return -1
    mine = sum(cards[c].value(arcanum) for c, _ in stake.agents[player])
    rivals = max(
        (
            sum(cards[c].value(arcanum) for c, _ in side)
            for p, side in enumerate(stake.agents)
            if p != player
        ),
        default=0,
    )
    threshold = market.threshold
    if mine >= threshold and mine > rivals:
        return 0.1  # already winning: do not pile on
    after = mine + add
    if after >= threshold and after > rivals:
        # Win it with the least overshoot; prize by VP, fewer agents tied up is better.
        return 5 + market.vp - 0.3 * (after - threshold)
    gap = max(threshold, rivals + 1) - after
    # Close enough to finish next turn: worth building; otherwise keep the agent at home.
    return 1 + add / (1 + gap) if gap <= 2 else -0.5
