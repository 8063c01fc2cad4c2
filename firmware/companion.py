"""The companion: the one thread that owns the game.

Taps, presses and device news arrive as events (`firmware.events`); for each, the
companion asks the controller what it means, applies an action through the engine,
appends it to the journal *before* acknowledging, and redraws the screens (what they show
is `firmware.drawing`'s: the companion hands it screen models, `Notice`s and the `Device`s in
trouble).

    companion = Companion(table_displays, journal, games, buzzer=buzzer)
    companion.start()            # resume an unfinished game, or begin the setup
    companion.handle(Tap("stake-2", "04a1b2c3d4e5f6"))
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from PIL import Image

from engine.protocol import Rejection, Rules
from engine.records import RecordError, load
from firmware.controllers.base import (
    Ask,
    Begin,
    Bind,
    Controller,
    PairPhone,
    Play,
    Refuse,
    Reply,
)
from firmware.drawing import SINGLE, Display, Drawing, Notice, NoticeKind, SinglePad
from firmware.errors import FirmwareError
from firmware.events import Crowded, Device, Event, Fault, Press, Recovered, Tap, Tick, Trouble
from firmware.journal import Journal, JournalError
from firmware.language import refusal, using
from firmware.language import text as tr
from firmware.registry import Registry

log = logging.getLogger(__name__)

NOTICE_SECONDS = 3.0


class NoRedo(FirmwareError):
    """The undone line no longer replays on the game as it stands: it stays undone."""


class Buzzer(Protocol):
    def play(self, pattern: str) -> None: ...


class Games(Protocol):
    """What the companion needs to know about the games it can run (firmware.games.GameShelf)."""

    pads: tuple[str, ...]  # the full table's reader roles, in table order

    def setup_controller(self) -> Controller:
        """The controller of the setup screens (choose a game, seat the players...)."""
        ...

    def game_controller(
        self, game: str, setup: dict[str, Any]
    ) -> tuple[Rules[Any, Any], Controller]:
        """The rules and the controller of a game that starts (or resumes) with this setup."""
        ...

    def registry(self, game: str | None, setup: dict[str, Any] | None) -> Registry:
        """The card registry for the cards of this game (or of all games during setup)."""
        ...

    def describe(self, line: dict[str, Any], before: Any = None) -> str:
        """A few words for an action line, for the undo notice; `before` is the position the
        line was played in (a card it laid face down there must not be named)."""
        ...


class Companion:
    """Event handling for one table; not thread-safe by design: one thread calls `handle`."""

    def __init__(
        self,
        screens: Mapping[str, Display],
        journal: Journal,
        games: Games,
        buzzer: Buzzer | None = None,
        clock: Callable[[], float] = time.monotonic,
        status_role: str = "status",
    ) -> None:
        self.screens = dict(screens)
        self.journal = journal
        self.games = games
        self.buzzer = buzzer
        self.clock = clock
        self.status_role = status_role
        self.game_id: int | None = None
        self.language: str | None = None  # the open game's (its setup's), else the chooser's
        self.rules: Rules[Any, Any] | None = None
        self.controller: Controller = games.setup_controller()
        self.registry = games.registry(None, None)
        self.notices: dict[str, Notice] = {}
        self.troubles: dict[Device, Fault] = {}  # device -> what is wrong ("not_answering")
        self.finished = False
        self.set_asides: list[str] = []  # sentences: what start() kept out of play, and why
        self.journal_trouble: str | None = None  # the last write the journal refused
        # Set by the web app (firmware/web/serve.py): opens the owner's pairing code when
        # Select is held on the game choice; None while the table serves no web app.
        self.pair_phone: Callable[[], None] | None = None
        if set(self.screens) == {SINGLE}:  # a minimal table: one pad, one screen for all roles
            self.roles: tuple[str, ...] = (status_role, *games.pads)
            self.single_pad: SinglePad | None = SinglePad(self.roles)
        else:
            self.roles = tuple(self.screens)
            self.single_pad = None
        self.drawing = Drawing(self.screens, self.roles, self.single_pad)

    # -- life cycle ---------------------------------------------------------------------
    def start(self) -> None:
        """Resume the journal's unfinished game exactly where it was, or show the setup.

        A game whose rows cannot be read is set aside alone (with its reason) and the table
        starts anyway; `set_asides` keeps every such sentence for the log and systemd.
        """
        if self.journal.notice:
            self.set_asides.append(self.journal.notice)
        while (game_id := self.journal.unfinished()) is not None:
            try:
                self._open_game(game_id)
                break
            except Exception as err:  # whatever the rows hold, the table must start
                reason = str(err) if isinstance(err, JournalError) else _unreadable(game_id, err)
                self.set_asides.append(f"{reason}; set aside.")  # the caller logs or prints
                if not self._set_aside(game_id, reason):
                    break
        if self.finished:
            self._mark_finished()  # an end whose finish was not kept before the restart
        if self.set_asides:
            self._notify(self.status_role, "refusal", self.set_asides[-1])
        self.redraw()

    def _set_aside(self, game_id: int, reason: str) -> bool:
        try:
            self.journal.set_aside_game(game_id, reason)
        except JournalError as err:
            log.error("%s", err)
            self.set_asides.append(str(err))
            return False
        return True

    def _mark_finished(self) -> None:
        assert self.rules is not None and self.game_id is not None
        try:
            self.journal.finish(self.game_id, self.rules.result(self.controller.state))
        except JournalError as err:
            log.error("%s", err)
            self.journal_trouble = str(err)

    def _open_game(self, game_id: int) -> None:
        game, setup = self.journal.setup(game_id)
        try:
            rules, controller = self.games.game_controller(game, setup)
        except KeyError:
            raise JournalError(
                f"game {game_id} cannot be read: this table does not play {game!r}"
            ) from None
        try:
            _, state, _ = load(self.journal.record(game_id))
        except RecordError as err:  # a journal written by an older engine?
            raise JournalError(f"game {game_id} no longer replays: {err}") from err
        controller.state = state
        controller.reset_prompt()
        self.game_id, self.rules, self.controller = game_id, rules, controller
        self.language = str(setup.get("language") or "") or None
        self.registry = self.games.registry(game, setup)
        self.finished = controller.is_over()

    # -- events -------------------------------------------------------------------------
    def handle(self, event: Event) -> None:
        """Handle one event completely: decide, apply, journal, acknowledge, redraw; every
        sentence is made in the language of the game shown (see `firmware.language`)."""
        with using(self.current_language()):
            self._handle(event)

    def current_language(self) -> str | None:
        """The open game's language, else the chooser's, else the table's first one."""
        chosen = self.language or getattr(self.controller, "language", None)
        return chosen or getattr(self.games, "language", None)

    def _handle(self, event: Event) -> None:
        match event:
            case Tap(pad, uid, written_id):
                if self.single_pad is not None and pad == SINGLE:
                    pad = self.single_pad.focus  # the pad stands for the role on its screen
                self._tap(pad, uid, written_id)
            case Press("select", True) if self.single_pad is not None:
                self.single_pad.next()
            case Press("ok", True) if self.finished:
                self.new_game()  # hold OK on the ranking: the next game's setup
            case Press("undo", held):
                self._undo(redo=held)
            case Press(button, held):
                self._reply(self.controller.press(button, held), pad=None)
            case Crowded(pad):
                self._refuse(tr("notice.one_card"), pad)
            case Trouble(device, fault):
                self._trouble(device, fault)
            case Recovered(device):
                self.troubles.pop(device, None)
            case Tick():
                self._expire()
        self.redraw()

    def _tap(self, pad: str, uid: str, written_id: str | None) -> None:
        reply = self.controller.raw_tap(pad, uid, written_id)  # enrollment wants the tag itself
        if reply is not None:
            self._reply(reply, pad)
            return
        card = self.registry.card_for(uid, written_id)
        if card is None:
            self._notify(pad if pad in self.screens else self.status_role, "unknown_card")
            self._beep("unknown")
            return
        self._reply(self.controller.tap(pad, card), pad)

    def _reply(self, reply: Reply, pad: str | None) -> None:
        match reply:
            case Play(action):
                self._play(action, pad)
            case Refuse(message, where):
                self._refuse(message, where or pad)
            case Begin(game, setup):
                self._begin(game, setup)
            case Bind(uid, card, catalog):
                self._bind(uid, card, catalog)
            case PairPhone():
                self._pair_phone()
            case Ask():
                pass

    def _play(self, action: Any, pad: str | None) -> None:
        assert self.rules is not None and self.game_id is not None
        outcome = self.rules.apply(self.controller.state, action)
        if isinstance(outcome, Rejection):
            self.controller.reset_prompt()
            self._refuse(refusal(outcome.code, outcome.message), pad)
            return
        ends = self.rules.is_terminal(outcome.state)
        result = self.rules.result(outcome.state) if ends else None  # the last move only
        if not self._journalled(
            lambda: self.journal.append(self.game_id, self.rules.encode_action(action), result)
        ):
            self.controller.reset_prompt()
            return
        self.controller.state = outcome.state
        self.controller.accepted(outcome.events)
        self.finished = self.finished or ends
        self._beep("ok")

    def _journalled(self, write: Callable[[], Any]) -> bool:
        """Run one journal write; on JournalError say why on the status screen (not saved,
        not acknowledged) and return False."""
        try:
            write()
        except JournalError as err:
            log.error("%s", err)
            self.journal_trouble = str(err)
            self._refuse(str(err), self.status_role)
            return False
        self.journal_trouble = None
        return True

    def _begin(self, game: str, setup: dict[str, Any]) -> None:
        started: list[int] = []
        if not self._journalled(lambda: started.append(self.journal.start(game, setup))):
            return
        self._open_game(started[0])
        self._beep("ok")

    def _bind(self, uid: str, card: str, catalog: str) -> None:
        if not self._journalled(lambda: self.journal.bind(uid, card, catalog)):
            return
        self.registry.bind(uid, card)
        self.controller.accepted(())
        self._beep("ok")

    def _pair_phone(self) -> None:
        if self.pair_phone is None:
            self._refuse(tr("notice.pairing_off"), self.status_role)
            return
        try:
            self.pair_phone()
        except Exception as err:  # a damaged pairing file: say it, the table goes on
            log.error("pairing: %s", err)
            self._refuse(str(err), self.status_role)

    def new_game(self) -> None:
        """Leave a finished game's ranking and go back to the setup screens."""
        self.game_id, self.rules, self.finished, self.language = None, None, False, None
        self.controller = self.games.setup_controller()
        self.registry = self.games.registry(None, None)

    def _undo(self, redo: bool) -> None:
        if self.game_id is None:
            self.controller.reset_prompt()
            return
        if not redo and self.controller.prompting():
            self.controller.reset_prompt()  # Undo first cancels a half-entered choice
            return
        previous = self.controller.state
        taken: list[dict[str, Any] | None] = []
        game_id = self.game_id
        write = self._redo if redo else lambda: self.journal.undo(game_id)
        try:
            if not self._journalled(lambda: taken.append(write())):
                return
        except NoRedo:  # the journal holds a line that no longer replays: left undone
            self._refuse(tr("notice.cannot_redo"), self.status_role)
            return
        line = taken[-1]
        if line is None:
            self._refuse(tr(f"notice.nothing_to_{'redo' if redo else 'undo'}"), self.status_role)
            return
        self._open_game(self.game_id)  # undo unfinished a finished game in the same write
        before = previous if redo else self.controller.state  # where the line was played
        said = self.games.describe(line, before)
        self._notify(self.status_role, "redone" if redo else "undone", said)

    def _redo(self) -> dict[str, Any] | None:
        """Put back the undone line; if it ends the game, finish it in the same write. A line
        that no longer replays here (the journal edited by hand) is not put back (NoRedo):
        the journal and the screens would part."""
        assert self.rules is not None and self.game_id is not None
        line = self.journal.next_redo(self.game_id)
        if line is None:
            return None
        try:
            outcome = self.rules.apply(self.controller.state, self.rules.decode_action(line))
        except RecordError as err:
            log.warning("redo refused: the undone line does not decode: %s", err)
            raise NoRedo from None
        if isinstance(outcome, Rejection):
            log.warning("redo refused: the undone line is refused: %s", outcome.message)
            raise NoRedo
        result = self.rules.result(outcome.state) if self.rules.is_terminal(outcome.state) else None
        return self.journal.redo(self.game_id, result)

    # -- feedback -------------------------------------------------------------------------
    def _refuse(self, message: str, pad: str | None) -> None:
        self._notify(pad if pad in self.screens else self.status_role, "refusal", message)
        self._beep("refused")

    def _notify(self, role: str, kind: NoticeKind, detail: str = "") -> None:
        self.notices[role] = Notice(kind, detail, self.clock() + NOTICE_SECONDS)

    def _expire(self) -> None:
        now = self.clock()
        for role in [r for r, n in self.notices.items() if n.until <= now]:
            del self.notices[role]

    def _beep(self, pattern: str) -> None:
        if self.buzzer is not None:
            try:
                self.buzzer.play(pattern)
            except Exception:  # a broken buzzer must never stop the game
                log.exception("buzzer failed")

    def frames(self) -> dict[str, Image.Image]:
        """The image of every screen role: the controller's, a notice over it, or trouble."""
        with using(self.current_language(), getattr(self.games, "digits", None)):
            return self.drawing.frames(self.controller.screens(), self.notices, self.troubles)

    def redraw(self) -> None:
        """Render every screen and send it; a failing display never stops the loop."""
        known = set(self.troubles)
        for role, ok in self.drawing.send(self.frames(), self.notices).items():
            display = Device("display", role)
            if not ok and display not in self.troubles:
                self._trouble(display, "not_answering")
            elif ok:
                self.troubles.pop(display, None)
        if not set(self.troubles) <= known:  # a display just failed: say so at once
            self.redraw()

    def _trouble(self, device: Device, fault: Fault) -> None:
        """Remember a device in trouble; say so on the status screen if it has no screen (in
        the game's language: a display may fail in a redraw outside `handle`)."""
        self.troubles[device] = fault
        if device.kind == "display" or device.role not in self.screens:
            with using(self.current_language()):
                self._notify(self.status_role, "refusal", device.trouble(fault))


def _unreadable(game_id: int, err: Exception) -> str:
    """The reason a resumed game's rows could not be made into a game, as one sentence."""
    return f"game {game_id} cannot be read: {type(err).__name__}: {err}"
