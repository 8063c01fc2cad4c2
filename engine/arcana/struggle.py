"""Power struggles [7] and bribery [8] on a Table, each returning its explaining event."""

from __future__ import annotations

from engine.arcana.events import Bribed, StakeEvaluated
from engine.arcana.state import Table


def turn_face_up(table: Table, stake: int) -> tuple[tuple[int, str], ...]:
    """Turn every face-down agent at a stake face up; return (player, card) of those turned."""
    turned = []
    for player, side in enumerate(table.agents[stake]):
        for card, face_down in sorted(side.items()):
            if face_down:
                side[card] = False
                turned.append((player, card))
    return tuple(turned)


def clear_stake(table: Table, stake: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Send every agent home to its owner's possession and militia back to its deck.

    Returns the agents sent home per player and the militia returned. The stake's market card
    is left to the caller.
    """
    home: list[tuple[str, ...]] = []
    militia: list[str] = []
    for player, side in enumerate(table.agents[stake]):
        agents = []
        for card in sorted(side):
            if table.catalog.cards[card].kind == "militia":
                table.militia_deck.add(card)
                militia.append(card)
            else:
                table.possession[player].add(card)
                agents.append(card)
        side.clear()
        home.append(tuple(agents))
    return tuple(home), tuple(sorted(militia))


def take_market(table: Table, stake: int, player: int, reveal: bool) -> str:
    """The winner takes the stake's market card; the stake awaits its next card [6] unless
    `reveal` is false (the final evaluation) or its pile is used up."""
    market = table.markets[stake]
    assert market is not None
    table.markets[stake] = None
    table.possession[player].add(market)
    if table.variant == "advanced":
        table.stashable[player].add(market)
    if reveal and table.piles[stake] > 0:
        table.reveals.append(stake)
    return market


def strength(table: Table, stake: int, player: int, arcanum: str) -> int:
    cards = table.catalog.cards
    return sum(cards[card].value(arcanum) for card in table.agents[stake][player])


def evaluate(table: Table, stake: int) -> StakeEvaluated:
    """The power struggle over one stake with a market card (house rule [7])."""
    catalog = table.catalog
    market = table.markets[stake]
    assert market is not None
    card = catalog.cards[market]
    arcanum = card.main
    assert arcanum is not None
    threshold = card.threshold
    turned = turn_face_up(table, stake)
    strengths = tuple(strength(table, stake, p, arcanum) for p in range(table.players))
    contenders = tuple(p for p in range(table.players) if strengths[p] >= threshold)
    tie_arcana = tuple(catalog.guilds[g].tie_arcanum for g in table.guilds)
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
    home: tuple[tuple[str, ...], ...] = tuple(() for _ in range(table.players))
    militia: tuple[str, ...] = ()
    if winner is not None:
        home, militia = clear_stake(table, stake)
        won = (take_market(table, stake, winner, reveal=not table.ending),)
    return StakeEvaluated(
        round=table.round,
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


def bribe(table: Table, player: int, relic: str, stake: int) -> Bribed:
    """Bribe the market agent at a stake with a relic already taken from hand (rule [8])."""
    cards = table.catalog.cards
    market = table.markets[stake]
    assert market is not None
    turned = turn_face_up(table, stake)
    own = {
        card: cards[card].value("financial")
        for card in sorted(table.agents[stake][player])
        if cards[card].kind != "militia"
    }
    relic_financial = cards[relic].value("financial")
    value = relic_financial + sum(own.values())
    needed = cards[market].value("financial")
    table.possession[player].add(relic)  # the relic returns either way
    home: tuple[tuple[str, ...], ...] = tuple(() for _ in range(table.players))
    militia: tuple[str, ...] = ()
    won: tuple[str, ...] = ()
    if value >= needed:
        home, militia = clear_stake(table, stake)
        won = (take_market(table, stake, player, reveal=True), *home[player], relic)
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
