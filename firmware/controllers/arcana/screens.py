"""Arcana's screen models: pure functions of the engine state and the controller's `Prompt`.

    prompt = Prompt(step="Swap: tap the 2nd stake")   # the controller builds it
    status(state, prompt), stake(state, prompt, 2)      # -> screen models

Face-down agents are only ever counted ("+1 hidden"), kept tasks are never named. The words
are the current language's (`firmware.language`); the sample catalogs' guild names too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.arcana import State, is_terminal, pending
from engine.arcana.events import Bribed, StakeEvaluated
from engine.arcana.scoring import fulfilled_tasks, owned, totals
from engine.arcana.state import controllers
from firmware.controllers.arcana.seating import stake_label
from firmware.language import code, local_name
from firmware.language import text as tr
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
    RoundResultsScreen,
    ScoreLine,
    Screen,
    StakeScreen,
    Strength,
    StruggleScreen,
    guild_at_stake,
)


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the table is asked beyond the engine state, and the results it still shows.

    `question`: the (player, card) asked "under the base?"; `step`: a half-entered location's
    next step in a few words; `discarding`: Select was pressed for a discard; `results`: the
    struggle or bribe screen of a stake, by stake; `summary`: the round's results on the status
    screen; `page`: the game's end, 0 the ranking, p player p-1's breakdown.
    """

    question: tuple[int, str] | None = None
    step: str | None = None
    discarding: bool = False
    results: tuple[tuple[int, StruggleScreen | BribeScreen], ...] = ()
    summary: Screen | None = None
    page: int = 0


def stake(state: State, prompt: Prompt, index: int) -> Screen:
    """A pad's screen: the last result there, else the stake (or an empty one)."""
    if index >= len(state.stakes):
        return PromptScreen(tr("stake.none_here", players=state.players), icon=PromptIcon.NONE)
    results = dict(prompt.results)
    if index in results:
        return results[index]
    count = len(state.stakes)
    label = stake_label(index, count)
    here = state.stakes[index]
    if here.market is None:
        return empty_stake(state, index)
    card = state.catalog.cards[here.market]
    assert card.main is not None
    control = controllers(state.players, index)
    sides = []
    for player, side in enumerate(here.agents):
        if side or player in control:  # a controller's side shows, agents or not
            values = [(state.catalog.cards[c].value(card.main), not down) for c, down in side]
            sides.append(guild_at_stake(player_name(state, player), values, player in control))
    return StakeScreen(
        card.name_in(code()), Arcanum(card.main), card.threshold, tuple(sides), stake=label
    )


def empty_stake(state: State, index: int) -> EmptyStakeScreen:
    """An emptied stake: its card is asked for now, after another stake's, or never."""
    count = len(state.stakes)
    label = stake_label(index, count)
    if index not in state.reveals:
        return EmptyStakeScreen(label, waiting=False, ending=state.game_end_revealed)
    first = state.reveals[0]
    after = "" if first == index else stake_label(first, count)
    return EmptyStakeScreen(label, after=after)


def status(state: State, prompt: Prompt) -> Screen:
    """Round, whose turn, hands and a prompt; a question or the results when there are."""
    if is_terminal(state):
        return ending(state, prompt.page)
    if prompt.question is not None:
        player, card = prompt.question
        name = card_name(state, card)
        return PromptScreen(
            tr("status.under_base", name=player_name(state, player), card=name),
            title=tr("status.under_base_title"),
            icon=PromptIcon.NONE,
            short=tr("status.under_base_short", card=name),
        )
    if prompt.summary is not None:
        return prompt.summary
    waiting = pending(state)
    hands = tuple(HandCount(player_name(state, p), state.hand[p]) for p in range(state.players))
    turn = player_name(state, waiting.player) if waiting.player is not None else ""
    if waiting.kind == "reveal":
        assert waiting.stake is not None
        asked = tr("status.new_card", n=waiting.stake + 1)
    elif waiting.kind == "militia":
        asked = tr("status.militia")
    elif prompt.step is not None:
        asked = prompt.step
    elif prompt.discarding:
        asked = tr("status.discard")
    else:
        asked = tr("status.play")
    return ArcanaStatusScreen(state.round, turn, hands, asked)


def struggle(state: State, event: StakeEvaluated) -> StruggleScreen:
    """The power struggle at a stake, as evaluated."""
    names = [player_name(state, p) for p in range(state.players)]
    strengths = tuple(Strength(names[p], s) for p, s in enumerate(event.strengths))
    tie = ""
    if event.tie_break == "guild" and event.winner is not None:
        tie = tr("struggle.tie_break", arcanum=tr(f"arcanum.{event.arcanum}"))
    elif event.tie_break == "unresolved":
        tie = tr("struggle.tie_unresolved")
    return StruggleScreen(
        card_name(state, event.market),
        Arcanum(event.arcanum),
        event.threshold,
        strengths,
        winner=names[event.winner] if event.winner is not None else None,
        tie_break=tie,
    )


def bribe(state: State, event: Bribed) -> BribeScreen:
    """A bribe's value against the market agent's financial value."""
    return BribeScreen(
        card_name(state, event.market),
        player_name(state, event.player),
        event.bribe_value,
        event.needed,
    )


def round_summary(names: Sequence[str], evaluated: Sequence[StakeEvaluated]) -> Screen:
    """The status screen's sum of a round's struggles: how many stakes each player won and
    at how many nobody won (their agents stay). The next tap, or OK, moves past it."""
    wins = Counter(e.winner for e in evaluated if e.winner is not None)
    unwon = sum(1 for e in evaluated if e.winner is None)
    won = tuple(Strength(name, wins[p]) for p, name in enumerate(names))
    return RoundResultsScreen(evaluated[0].round, won, unwon)


def ending(state: State, page: int) -> Screen:
    """Page 0: the ranking; page p: player p-1's breakdown (Select pages on)."""
    scores = totals(state)
    if page == 0:
        ranked = sorted(range(state.players), key=lambda p: (-scores[p], p))
        return RankingScreen(
            tuple(
                RankedPlayer(
                    1 + sum(s > scores[p] for s in scores), player_name(state, p), scores[p]
                )
                for p in ranked
            )
        )
    player = page - 1
    return BreakdownScreen(
        player_name(state, player),
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
    lines = [
        ScoreLine(tr("score.cards"), kept),
        ScoreLine(tr("score.under_base"), sum(cards[c].vp for c in under)),
    ]
    if state.variant == "advanced":
        done = fulfilled_tasks(state, player)
        tasks = tr("score.tasks", done=len(done), kept=len(state.tasks[player]))
        lines.append(ScoreLine(tasks, sum(cards[t].vp for t in done)))
    return tuple(lines)


def player_name(state: State, player: int) -> str:
    """A player's name as the screens show it: a player named after their guild (as the
    table's seating names them) by the guild's name in the language of the screens."""
    guild = state.catalog.guilds[state.guilds[player]]
    if state.names[player] == guild.name:
        return local_name(guild.name, guild.names)
    return local_name(state.names[player])


def card_name(state: State, card: str) -> str:
    """A card's name in the language of the screens (the catalog's `names`), else its name."""
    return state.catalog.card_name(card, code())


def table_screens(state: State, prompt: Prompt, pads: int) -> tuple[Screen, ...]:
    """The status screen's model, then one per pad in pad order (pad i stands for stake i)."""
    return (status(state, prompt), *(stake(state, prompt, index) for index in range(pads)))
