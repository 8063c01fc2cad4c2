"""Arcana's screen models built from the engine state and the controller's prompt.

Face-down agents are only ever counted ("+1 hidden"), kept tasks are never named.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.arcana import State, pending
from engine.arcana.events import Bribed, StakeEvaluated
from engine.arcana.scoring import fulfilled_tasks, owned, totals
from firmware.controllers.arcana.seating import stake_label
from firmware.screens import (
    ArcanaStatusScreen,
    Arcanum,
    BreakdownScreen,
    BribeScreen,
    EmptyStakeScreen,
    HandCount,
    PromptIcon,
    PromptScreen,
    RankedPlayer,
    RankingScreen,
    ScoreLine,
    Screen,
    StakeScreen,
    Strength,
    StruggleScreen,
    guild_at_stake,
)

if TYPE_CHECKING:
    from firmware.controllers.arcana.table import ArcanaTable


def stake(table: ArcanaTable, index: int) -> Screen:
    """A pad's screen: the last result there, else the stake (or an empty one)."""
    state = table.state
    if index >= len(state.stakes):
        return PromptScreen(f"No stake here with {state.players} players", icon=PromptIcon.NONE)
    if index in table.results:
        return table.results[index]
    label = stake_label(index, len(state.stakes))
    here = state.stakes[index]
    if here.market is None:
        return EmptyStakeScreen(label, waiting=index in state.reveals)
    card = state.catalog.cards[here.market]
    assert card.main is not None
    sides = []
    for player, side in enumerate(here.agents):
        if side:
            values = [(state.catalog.cards[c].value(card.main), not down) for c, down in side]
            sides.append(guild_at_stake(state.names[player], values))
    return StakeScreen(card.name, Arcanum(card.main), card.threshold, tuple(sides), stake=label)


def status(table: ArcanaTable) -> Screen:
    """Round, whose turn, hands and a prompt; a question or the results when there are."""
    state = table.state
    if state.phase == "over":
        return ending(state, table.page)
    question = table.stash_question()
    if question is not None:
        player, card = question
        name = state.catalog.card_name(card)
        return PromptScreen(
            f"{name}\nOK: yes\nSelect: no",
            title=f"{state.names[player]}: under base?",
            icon=PromptIcon.NONE,
        )
    if table.summary is not None:
        return table.summary
    waiting = pending(state)
    hands = tuple(HandCount(state.names[p], state.hand[p]) for p in range(state.players))
    turn = state.names[waiting.player] if waiting.player is not None else ""
    if waiting.kind == "reveal":
        prompt = f"Tap the new card on stake {waiting.stake}"
    elif waiting.kind == "militia":
        prompt = "Tap the militia on a stake"
    elif table.location is not None:
        prompt = table.location.step()
    elif table.discarding:
        prompt = "Discard: tap the card"
    else:
        prompt = "Tap a card to play"
    return ArcanaStatusScreen(state.round, turn, hands, prompt)


def struggle(state: State, event: StakeEvaluated) -> StruggleScreen:
    """The power struggle at a stake, as evaluated."""
    names = state.names
    strengths = tuple(Strength(names[p], s) for p, s in enumerate(event.strengths))
    tie = ""
    if event.tie_break == "guild" and event.winner is not None:
        tie = f"Tie-break: {event.arcanum}"
    elif event.tie_break == "unresolved":
        tie = "Tie: nobody wins it"
    return StruggleScreen(
        state.catalog.card_name(event.market),
        Arcanum(event.arcanum),
        event.threshold,
        strengths,
        winner=names[event.winner] if event.winner is not None else None,
        tie_break=tie,
    )


def bribe(state: State, event: Bribed) -> BribeScreen:
    """A bribe's value against the market agent's financial value."""
    return BribeScreen(
        state.catalog.card_name(event.market),
        state.names[event.player],
        event.bribe_value,
        event.needed,
    )


def round_summary(names: Sequence[str], evaluated: Sequence[StakeEvaluated]) -> PromptScreen:
    """The status screen's sum of a round's struggles: how many stakes each player won and
    how many are held (nobody won them). The next tap, or OK, moves past the results."""
    wins = Counter(e.winner for e in evaluated if e.winner is not None)
    won = ", ".join(f"{names[p]} {n}" for p, n in sorted(wins.items()))
    held = sum(1 for e in evaluated if e.winner is None)
    lines = [won or "Nobody won"]
    if held:
        lines.append(f"Held: {held}")
    title = f"Round {evaluated[0].round}: stakes won"
    return PromptScreen("\n".join(lines), title=title, icon=PromptIcon.NONE)


def ending(state: State, page: int) -> Screen:
    """Page 0: the ranking; page p: player p-1's breakdown (Select pages on)."""
    scores = totals(state)
    if page == 0:
        ranked = sorted(range(state.players), key=lambda p: (-scores[p], p))
        return RankingScreen(
            tuple(
                RankedPlayer(1 + sum(s > scores[p] for s in scores), state.names[p], scores[p])
                for p in ranked
            )
        )
    player = page - 1
    return BreakdownScreen(
        state.names[player],
        scores[player],
        breakdown(state, player),
        page=page,
        pages=state.players,
    )


def breakdown(state: State, player: int) -> tuple[ScoreLine, ...]:
    """Where a player's points come from: won cards, under the base, tasks."""
    cards = state.catalog.cards
    under = set(state.under_base[player])
    kept = sum(cards[c].vp for c in owned(state, player) if c not in under)
    lines = [ScoreLine("Cards", kept), ScoreLine("Under base", sum(cards[c].vp for c in under))]
    if state.variant == "advanced":
        done = fulfilled_tasks(state, player)
        lines.append(
            ScoreLine(
                f"Tasks {len(done)}/{len(state.tasks[player])}", sum(cards[t].vp for t in done)
            )
        )
    return tuple(lines)
