"""Res Arcana's screen models from the engine's public view: the status display, one per seat.

Pure functions of the table's view (`engine.resarcana.view(state, None)`: no hand, no deck),
the prompt being answered and the round's end just played, so a resumed or undone game shows
exactly what its state says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.resarcana import CARDS, State, view
from engine.resarcana.essences import Essences as Stock
from firmware.language import res_arcana_name
from firmware.language import text as tr
from firmware.screens import (
    ChoiceScreen,
    Essence,
    Essences,
    ProductionScreen,
    PromptScreen,
    RankedPlayer,
    RankingScreen,
    ResStatusScreen,
    Screen,
    SeatScreen,
    Strength,
    VictoryCheckScreen,
)

IDLE, DISCARD, GAIN = "idle", "discard", "gain"
# A discard's gains, in the order Select cycles them.
GAIN_LABELS = {
    "gold": "1 gold",
    "fire": "2 fire",
    "life": "2 life",
    "calm": "2 calm",
    "death": "2 death",
}
GAINS = tuple(GAIN_LABELS)


def gain_label(gain: str) -> str:
    """A discard's gain in the current language: "1 gold", "2 Feuer"."""
    count = GAIN_LABELS[gain].split()[0]
    return tr("res.gain", n=count, essence=tr(f"essence.{gain}"))


# Each place of power is drawn by the essence it is themed on, in essence order.
PLACE_ESSENCE = {
    "dragon_tower": Essence.FIRE,
    "sacred_garden": Essence.LIFE,
    "calm_temple": Essence.CALM,
    "death_crypt": Essence.DEATH,
    "gold_mine": Essence.GOLD,
}


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the table is being asked: `mode` IDLE, DISCARD (tap a card) or GAIN (choose)."""

    mode: str = IDLE
    card: str | None = None
    gain: str | None = None


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A round that just ended without a winner, and what each seat then produced."""

    round: int
    produced: tuple[Stock, ...]


def table_screens(state: State, prompt: Prompt, round_end: RoundEnd | None) -> tuple[Screen, ...]:
    """The status screen's model, then one per seat in seat order."""
    table = view(state, None)
    seats = table["players"]
    if table["finished"]:
        ranks = table["ranks"]
        order = sorted(range(len(seats)), key=lambda q: (ranks[q], q))
        ranking = tuple(
            RankedPlayer(ranks[q], player_name(seats[q]), seats[q]["vp"]) for q in order
        )
        finals = tuple(
            SeatScreen(player_name(s), Essences(**s["essences"]), s["vp"]) for s in seats
        )
        return (RankingScreen(ranking), *finals)
    if round_end is not None:
        scores = tuple(Strength(player_name(s), s["vp"]) for s in seats)
        produced = tuple(
            ProductionScreen(player_name(s), table["round"], Essences(**gained.as_dict()))
            for s, gained in zip(seats, round_end.produced, strict=True)
        )
        return (VictoryCheckScreen(round_end.round, scores), *produced)
    return (status(table), *(seat_screen(table, seat, prompt) for seat in seats))


def status(table: dict[str, Any]) -> ResStatusScreen:
    """Round, whose turn, places of power and monuments still to buy."""
    face_up = table["monuments"]  # ids, or only a count when the stack is unknown
    up = face_up if isinstance(face_up, int) else len(face_up)
    places = tuple(essence for place, essence in PLACE_ESSENCE.items() if place in table["places"])
    turn = player_name(table["players"][table["current"]])
    return ResStatusScreen(table["round"], turn, places, up, table["monuments_hidden"])


def seat_screen(table: dict[str, Any], seat: dict[str, Any], prompt: Prompt) -> Screen:
    """A seat's essences and VP, or the discard being asked of the player to act."""
    to_act = seat["seat"] == table["current"]
    if to_act and prompt.mode == DISCARD:
        return PromptScreen(tr("res.discard"), title=tr("res.discard_title"))
    if to_act and prompt.mode == GAIN and prompt.card is not None:
        labels = tuple(gain_label(gain) for gain in GAINS)
        return ChoiceScreen(
            res_arcana_name(prompt.card), labels, GAINS.index(prompt.gain or "gold")
        )
    # Whose turn it is stands on the status screen, so a turn redraws only two seats.
    return SeatScreen(
        player_name(seat),
        Essences(**seat["essences"]),
        seat["vp"],
        your_turn=to_act,
        passed=seat["passed"],
    )


def player_name(seat: dict[str, Any]) -> str:
    """A seat's player as the screens name them: a player named after their mage (as the
    table's seating names them) by the mage's name in the language of the screens."""
    mage = seat["mage"]
    return res_arcana_name(mage) if seat["name"] == CARDS[mage].name else seat["name"]
