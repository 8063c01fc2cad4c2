"""What follows by itself or from the table: reveals [6], stashes [10], the evaluation at the
end of a round [7], the next round [5] and the end of the game [11]."""

from __future__ import annotations

from engine.arcana import struggle
from engine.arcana.checks import Refused, card_of, check_player, next_with_cards
from engine.arcana.events import CardRevealed, GameEnded, GameEndRevealed, RoundStarted, Stashed
from engine.arcana.scoring import fulfilled_tasks, totals, winners
from engine.arcana.setup import HAND
from engine.arcana.state import Action, Draft

# The game-end card lies among the last 5 cards of the free-trade pile (rule [6]).
GAME_END_DEPTH = 5


def reveal(draft: Draft, action: Action, events: list) -> None:
    """Turn up the next card of the first stake awaiting one: any unseen market card, or the
    game-end card while it can be among the free-trade pile's last cards."""
    if not draft.reveals:
        raise Refused("no_reveal", "No stake is waiting for a card")
    stake = draft.reveals[0]
    if action.stake != stake:
        raise Refused("wrong_stake", f"Reveal the next card on stake {stake + 1} first")
    card = card_of(draft, action.card)
    free = draft.free_stake
    left = draft.piles[stake]
    if card.kind == "game_end":
        if stake != free:
            raise Refused(
                "bad_reveal",
                f"The game-end card is only in the free-trade pile (stake {free + 1})",
            )
        if draft.game_end_revealed:
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
        if card.id in draft.seen:
            raise Refused("bad_reveal", f"{card.name} has already been revealed")
        if stake == free and left == 1 and not draft.game_end_revealed:
            raise Refused("bad_reveal", "The last card of the free-trade pile is the game-end card")
    draft.reveals.pop(0)
    draft.piles[stake] -= 1
    if card.kind == "game_end":
        draft.game_end_revealed = True
        ends_now = draft.phase == "evaluated"
        events.append(GameEndRevealed(stake, ends_now))
        if ends_now:
            _finish(draft, events, "game_end_card")
        else:
            draft.ending = True
        return
    draft.markets[stake] = card.id
    draft.seen = draft.seen | {card.id}
    events.append(CardRevealed(stake, card.id, draft.piles[stake]))


def stash(draft: Draft, action: Action, events: list) -> None:
    """Put a card won since the last player action under its owner's base (advanced)."""
    if draft.variant != "advanced":
        raise Refused("advanced_only", "Putting cards under the base belongs to the advanced game")
    player = check_player(draft, action.player)
    if action.card not in draft.stashable[player]:
        raise Refused(
            "not_stashable",
            "Only a card you won since the last player action can go under your base",
        )
    draft.stashable[player].discard(action.card)
    draft.possession[player].discard(action.card)
    draft.under_base[player].add(action.card)
    events.append(Stashed(player, action.card))
    if draft.phase == "play" and not draft.acted and action.card in draft.ready[player]:
        # The round has not really begun: the card never was in the new round's hand. The
        # winner keeps at least the agent, or the relic that brought the militia, that won
        # it, so their hand cannot become empty here.
        draft.ready[player].discard(action.card)
        draft.hand[player] = min(HAND, len(draft.ready[player]))


def settle(draft: Draft, events: list) -> None:
    """Run what follows by itself: evaluation at the end of a round, the next round, the end."""
    while draft.phase != "over" and not draft.reveals and draft.militia_due is None:
        if draft.phase == "play":
            if any(draft.hand):
                return
            draft.turn = None
            for stake, market in enumerate(draft.markets):
                if market is not None:
                    events.append(struggle.evaluate(draft, stake))
            if draft.ending:
                _finish(draft, events, "game_end_card")
                return
            draft.phase = "evaluated"
        else:
            _start_round(draft, events)


def _start_round(draft: Draft, events: list) -> None:
    hands = [min(HAND, len(cards)) for cards in draft.possession]
    if not any(hands):
        _finish(draft, events, "no_cards")
        return
    draft.round += 1
    draft.start_player = (draft.start_player + 1) % draft.players
    draft.ready = [set(cards) for cards in draft.possession]
    draft.hand = hands
    draft.acted = False
    draft.phase = "play"
    draft.turn = next_with_cards(draft, draft.start_player)
    events.append(RoundStarted(draft.round, draft.start_player, tuple(hands)))


def _finish(draft: Draft, events: list, reason: str) -> None:
    draft.phase = "over"
    draft.turn = None
    state = draft.freeze()
    scores = totals(state)
    tasks = tuple(fulfilled_tasks(state, p) for p in range(state.players))
    card_vp = tuple(
        score - sum(state.catalog.cards[t].vp for t in done)
        for score, done in zip(scores, tasks, strict=True)
    )
    events.append(
        GameEnded(
            round=draft.round,
            reason=reason,
            card_vp=card_vp,
            tasks_fulfilled=tasks,
            task_vp=tuple(s - c for s, c in zip(scores, card_vp, strict=True)),
            totals=scores,
            winners=winners(state),
        )
    )
