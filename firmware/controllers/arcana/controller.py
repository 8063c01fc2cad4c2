"""Arcana at the table: each tap or press becomes one engine action (or a prompt step).

A turn is one tap: an agent on a stake's pad is placed there, a relic on a stake's pad
bribes there, a location tapped anywhere starts its effect and the screens ask for its
parameters as taps (the two stakes to swap; the agent to move, then the stake it goes to).
Select, then a tap, discards a card. Reveals are a market card tapped on the emptied stake's
pad, the militia card is tapped on the stake it goes to, and "under the base?" is answered
with OK (yes) or Select (no). The engine judges every action; its Rejection sentence is what
the table reads.

The controller keeps only transient prompt state (a half-entered location, discard mode,
the last struggle or bribe results, the declined stash questions, the breakdown page): all
it shows is rebuilt from the engine state, so a resumed game looks the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.arcana import RULES, Action, State, pending
from engine.arcana.events import Bribed, GameEnded, StakeEvaluated
from engine.protocol import BAD_PARAMS, Rejection
from firmware.controllers.arcana import screens
from firmware.controllers.arcana.screens import Prompt, table_screens
from firmware.controllers.base import Ask, Controller, Play, Refuse, Reply, Shelf
from firmware.language import refusal
from firmware.language import text as tr
from firmware.screens import BribeScreen, Screen, StruggleScreen


@dataclass
class LocationPrompt:
    """A location whose parameters are still being tapped in."""

    player: int
    card: str
    effect: str  # "swap_stakes" or "move_agent"
    first: int | None = None  # swap: the first stake tapped
    agent: str | None = None  # move: the agent to move
    origin: int | None = None  # move: the stake it stands on

    def step(self) -> str:
        """What the table is asked for next, in a few words (the status prompt)."""
        if self.effect == "swap_stakes":
            return tr("status.swap_first" if self.first is None else "status.swap_second")
        if self.agent is None:
            return tr("status.move_agent")
        return tr("status.move_stake")


class ArcanaController(Controller):
    """The game controller of one Arcana game (see the module docstring)."""

    def __init__(self, games: Shelf, state: State) -> None:
        self.state = state
        self.status_role: str = games.status_role
        self.pads: tuple[str, ...] = tuple(games.pads)
        self.location: LocationPrompt | None = None
        self.discarding = False
        self.declined: set[tuple[int, str]] = set()
        self.results: dict[int, StruggleScreen | BribeScreen] = {}
        self.summary: Screen | None = None
        self.page = 0

    # -- prompt state ---------------------------------------------------------------------
    def reset_prompt(self) -> None:
        """Drop a half-entered location or discard and forget the results shown.

        Declined "under the base?" questions stay declined: a refused tap must not ask again.
        """
        self.location = None
        self.discarding = False
        self.results = {}
        self.summary = None
        self.page = 0

    def prompting(self) -> bool:
        """True while a location or a discard is half entered (Undo should only cancel it)."""
        return self.location is not None or self.discarding

    def stash_question(self) -> tuple[int, str] | None:
        """The (player, card) asked about "under the base?", or None."""
        if RULES.is_terminal(self.state):
            return None
        for item in pending(self.state).stash:
            if item not in self.declined:
                return item
        return None

    def is_over(self) -> bool:
        return RULES.is_terminal(self.state)

    # -- taps -----------------------------------------------------------------------------
    def tap(self, pad: str, card: str) -> Reply:
        """A card on a pad: a reveal, a militia, a turn, or a location's parameter."""
        if self.is_over():
            return Refuse(tr("table.game_over"), pad)
        stake = self._stake(pad)
        if self.location is not None:
            return self._location_step(self.location, stake, card, pad)
        found = self.state.catalog.cards.get(card)
        if found is None:
            return Refuse(tr("seating.not_arcana"), pad)
        if found.kind == "game_end" or (found.is_market and card not in self.state.seen):
            if stake is None:
                return Refuse(self._no_stake(), pad)
            return Play(Action("reveal", None, card, stake))
        if found.kind == "militia":
            if stake is None:
                return Refuse(self._no_stake(), pad)
            waiting = pending(self.state)
            player = waiting.player if waiting.player is not None else 0
            return Play(Action("militia", player, card, stake))
        if found.kind == "task":
            return Refuse(tr("table.tasks_secret"), pad)
        if found.kind == "base":
            return Refuse(tr("table.base_stays"), pad)
        owner = self._owner(card)
        if owner is None:
            return Refuse(self._nobodys(card), pad)
        if self.discarding:
            return Play(Action("discard", owner, card))
        if found.kind == "location":
            return self._location_start(owner, card, pad)
        if stake is None:
            return Refuse(self._no_stake(), pad)
        kind = "agent" if found.kind == "agent" else "bribe"
        return Play(Action(kind, owner, card, stake))

    def _stake(self, pad: str) -> int | None:
        """The stake a pad stands for, None for a pad without a stake in this game."""
        if pad in self.pads and self.pads.index(pad) < len(self.state.stakes):
            return self.pads.index(pad)
        return None

    def _no_stake(self) -> str:
        return tr("seating.no_stake_on_pad", players=self.state.players)

    def _owner(self, card: str) -> int | None:
        """The player a playable card belongs to: in possession or on a stake."""
        for player in range(self.state.players):
            if card in self.state.possession[player]:
                return player
        for stake in self.state.stakes:
            for player, side in enumerate(stake.agents):
                if any(c == card for c, _ in side):
                    return player
        return None

    def _nobodys(self, card: str) -> str:
        name = screens.card_name(self.state, card)
        for i, stake in enumerate(self.state.stakes):
            if stake.market == card:
                return tr("table.market_card_of", card=name, n=i + 1)
        for player, under in enumerate(self.state.under_base):
            if card in under:
                guild = screens.player_name(self.state, player)
                return tr("table.under_base_for_good", card=name, name=guild)
        return tr("table.nobodys", card=name)

    # -- locations ------------------------------------------------------------------------
    def _location_start(self, player: int, card: str, pad: str) -> Reply:
        """Play a location without parameters at once; otherwise ask for them, but only when
        the engine would let this player play it now and it has something to act on."""
        bare = Action("location", player, card)
        outcome = RULES.apply(self.state, bare)
        if not isinstance(outcome, Rejection):
            return Play(bare)
        if outcome.code != BAD_PARAMS:
            return Refuse(refusal(outcome.code, outcome.message), pad)
        effect = self.state.catalog.cards[card].effect or "none"
        possible = any(
            a.kind == "location" and a.card == card for a in RULES.legal_actions(self.state)
        )
        if not possible:
            if effect == "swap_stakes":
                return Refuse(tr("table.swap_needs_two"), pad)
            return Refuse(tr("table.nothing_to_move"), pad)
        self.location = LocationPrompt(player, card, effect)  # never while discarding: `tap`
        return Ask()

    def _location_step(
        self, prompt: LocationPrompt, stake: int | None, card: str, pad: str
    ) -> Reply:
        if prompt.effect == "move_agent" and prompt.agent is None:
            return self._agent_to_move(prompt, card, pad)
        if stake is None:
            return Refuse(self._no_stake(), pad)
        if self.state.stakes[stake].market is None:
            return Refuse(tr("table.no_market_card", n=stake + 1), pad)
        if prompt.effect == "swap_stakes":
            if prompt.first is None:
                prompt.first = stake
                return Ask()
            if prompt.first == stake:
                return Refuse(tr("table.swap_two_different"), pad)
            params: tuple[tuple[str, int | str], ...] = (("a", prompt.first), ("b", stake))
        else:
            if prompt.origin == stake:
                return Refuse(tr("table.already_on_stake", n=stake + 1), pad)
            assert prompt.agent is not None
            params = (("card", prompt.agent), ("to", stake))
        return Play(Action("location", prompt.player, prompt.card, None, params))

    def _agent_to_move(self, prompt: LocationPrompt, card: str, pad: str) -> Reply:
        catalog = self.state.catalog
        for i, stake in enumerate(self.state.stakes):
            if any(c == card for c, _ in stake.agents[prompt.player]):
                if catalog.kind(card) == "militia":
                    return Refuse(tr("table.militia_stays"), pad)
                prompt.agent, prompt.origin = card, i
                return Ask()
        return Refuse(tr("table.not_your_agent", card=screens.card_name(self.state, card)), pad)

    # -- buttons --------------------------------------------------------------------------
    def press(self, button: str, held: bool) -> Reply:
        """OK: yes to "under the base?", else hide the results. Select: no to "under the
        base?", else discard mode on a turn; at the end Select pages through breakdowns."""
        if self.is_over():
            if button == "select":
                self.page = (self.page + 1) % (self.state.players + 1)
            elif button == "ok":
                self.results, self.summary = {}, None
            return Ask()
        question = self.stash_question()
        if button == "ok":
            if question is not None:
                player, card = question
                return Play(Action("stash", player, card))
            self.results, self.summary = {}, None
            return Ask()
        if button != "select":
            return Ask()
        if question is not None:
            self.declined.add(question)
            return Ask()
        if self.location is not None:
            return Refuse(tr("table.finish_location"), self.status_role)
        waiting = pending(self.state)
        if waiting.kind == "reveal":
            return Refuse(tr("table.reveal_first", n=waiting.stake + 1), self.status_role)
        if waiting.kind == "militia":
            assert waiting.player is not None
            name = screens.player_name(self.state, waiting.player)
            return Refuse(tr("table.militia_first", name=name), self.status_role)
        self.discarding = not self.discarding
        return Ask()

    # -- after an action ------------------------------------------------------------------
    def accepted(self, events: tuple[Any, ...]) -> None:
        """Show what the action resolved (struggles, a bribe) until the next one."""
        self.location = None
        self.discarding = False
        self.results, self.summary = {}, None
        if not any(self.state.stashable):
            self.declined = set()
        names = [screens.player_name(self.state, p) for p in range(self.state.players)]
        evaluated = [e for e in events if isinstance(e, StakeEvaluated)]
        for event in evaluated:
            self.results[event.stake] = screens.struggle(self.state, event)
        for event in events:
            if isinstance(event, Bribed):
                self.results[event.stake] = screens.bribe(self.state, event)
        if evaluated:
            self.summary = screens.round_summary(names, evaluated)
        if any(isinstance(e, GameEnded) for e in events):
            self.page = 0

    # -- screens --------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        """What the screens show beyond the engine state, as one value."""
        return Prompt(
            question=self.stash_question(),
            step=self.location.step() if self.location is not None else None,
            discarding=self.discarding,
            results=tuple(self.results.items()),
            summary=self.summary,
            page=self.page,
        )

    def screens(self) -> dict[str, Screen]:
        """The status screen and one screen per pad, from the state and the prompt."""
        models = table_screens(self.state, self.prompt(), len(self.pads))
        return dict(zip((self.status_role, *self.pads), models, strict=True))
