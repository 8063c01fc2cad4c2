"""Screen models: what one display shows, as small frozen plain-data records.

The controller turns the engine's view into these; `firmware.screens.render` turns them into
images. Nothing here knows the engines or the hardware: labels are the names the table uses
(player or guild names), numbers are numbers, and face-down agents are only ever counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Arcanum(StrEnum):
    """The four arcana of Arcana (house rules [1])."""

    MILITARY = "military"
    POLITICAL = "political"
    SPIRITUAL = "spiritual"
    FINANCIAL = "financial"


class Essence(StrEnum):
    """The five essences of Res Arcana, in the order the screens show them."""

    FIRE = "fire"
    LIFE = "life"
    CALM = "calm"
    DEATH = "death"
    GOLD = "gold"


class PromptIcon(StrEnum):
    """What a prompt asks for: a tap on a pad, a button press, or nothing drawn."""

    TAP = "tap"
    BUTTON = "button"
    NONE = "none"


# --- Arcana ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GuildAtStake:
    """One guild's side of a stake: face-up strength and how many agents lie face down.

    Hidden agents are a count, never a value: build this with `guild_at_stake` from the
    agents' values and it cannot leak what a face-down agent is worth.
    """

    label: str
    strength: int
    hidden: int = 0
    controls: bool = False  # this guild controls the stake: its agents go there face down


def guild_at_stake(
    label: str, agents: Iterable[tuple[int, bool]], controls: bool = False
) -> GuildAtStake:
    """Sum the required arcanum over face-up agents and count the face-down ones.

    `agents` are (value in the stake's main arcanum, face_up) pairs, militia included.

    >>> guild_at_stake("Ann", [(3, True), (5, False), (1, True)])
    GuildAtStake(label='Ann', strength=4, hidden=1, controls=False)
    """
    strength = hidden = 0
    for value, face_up in agents:
        if face_up:
            strength += value
        else:
            hidden += 1
    return GuildAtStake(label, strength, hidden, controls)


@dataclass(frozen=True)
class StakeScreen:
    """A stake with its market card: the card, its main arcanum and threshold, each side."""

    card: str
    arcanum: Arcanum
    threshold: int
    guilds: tuple[GuildAtStake, ...] = ()
    stake: str = ""  # e.g. "Stake 2" or "Free trade"; shown small when given


@dataclass(frozen=True)
class EmptyStakeScreen:
    """A stake without a market card: its next card is asked for now (or, `after` another
    stake's, later), or none comes: its pile is used up or (`ending`) the game-end card is out.
    """

    stake: str = ""
    waiting: bool = True  # False: no card comes and the stake stays empty
    after: str = ""  # waiting, but the stake of this label reveals its card first
    ending: bool = False  # the game-end card is revealed: the game ends after this round


@dataclass(frozen=True)
class Strength:
    """A label with a number: a side's strength in a struggle, a player's VP in a check."""

    label: str
    value: int


@dataclass(frozen=True)
class StruggleScreen:
    """The power struggle at one stake (house rules [7]) and its outcome.

    `tie_break` is a short sentence when the tie-break decided (or failed to), else "".
    `winner` is the winning label, or None when nobody won.
    """

    card: str
    arcanum: Arcanum
    threshold: int
    strengths: tuple[Strength, ...]
    winner: str | None = None
    tie_break: str = ""


@dataclass(frozen=True)
class BribeScreen:
    """A bribe (house rules [8]): the briber's value against the market agent's financial."""

    card: str
    briber: str
    value: int
    needed: int

    @property
    def succeeded(self) -> bool:
        """The bribe takes the agent when its value reaches the agent's financial value."""
        return self.value >= self.needed


@dataclass(frozen=True)
class RoundResultsScreen:
    """The status display after a round's struggles: how many stakes each player won
    (`wins`, every player) and at how many stakes nobody won (`unwon`)."""

    round: int
    wins: tuple[Strength, ...]
    unwon: int = 0


@dataclass(frozen=True)
class HandCount:
    """How many cards a player still holds this round."""

    label: str
    cards: int


@dataclass(frozen=True)
class ArcanaStatusScreen:
    """The status display during an Arcana game.

    `turn` names the player to act ("" when nobody is, e.g. while a reveal is awaited);
    The hand whose label equals `turn` is drawn inverted. `alert` (a device in trouble,
    say) takes the place of the hands and the prompt, drawn inverted.
    """

    round: int
    turn: str
    hands: tuple[HandCount, ...] = ()
    prompt: str = ""
    alert: str = ""


@dataclass(frozen=True)
class RankedPlayer:
    """One line of a final ranking; equal points share a rank."""

    rank: int
    name: str
    points: int


@dataclass(frozen=True)
class RankingScreen:
    """The final ranking of either game; rank-1 players are drawn as winners."""

    players: tuple[RankedPlayer, ...]
    title: str = ""  # "": the language's "Final ranking"


@dataclass(frozen=True)
class ScoreLine:
    """One part of a player's score, e.g. ("Under base", 3)."""

    label: str
    points: int


@dataclass(frozen=True)
class BreakdownScreen:
    """One player's score breakdown, one page per player (page counts from 1)."""

    name: str
    total: int
    lines: tuple[ScoreLine, ...]
    page: int = 1
    pages: int = 1


# --- Res Arcana -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Essences:
    """A count of each essence."""

    fire: int = 0
    life: int = 0
    calm: int = 0
    death: int = 0
    gold: int = 0

    def count(self, essence: Essence) -> int:
        """The count of one essence."""
        return getattr(self, essence.value)


@dataclass(frozen=True)
class SeatScreen:
    """One Res Arcana seat: that player's essences and VP, and whose turn it is.

    `turn` names the player to act when it is not this seat's turn ("" when nobody is).
    """

    name: str
    essences: Essences
    vp: int
    your_turn: bool = False
    passed: bool = False
    turn: str = ""


@dataclass(frozen=True)
class ResStatusScreen:
    """The status display during a Res Arcana game.

    `places` are the places of power still to buy, each shown by the essence it is themed on
    (dragon_tower fire, sacred_garden life, calm_temple calm, death_crypt death, gold_mine
    gold); monuments are counted face up and hidden. `alert` replaces the turn line.
    """

    round: int
    turn: str
    places: tuple[Essence, ...]
    monuments_up: int
    monuments_hidden: int
    alert: str = ""


@dataclass(frozen=True)
class ProductionScreen:
    """What one seat's cards produced at the start of a round."""

    name: str
    round: int
    gained: Essences


@dataclass(frozen=True)
class VictoryCheckScreen:
    """The end-of-round check: everyone's VP against the goal; winners empty = play on."""

    round: int
    scores: tuple[Strength, ...]
    winners: tuple[str, ...] = ()
    goal: int = 10


# --- Any game -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PromptScreen:
    """Asks the table for something, e.g. ("Tap the stake to swap") or, in setup,
    title "Seat 1", text "Tap your guild base".
    """

    text: str
    title: str = ""
    icon: PromptIcon = PromptIcon.TAP
    short: str = ""  # the whole prompt, shorter, for a 128x32 panel (title and text)


@dataclass(frozen=True)
class RefusalScreen:
    """A refused tap or press, with the engine's sentence (e.g. "Thieves to play")."""

    reason: str


@dataclass(frozen=True)
class DeviceTroubleScreen:
    """A device that does not answer, e.g. "Reader stake-2 not answering"."""

    message: str


@dataclass(frozen=True)
class UnknownCardScreen:
    """A tag the registry does not know; `uid` (hex) helps find it when enrolling."""

    uid: str = ""


@dataclass(frozen=True)
class ChoiceScreen:
    """A choice made with the buttons (game, variant, player count, advanced questions)."""

    title: str
    options: tuple[str, ...]
    selected: int = 0
    hint: str = ""  # "": the language's "Select: next  OK: pick"


@dataclass(frozen=True)
class SavedScreen:
    """The game is safely stored (and, when shutting down, the power may be cut)."""

    message: str = ""  # "": the language's "Game saved"
    detail: str | None = None  # None: the language's "Safe to switch off"; "": none


@dataclass(frozen=True)
class UndoScreen:
    """An undone action, described in a few words (e.g. "Ann placed an agent on stake 2")."""

    action: str
    title: str = "Undone"  # or "Redone": the words of the language are chosen when drawn


Screen = (
    StakeScreen
    | EmptyStakeScreen
    | StruggleScreen
    | BribeScreen
    | ArcanaStatusScreen
    | RoundResultsScreen
    | RankingScreen
    | BreakdownScreen
    | SeatScreen
    | ResStatusScreen
    | ProductionScreen
    | VictoryCheckScreen
    | PromptScreen
    | RefusalScreen
    | DeviceTroubleScreen
    | UnknownCardScreen
    | ChoiceScreen
    | SavedScreen
    | UndoScreen
)
