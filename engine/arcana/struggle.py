"""Power struggles [7] and bribery [8] on a `Draft`, each returning its explaining event."""

from __future__ import annotations

from engine.arcana.events import Bribed, StakeEvaluated
from engine.arcana.state import Draft


def turn_face_up(draft: Draft, stake: int) -> tuple[tuple[int, str], ...]:
    """Turn every face-down agent at a stake face up; return (player, card) of those turned."""
    turned = []
    for player, side in enumerate(draft.agents[stake]):
        for card, face_down in sorted(side.items()):
            if face_down:
                side[card] = False
                turned.append((player, card))
    return tuple(turned)


def clear_stake(draft: Draft, stake: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Send every agent home to its owner's possession and militia back to its deck.

    Returns the agents sent home per player and the militia returned. The stake's market card
    is left to the caller.
    """
    home: list[tuple[str, ...]] = []
    militia: list[str] = []
    for player, side in enumerate(draft.agents[stake]):
        agents = []
        for card in sorted(side):
            if draft.catalog.cards[card].kind == "militia":
                draft.militia_deck.add(card)
                militia.append(card)
            else:
                draft.possession[player].add(card)
                agents.append(card)
        side.clear()
        home.append(tuple(agents))
    return tuple(home), tuple(sorted(militia))


def take_market(draft: Draft, stake: int, player: int, reveal: bool) -> str:
    """The winner takes the stake's market card; the stake awaits its next card [6] unless
    `reveal` is false (the final evaluation) or its pile is used up."""
    market = draft.markets[stake]
    assert market is not None
    draft.markets[stake] = None
    draft.possession[player].add(market)
    if draft.variant == "advanced":
        draft.stashable[player].add(market)
    if reveal and draft.piles[stake] > 0:
        draft.reveals.append(stake)
    return market


def strength(draft: Draft, stake: int, player: int, arcanum: str) -> int:
    cards = draft.catalog.cards
    return sum(cards[card].value(arcanum) for card in draft.agents[stake][player])


def evaluate(draft: Draft, stake: int) -> StakeEvaluated:
    """The power struggle over one stake with a market card (house rule [7])."""
    catalog = draft.catalog
    market = draft.markets[stake]
    assert market is not None
    card = catalog.cards[market]
    arcanum = card.main
    assert arcanum is not None
    threshold = card.threshold
    turned = turn_face_up(draft, stake)
    strengths = tuple(strength(draft, stake, p, arcanum) for p in range(draft.players))
    contenders = tuple(p for p in range(draft.players) if strengths[p] >= threshold)
    tie_arcana = tuple(catalog.guilds[g].tie_arcanum for g in draft.guilds)
    winner: int | None = None
    tied: tuple[int, ...] = ()
    tie_break = "none"
    if contenders:
        best = max(strengths[p] for p in contenders)
        top = tuple(p for p in contenders if strengths[p] == best)
        if len(top) == 1:
            winner = top[0]
        else:
            tied = top
            holders = [p for p in top if tie_arcana[p] == arcanum]
            if len(holders) == 1:
                winner, tie_break = holders[0], "guild"
            else:
                tie_break = "unresolved"
    won: tuple[str, ...] = ()
    home: tuple[tuple[str, ...], ...] = tuple(() for _ in range(draft.players))
    militia: tuple[str, ...] = ()
    if winner is not None:
        home, militia = clear_stake(draft, stake)
        won = (take_market(draft, stake, winner, reveal=not draft.ending),)
    return StakeEvaluated(
        round=draft.round,
        stake=stake,
        market=market,
        arcanum=arcanum,
        threshold=threshold,
        strengths=strengths,
        contenders=contenders,
        tied=tied,
        tie_arcana=tie_arcana,
        tie_break=tie_break,
        winner=winner,
        turned_face_up=turned,
        won=won,
        sent_home=home,
        militia_returned=militia,
    )


def bribe(draft: Draft, player: int, relic: str, stake: int) -> Bribed:
    """Bribe the market agent at a stake with a relic already taken from hand (rule [8])."""
    cards = draft.catalog.cards
    market = draft.markets[stake]
    assert market is not None
    turned = turn_face_up(draft, stake)
    own = {
        card: cards[card].value("financial")
        for card in sorted(draft.agents[stake][player])
        if cards[card].kind != "militia"
    }
    relic_financial = cards[relic].value("financial")
    value = relic_financial + sum(own.values())
    needed = cards[market].value("financial")
    draft.possession[player].add(relic)  # the relic returns either way
    home: tuple[tuple[str, ...], ...] = tuple(() for _ in range(draft.players))
    militia: tuple[str, ...] = ()
    won: tuple[str, ...] = ()
    if value >= needed:
        home, militia = clear_stake(draft, stake)
        won = (take_market(draft, stake, player, reveal=True), *home[player], relic)
    return Bribed(
        player=player,
        relic=relic,
        stake=stake,
        market=market,
        relic_financial=relic_financial,
        agent_financial=own,
        bribe_value=value,
        needed=needed,
        success=value >= needed,
        turned_face_up=turned,
        won=won,
        sent_home=home,
        militia_returned=militia,
    )
