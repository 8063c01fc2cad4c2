"""Res Arcana's screen models from the engine state: the status display and one per seat.

Pure functions of the state, the prompt being answered and the round's end just played, so a
resumed or undone game shows exactly what its state says.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.resarcana import Position, State, name, ranks
from engine.resarcana.essences import Essences as Stock
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

# Each place of power is drawn by the essence it is themed on, in essence order.
PLACE_ESSENCE = {
    "dragon_tower": Essence.FIRE,
    "sacred_garden": Essence.LIFE,
    "calm_temple": Essence.CALM,
    "death_crypt": Essence.DEATH,
    "gold_mine": Essence.GOLD,
}
GAIN_LABELS = {
    "gold": "1 gold",
    "fire": "2 fire",
    "life": "2 life",
    "calm": "2 calm",
    "death": "2 death",
}


class Prompt(NamedTuple):
    """What the table is being asked: `mode` idle, discard (tap a card) or gain (choose)."""

    mode: str = "idle"
    card: str | None = None
    gain: str | None = None


class RoundEnd(NamedTuple):
    """A round that just ended without a winner, and what each seat then produced."""

    round: int
    produced: tuple[Stock, ...]


def essences(stock: Stock) -> Essences:
    """The engine's essences as the screens' model."""
    return Essences(**stock.as_dict())


def table_screens(state: State, prompt: Prompt, round_end: RoundEnd | None) -> tuple[Screen, ...]:
    """The status screen's model, then one per seat in seat order."""
    look = Position(state)
    names = look.table.names
    seats = range(look.players)
    if look.finished:
        order = sorted(seats, key=lambda q: (ranks(state)[q], q))
        ranking = tuple(RankedPlayer(ranks(state)[q], names[q], look.vp(q)) for q in order)
        finals = tuple(SeatScreen(names[q], essences(look.essences(q)), look.vp(q)) for q in seats)
        return (RankingScreen(ranking), *finals)
    if round_end is not None:
        scores = tuple(Strength(names[q], look.vp(q)) for q in seats)
        produced = tuple(
            ProductionScreen(names[q], look.round, essences(round_end.produced[q])) for q in seats
        )
        return (VictoryCheckScreen(round_end.round, scores), *produced)
    return (status(look), *(seat_screen(look, q, prompt) for q in seats))


def status(look: Position) -> ResStatusScreen:
    """Round, whose turn, places of power and monuments still to buy."""
    face_up = look.monuments_face_up()
    up = face_up if isinstance(face_up, int) else len(face_up)
    hidden = 6 - look.monuments_bought() - up
    available = set(look.places_available())
    places = tuple(essence for place, essence in PLACE_ESSENCE.items() if place in available)
    return ResStatusScreen(look.round, look.table.names[look.current], places, up, hidden)


def seat_screen(look: Position, seat: int, prompt: Prompt) -> Screen:
    """A seat's essences and VP, or the discard being asked of the player to act."""
    current = look.current
    if seat == current and prompt.mode == "discard":
        return PromptScreen("Tap the card to discard (Select: cancel)", title="Discard")
    if seat == current and prompt.mode == "gain" and prompt.card is not None:
        labels = tuple(GAIN_LABELS.values())
        chosen = list(GAIN_LABELS).index(prompt.gain or "gold")
        return ChoiceScreen(name(prompt.card), labels, chosen)  # the gain of its discard
    return SeatScreen(
        look.table.names[seat],
        essences(look.essences(seat)),
        look.vp(seat),
        your_turn=seat == current,
        passed=look.has_passed(seat),
    )  # whose turn it is stands on the status screen: a turn redraws only two seats
