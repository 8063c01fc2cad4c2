"""Arcana's setup at the table, without typing: seats, first market cards, kept tasks.

The chooser has already picked Arcana and its variant. Then:
1. each player taps their guild's base card, in seat order (OK starts with 2 or 3 seated;
   the fourth seat starts at once);
2. each stake's first market card is tapped on that stake's pad (house rule [3] sets how
   many stakes; a card tapped again on another stake is refused, a second card on a stake
   is refused, and the stake's card tapped there again is taken back off);
3. advanced game: each player in seat order taps their two kept task cards, which no screen
   ever names.
The last tap answers `Begin("arcana", setup)` with a record setup (start player: seat 0).
"""

from __future__ import annotations

from typing import Any

from engine.arcana import Catalog
from engine.arcana.setup import TASKS_KEPT
from engine.arcana.state import MAX_PLAYERS, MIN_PLAYERS, stake_count
from firmware.controllers.base import Ask, Begin, Controller, Refuse, Reply, Shelf
from firmware.language import code, local_name
from firmware.language import text as tr
from firmware.screens import Arcanum, PromptIcon, PromptScreen, Screen, StakeScreen


def stake_label(stake: int, stakes: int) -> str:
    """How a stake's screen names it: "Stake 3" for stake 2 (people count from 1), the last one
    "Free trade"."""
    return tr("stake.free_trade") if stake == stakes - 1 else tr("stake.label", n=stake + 1)


