"""One position of an Arcana game (immutable) and the actions that move it on.

`State` is frozen: every list is a sorted tuple so that two equal positions compare equal and
iterate in the same order whatever the hash seed. The rules work on a `Draft`, a mutable copy
that lives only inside one `apply` and is frozen again at the end (house rules [3]-[10]).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

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


MIN_PLAYERS, MAX_PLAYERS = 2, 4  # the only definition for Arcana; the rest imports it


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


class Seats:
    """Per-seat (or per-stake) groups of a frozen state, copied only when first touched.

    Most actions change one player and one stake; copying and re-sorting every group for each
    action would be most of the engine's work.
    """

    __slots__ = ("frozen", "live", "thaw")

    def __init__(self, frozen: tuple, thaw) -> None:
        self.frozen = frozen
        self.live: dict[int, Any] = {}
        self.thaw = thaw

    def __getitem__(self, index: int) -> Any:
        live = self.live.get(index)
        if live is None:
            if index < 0:  # one key per group, or a group could be copied twice
                raise IndexError(index)
            live = self.live[index] = self.thaw(self.frozen[index])
        return live

    def __len__(self) -> int:
        return len(self.frozen)

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self.frozen)))

    def refreeze(self, freeze) -> tuple:
        """The frozen groups, untouched ones as they were."""
        return tuple(
            freeze(self.live[i]) if i in self.live else group for i, group in enumerate(self.frozen)
        )


class Draft:
    """A mutable working copy of a State for the duration of one `apply`."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.catalog = state.catalog
        self.variant = state.variant
        self.names = state.names
        self.guilds = state.guilds
        self.round = state.round
        self.start_player = state.start_player
        self.turn = state.turn
        self.phase = state.phase
        self.possession: Seats | list[set[str]] = Seats(state.possession, set)
        self.ready: Seats | list[set[str]] = Seats(state.ready, set)
        self.hand = list(state.hand)
        self.acted = state.acted
        self.under_base = Seats(state.under_base, set)
        self.tasks = state.tasks
        self.stashable = Seats(state.stashable, set)
        self.markets = [stake.market for stake in state.stakes]
        self.piles = [stake.pile for stake in state.stakes]
        self.agents = Seats(tuple(stake.agents for stake in state.stakes), _thaw_sides)
        self.militia_deck = set(state.militia_deck)
        self.reveals = list(state.reveals)
        self.militia_due = state.militia_due
        self.ending = state.ending
        self.game_end_revealed = state.game_end_revealed
        self.seen = state.seen

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def free_stake(self) -> int:
        return len(self.markets) - 1

    def close_stash(self) -> None:
        """The stash decision ends with the next player action."""
        for player, cards in enumerate(self.state.stashable):
            if cards:
                self.stashable[player].clear()

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
            possession=_freeze(self.possession),
            ready=_freeze(self.ready),
            hand=tuple(self.hand),
            acted=self.acted,
            under_base=_freeze(self.under_base),
            tasks=self.tasks,
            stashable=_freeze(self.stashable),
            stakes=self._freeze_stakes(),
            militia_deck=tuple(sorted(self.militia_deck)),
            reveals=tuple(self.reveals),
            militia_due=self.militia_due,
            ending=self.ending,
            game_end_revealed=self.game_end_revealed,
            seen=self.seen,
        )

    def _freeze_stakes(self) -> tuple[Stake, ...]:
        stakes = []
        for i, before in enumerate(self.state.stakes):
            touched = i in self.agents.live
            market, pile = self.markets[i], self.piles[i]
            if not touched and market == before.market and pile == before.pile:
                stakes.append(before)
                continue
            agents = _freeze_sides(self.agents.live[i]) if touched else before.agents
            stakes.append(Stake(market, pile, agents))
        return tuple(stakes)


def _thaw_sides(sides: tuple) -> list[dict[str, bool]]:
    return [dict(side) for side in sides]


def _freeze_sides(sides: list[dict[str, bool]]) -> tuple:
    return tuple(tuple(sorted(side.items())) for side in sides)


def _freeze(groups: Seats | list[set[str]]) -> tuple[tuple[str, ...], ...]:
    if isinstance(groups, Seats):
        return groups.refreeze(_sorted_tuple)
    return tuple(_sorted_tuple(cards) for cards in groups)


def _sorted_tuple(cards: set[str]) -> tuple[str, ...]:
    return tuple(sorted(cards))
