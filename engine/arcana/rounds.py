"""What follows by itself or from the table: reveals [6], stashes [10], the evaluation at the
end of a round [7], the next round [5] and the end of the game [11]."""

from __future__ import annotations

from engine.arcana import struggle
from engine.arcana.checks import Refused, card_of, check_player, next_with_cards
from engine.arcana.events import CardRevealed, GameEnded, GameEndRevealed, RoundStarted, Stashed
from engine.arcana.scoring import fulfilled_tasks, totals, winners
from engine.arcana.setup import HAND
from engine.arcana.state import Action, Table

# The game-end card lies among the last 5 cards of the free-trade pile (rule [6]).
GAME_END_DEPTH = 5


def reveal(table: Table, action: Action, events: list) -> None:
    """Turn up the next card of the first stake awaiting one: any unseen market card, or the
    game-end card while it can be among the free-trade pile's last cards."""
    if not table.reveals:
        raise Refused("no_reveal", "No stake is waiting for a card")
    stake = table.reveals[0]
    if action.stake != stake:
        raise Refused("wrong_stake", f"Reveal the next card on stake {stake + 1} first")
    card = card_of(table, action.card)
    free = table.free_stake
    left = table.piles[stake]
    if card.kind == "game_end":
        if stake != free:
            raise Refused(
                "bad_reveal",
                f"The game-end card is only in the free-trade pile (stake {free + 1})",
            )
        if table.game_end_revealed:
            raise Refused("bad_reveal", "The game-end card has already been revealed")
        if left > GAME_END_DEPTH:
            raise Refused(
                "bad_reveal",
                f"The game-end card lies among the last {GAME_END_DEPTH} cards of the "
                f"free-trade pile; {left} cards are left",
            )
    else:
        if not card.is_market:
            raise Refused("bad_reveal", f"{card.name} is not a market card")
        if card.id in table.seen:
            raise Refused("bad_reveal", f"{card.name} has already been revealed")
        if stake == free and left == 1 and not table.game_end_revealed:
            raise Refused("bad_reveal", "The last card of the free-trade pile is the game-end card")
    table.reveals.pop(0)
    table.piles[stake] -= 1
    if card.kind == "game_end":
        table.game_end_revealed = True
        ends_now = table.phase == "evaluated"
        events.append(GameEndRevealed(stake, ends_now))
        if ends_now:
            _finish(table, events, "game_end_card")
        else:
            table.ending = True
        return
    table.markets[stake] = card.id
    table.seen = table.seen | {card.id}
    events.append(CardRevealed(stake, card.id, table.piles[stake]))


def stash(table: Table, action: Action, events: list) -> None:
    """Put a card won since the last player action under its owner's base (advanced)."""
    if table.variant != "advanced":
        raise Refused("advanced_only", "Putting cards under the base belongs to the advanced game")
    player = check_player(table, action.player)
    if action.card not in table.stashable[player]:
        raise Refused(
            "not_stashable",
            "Only a card you won since the last player action can go under your base",
        )
    table.stashable[player].discard(action.card)
    table.possession[player].discard(action.card)
    table.under_base[player].add(action.card)
    events.append(Stashed(player, action.card))
    if table.phase == "play" and not table.acted and action.card in table.ready[player]:
        # The round has not really begun: the card never was in the new round's hand. The
        # winner keeps at least the agent, or the relic that brought the militia, that won
        # it, so their hand cannot become empty here.
        table.ready[player].discard(action.card)
        table.hand[player] = min(HAND, len(table.ready[player]))


def settle(table: Table, events: list) -> None:
    """Run what follows by itself: evaluation at the end of a round, the next round, the end."""
    while table.phase != "over" and not table.reveals and table.militia_due is None:
        if table.phase == "play":
            if any(table.hand):
                return
            table.turn = None
            for stake, market in enumerate(table.markets):
                if market is not None:
                    events.append(struggle.evaluate(table, stake))
            if table.ending:
                _finish(table, events, "game_end_card")
                return
            table.phase = "evaluated"
        else:
            _start_round(table, events)


def _start_round(table: Table, events: list) -> None:
    hands = [min(HAND, len(cards)) for cards in table.possession]
    if not any(hands):
        _finish(table, events, "no_cards")
        return
    table.round += 1
    table.start_player = (table.start_player + 1) % table.players
    table.ready = [set(cards) for cards in table.possession]
    table.hand = hands
    table.acted = False
    table.phase = "play"
    table.turn = next_with_cards(table, table.start_player)
    events.append(RoundStarted(table.round, table.start_player, tuple(hands)))


def _finish(table: Table, events: list, reason: str) -> None:
    table.phase = "over"
    table.turn = None
    state = table.freeze()
    scores = totals(state)
    tasks = tuple(fulfilled_tasks(state, p) for p in range(state.players))
    card_vp = tuple(
        score - sum(state.catalog.cards[t].vp for t in done)
        for score, done in zip(scores, tasks, strict=True)
    )
    events.append(
        GameEnded(
            round=table.round,
            reason=reason,
            card_vp=card_vp,
            tasks_fulfilled=tasks,
            task_vp=tuple(s - c for s, c in zip(scores, card_vp, strict=True)),
            totals=scores,
            winners=winners(state),
        )
    )
