"""What happened, as small frozen dataclasses (`engine.protocol.event_to_json` makes them JSON).

Evaluation and bribe events carry every number a player needs to trust the result. Events
name face-down cards too (`AgentPlaced.card`): a screen showing them to the table must hide
the card when `face_down` is true (see `engine.arcana.view`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class RoundStarted:
    kind: ClassVar[str] = "round_started"
    round: int
    start_player: int
    hand_sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AgentPlaced:
    kind: ClassVar[str] = "agent_placed"
    player: int
    card: str
    stake: int
    face_down: bool


@dataclass(frozen=True, slots=True)
class LocationPlayed:
    kind: ClassVar[str] = "location_played"
    player: int
    card: str
    effect: str
    params: dict[str, int | str]


@dataclass(frozen=True, slots=True)
class StakesSwapped:
    kind: ClassVar[str] = "stakes_swapped"
    a: int
    b: int
    market_a: str  # the market card now on stake a
    market_b: str


@dataclass(frozen=True, slots=True)
class AgentMoved:
    kind: ClassVar[str] = "agent_moved"
    player: int
    card: str
    from_stake: int
    to_stake: int
    face_down: bool


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    kind: ClassVar[str] = "card_discarded"
    player: int
    card: str
    brings_militia: bool


@dataclass(frozen=True, slots=True)
class MilitiaPlaced:
    kind: ClassVar[str] = "militia_placed"
    player: int
    card: str
    stake: int


@dataclass(frozen=True, slots=True)
class Bribed:
    """A bribe [8]: value = relic's financial + the briber's agents' financial here."""

    kind: ClassVar[str] = "bribed"
    player: int
    relic: str
    stake: int
    market: str
    relic_financial: int
    agent_financial: dict[str, int]  # each of the briber's agents here -> its financial
    bribe_value: int
    needed: int  # the market agent's financial value
    success: bool
    turned_face_up: tuple[tuple[int, str], ...]  # (player, agent) revealed by the bribe
    won: tuple[str, ...]  # cards the briber takes: market agent, own agents, the relic
    sent_home: tuple[tuple[str, ...], ...]  # per player: agents returned to possession
    militia_returned: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StakeEvaluated:
    """One power struggle [7] with every number behind the outcome.

    `tie_break`: "none" (no tie at the top), "guild" (decided by a guild's tie arcanum),
    "unresolved" (tied and not exactly one tied guild has the arcanum: nobody wins).
    """

    kind: ClassVar[str] = "stake_evaluated"
    round: int
    stake: int
    market: str
    arcanum: str
    threshold: int
    strengths: tuple[int, ...]  # per player: the sum of the arcanum over agents and militia
    contenders: tuple[int, ...]  # players with strength >= threshold
    tied: tuple[int, ...]  # contenders sharing the highest strength, when more than one
    tie_arcana: tuple[str, ...]  # per player: their guild's tie arcanum
    tie_break: str
    winner: int | None
    turned_face_up: tuple[tuple[int, str], ...]
    won: tuple[str, ...]  # the market card (empty when nobody wins)
    sent_home: tuple[tuple[str, ...], ...]  # per player: agents returned to possession
    militia_returned: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardRevealed:
    kind: ClassVar[str] = "card_revealed"
    stake: int
    card: str
    pile_left: int


@dataclass(frozen=True, slots=True)
class GameEndRevealed:
    """The game-end card [6]: the game ends now, or after this round's evaluation."""

    kind: ClassVar[str] = "game_end_revealed"
    stake: int
    ends_now: bool


@dataclass(frozen=True, slots=True)
class Stashed:
    kind: ClassVar[str] = "stashed"
    player: int
    card: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    """Scoring [11]: each player's card VP, task VP and total; equal best totals share."""

    kind: ClassVar[str] = "game_ended"
    round: int
    reason: str  # "game_end_card" or "no_cards"
    card_vp: tuple[int, ...]
    tasks_fulfilled: tuple[tuple[str, ...], ...]
    task_vp: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
