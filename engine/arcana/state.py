"""One position of an Arcana game (immutable) and the actions that move it on.

`State` is frozen: every list is a sorted tuple so that two equal positions compare equal and
iterate in the same order whatever the hash seed. The rules work on a `Table`, a mutable copy
that lives only inside one `apply` and is frozen again at the end (house rules [3]-[10]).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from engine.arcana.catalog import Catalog

FREE = "free"


class Action(NamedTuple):
    """One record line: a player's action or a table event (`reveal`, player None).

    `params` holds a location's parameters as sorted (name, value) pairs.
    """

    kind: str
    player: int | None
    card: str
    stake: int | None = None
    params: tuple[tuple[str, int | str], ...] = ()

    def param(self, name: str) -> int | str | None:
        return dict(self.params).get(name)


@dataclass(frozen=True, slots=True)
class Stake:
    """A stake: its face-up market card (None while empty), cards left in its pile, and per
    player the agents and militia there as sorted (card, face_down) pairs."""

    market: str | None
    pile: int
    agents: tuple[tuple[tuple[str, bool], ...], ...]


@dataclass(frozen=True, eq=True)
class State:
    """A position. `phase` is "play" (a round in progress), "evaluated" (the round was evaluated
    and its reveals are awaited) or "over"."""

    catalog: Catalog = field(compare=False)
    variant: str
    names: tuple[str, ...]
    guilds: tuple[str, ...]
    round: int
    start_player: int
    turn: int | None
    phase: str
    possession: tuple[tuple[str, ...], ...]
    ready: tuple[tuple[str, ...], ...]
    hand: tuple[int, ...]
    acted: bool
    under_base: tuple[tuple[str, ...], ...]
    tasks: tuple[tuple[str, ...], ...]
    stashable: tuple[tuple[str, ...], ...]
    stakes: tuple[Stake, ...]
    militia_deck: tuple[str, ...]
    reveals: tuple[int, ...]
    militia_due: int | None
    ending: bool
    game_end_revealed: bool
    seen: frozenset[str]

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def free_stake(self) -> int:
        return len(self.stakes) - 1


def stake_count(players: int) -> int:
    """House rule [3]: 5 stakes for 2 and 4 players, 4 for 3 players."""
    return 4 if players == 3 else 5


def controllers(players: int, stake: int) -> tuple[int, ...]:
    """The players who control a stake (house rule [3]); () for the free-trade stake."""
    if stake >= stake_count(players) - 1:
        return ()
    if players == 2:
        return (stake // 2,)
    return (stake, (stake + 1) % players)


class Table:
    """A mutable working copy of a State for the duration of one `apply`."""

    def __init__(self, state: State) -> None:
        self.catalog = state.catalog
        self.variant = state.variant
        self.names = state.names
        self.guilds = state.guilds
        self.round = state.round
        self.start_player = state.start_player
        self.turn = state.turn
        self.phase = state.phase
        self.possession = [set(cards) for cards in state.possession]
        self.ready = [set(cards) for cards in state.ready]
        self.hand = list(state.hand)
        self.acted = state.acted
        self.under_base = [set(cards) for cards in state.under_base]
        self.tasks = state.tasks
        self.stashable = [set(cards) for cards in state.stashable]
        self.markets = [stake.market for stake in state.stakes]
        self.piles = [stake.pile for stake in state.stakes]
        self.agents = [[dict(placed) for placed in stake.agents] for stake in state.stakes]
        self.militia_deck = set(state.militia_deck)
        self.reveals = list(state.reveals)
        self.militia_due = state.militia_due
        self.ending = state.ending
        self.game_end_revealed = state.game_end_revealed
        self.seen = set(state.seen)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def free_stake(self) -> int:
        return len(self.markets) - 1

    def freeze(self) -> State:
        return State(
            catalog=self.catalog,
            variant=self.variant,
            names=self.names,
            guilds=self.guilds,
            round=self.round,
            start_player=self.start_player,
            turn=self.turn,
            phase=self.phase,
            possession=_sorted(self.possession),
            ready=_sorted(self.ready),
            hand=tuple(self.hand),
            acted=self.acted,
            under_base=_sorted(self.under_base),
            tasks=self.tasks,
            stashable=_sorted(self.stashable),
            stakes=tuple(
                Stake(market, pile, tuple(tuple(sorted(side.items())) for side in agents))
                for market, pile, agents in zip(self.markets, self.piles, self.agents, strict=True)
            ),
            militia_deck=tuple(sorted(self.militia_deck)),
            reveals=tuple(self.reveals),
            militia_due=self.militia_due,
            ending=self.ending,
            game_end_revealed=self.game_end_revealed,
            seen=frozenset(self.seen),
        )


def _sorted(groups: list[set[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(sorted(cards)) for cards in groups)