class ArcanaSeating(Controller):
    """The setup controller: answers taps and presses until the players are seated."""

    def __init__(self, games: Shelf, variant: str | None) -> None:
        self.games = games
        self.catalog: Catalog = games.catalog
        self.variant = variant or "basic"
        self.status_role: str = games.status_role
        self.pads: tuple[str, ...] = tuple(games.pads)
        self.state = None
        self.guilds: list[str] = []
        self.stakes: list[str | None] = []
        self.tasks: list[list[str]] = []
        self.phase = "seats"

    # -- what a tap means ---------------------------------------------------------------
    def tap(self, pad: str, card: str) -> Reply:
        """A base seats its guild; a market card starts a stake; a task is kept."""
        if card not in self.catalog.cards:  # the chooser's registry knows both games' cards
            return Refuse(tr("seating.not_arcana"), pad)
        if self.phase == "seats":
            return self._seat(card, pad)
        if self.phase == "stakes":
            return self._stake(pad, card)
        return self._task(card, pad)

    def press(self, button: str, held: bool) -> Reply:
        """OK ends the seating once two or three players sit; nothing else to choose."""
        if button != "ok" or self.phase != "seats":
            return Ask()
        if len(self.guilds) < MIN_PLAYERS:
            return Refuse(tr("seating.two_players"), self.status_role)
        return self._seated()

    def _seat(self, card: str, pad: str) -> Reply:
        found = self.catalog.cards[card]
        if found.kind != "base":
            return Refuse(tr("seating.seat_first"), pad)
        guild = found.guild or ""
        if guild in self.guilds:
            name = self._guild_name(guild)
            seat = self.guilds.index(guild) + 1
            return Refuse(tr("seating.seated_already", name=name, seat=seat), pad)
        self.guilds.append(guild)
        if len(self.guilds) == MAX_PLAYERS:
            return self._seated()
        return Ask()

    def _seated(self) -> Reply:
        count = stake_count(len(self.guilds))
        if len(self.pads) < count:
            return Refuse(tr("seating.stakes_need_pads", count=count, pads=len(self.pads)))
        self.stakes = [None] * count
        self.phase = "stakes"
        return Ask()

    def _stake(self, pad: str, card: str) -> Reply:
        found = self.catalog.cards[card]
        stake = self.pads.index(pad) if pad in self.pads else len(self.pads)
        if stake >= len(self.stakes):
            return Refuse(tr("seating.no_stake_on_pad", players=len(self.guilds)), pad)
        if not found.is_market:
            return Refuse(tr("seating.tap_market_card"), pad)
        if card in self.stakes and self.stakes.index(card) != stake:
            where = self.stakes.index(card) + 1
            return Refuse(tr("seating.card_lies_on", card=found.name_in(code()), n=where), pad)
        if self.stakes[stake] == card:  # the same card again: take it back off
            self.stakes[stake] = None
            return Ask()
        if self.stakes[stake] is not None:
            label = stake_label(stake, len(self.stakes))
            return Refuse(tr("seating.stake_has_card", stake=label), pad)
        self.stakes[stake] = card
        if None in self.stakes:
            return Ask()
        if self.variant == "advanced":
            self.phase = "tasks"
            self.tasks = [[] for _ in self.guilds]
            return Ask()
        return self._begin()

    def _task(self, card: str, pad: str) -> Reply:
        # Refusals here never name the task: kept tasks are secret.
        if self.catalog.cards[card].kind != "task":
            return Refuse(tr("seating.task_cards_only"), pad)
        if any(card in kept for kept in self.tasks):
            return Refuse(tr("seating.task_kept"), pad)
        seat = next(p for p, kept in enumerate(self.tasks) if len(kept) < TASKS_KEPT)
        self.tasks[seat].append(card)
        if len(self.tasks[-1]) < TASKS_KEPT:
            return Ask()
        return self._begin()

    def _begin(self) -> Reply:
        setup: dict[str, Any] = {
            "catalog": self.catalog.source,
            "variant": self.variant,
            "players": [{"name": self.catalog.guilds[g].name, "guild": g} for g in self.guilds],
            "start_player": 0,
            "stakes": list(self.stakes),
        }
        if self.variant == "advanced":
            setup["tasks"] = [sorted(kept) for kept in self.tasks]
        return Begin("arcana", setup)

    # -- the rest of the controller protocol ----------------------------------------------
    def accepted(self, events: tuple[Any, ...]) -> None:
        """Nothing is applied during setup."""

    def reset_prompt(self) -> None:
        """Undo during setup is the chooser's (it leaves the setup)."""

    def is_over(self) -> bool:
        return False

    def _guild_name(self, guild: str) -> str:
        """A guild's name in the language of the screens (the catalog's own, else the sample's)."""
        found = self.catalog.guilds[guild]
        return local_name(found.name, found.names)

    def screens(self) -> dict[str, Screen]:
        """The status screen says who taps what; while seating, the pads show who is seated
        (seat 1 on the first pad); then each stake shows its first card."""
        shown: dict[str, Screen] = {self.status_role: self._status()}
        if self.phase == "seats":  # who is seated so far, one seat per pad
            for seat, pad in enumerate(self.pads[: len(self.guilds)]):
                name = self._guild_name(self.guilds[seat])
                title = tr("seating.seat", n=seat + 1)
                shown[pad] = PromptScreen(name, title=title, icon=PromptIcon.NONE)
            return shown
        for stake, pad in enumerate(self.pads):
            if stake < len(self.stakes):
                shown[pad] = self._stake_screen(stake)
            else:
                unused = tr("stake.none_here", players=len(self.guilds))
                shown[pad] = PromptScreen(unused, icon=PromptIcon.NONE)
        return shown

    def _status(self) -> PromptScreen:
        if self.phase == "seats":
            seat = len(self.guilds) + 1
            if len(self.guilds) >= MIN_PLAYERS:
                return PromptScreen(
                    tr("seating.tap_base_or_ok", n=len(self.guilds)),
                    title=tr("seating.seat", n=seat),
                )
            return PromptScreen(tr("seating.tap_base"), title=tr("seating.seat", n=seat))
        if self.phase == "stakes":
            left = self.stakes.count(None)
            return PromptScreen(
                tr("seating.tap_first_cards", left=left), title=tr("seating.stakes_title")
            )
        seat = next(p for p, kept in enumerate(self.tasks) if len(kept) < TASKS_KEPT)
        name = self._guild_name(self.guilds[seat])
        kept = len(self.tasks[seat])
        title = tr("seating.tasks_title", name=name, kept=kept, of=TASKS_KEPT)
        return PromptScreen(tr("seating.tap_tasks"), title=title)

    def _stake_screen(self, stake: int) -> PromptScreen | StakeScreen:
        label = stake_label(stake, len(self.stakes))
        card = self.stakes[stake]
        if card is None:
            return PromptScreen(tr("seating.tap_first_card"), title=label, icon=PromptIcon.TAP)
        found = self.catalog.cards[card]
        assert found.main is not None
        return StakeScreen(
            found.name_in(code()), Arcanum(found.main), found.threshold, (), stake=label
        )
