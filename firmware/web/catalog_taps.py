"""The catalog builder at the table: while the owner builds, a tap on any pad is for the
owner's phone (its form), not for a game. Everything here runs on the table loop's thread
(the web app asks through `LiveTable.ask`), so the companion keeps one owner.

    taps = CatalogTaps()
    taps.start(companion)          # refused while a game is open: only on the game choice
    companion.handle(Tap("stake-2", "04a1b2c3d4e5f6"))
    taps.last                      # CardTap(seq=1, pad="stake-2", uid="04a1b2c3d4e5f6", ...)
    taps.bind(journal, games, companion, "04a1b2c3d4e5f6", "blades_agent_4", "my-copy", ids)
    taps.stop(companion)           # back to the game choice

Building is a mode of the setup, as enrollment is: `BuildingController` stands in for the
game chooser, so the status screen says "tap a card" and counts the tags read (which also
changes the screen, so `LiveTable.refresh` tells the phones: they then ask for the tap).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from firmware.controllers.base import Ask, Controller, Reply
from firmware.enrollment import Bound, Enrollment
from firmware.language import text as tr
from firmware.screens import PromptScreen, Screen
from firmware.web.sentences import said
from firmware.web.table_view import BadInput
from hardware.nfc.reader import ReaderFault, TagAccessError, TagError


@dataclass(frozen=True, slots=True)
class CardTap:
    """A tag tapped while building: the n-th (`seq`), on which pad, as the reader read it."""

    seq: int
    pad: str
    uid: str
    written_id: str | None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "pad": self.pad, "uid": self.uid, "written_id": self.written_id}


class BuildingController(Controller):
    """The setup's mode while the owner builds the catalog: taps are recorded, nothing else."""

    def __init__(self, on_tap: Callable[[str, str, str | None], int], status_role: str) -> None:
        self.state = None
        self.on_tap = on_tap
        self.status_role = status_role
        self.read = 0

    def raw_tap(self, pad: str, uid: str, written_id: str | None) -> Reply:
        self.read = self.on_tap(pad, uid, written_id)
        return Ask()

    def tap(self, pad: str, card: str) -> Reply:  # taps arrive raw in this mode
        return Ask()

    def press(self, button: str, held: bool) -> Reply:
        return Ask()

    def accepted(self, events: tuple[Any, ...]) -> None:
        pass

    def reset_prompt(self) -> None:
        pass

    def is_over(self) -> bool:
        return False

    def screens(self) -> dict[str, Screen]:
        return {
            self.status_role: PromptScreen(
                tr("build.tap"), title=tr("build.title", read=self.read), short=tr("build.tap")
            )
        }


class CatalogTaps:
    """The building mode and the last tag tapped in it (loop thread only)."""

    def __init__(self) -> None:
        self.last: CardTap | None = None
        self.previous: str | None = None  # the card saved last: a new tag's form starts from it
        self._seq = 0

    def building(self, companion: Any) -> bool:
        return isinstance(companion.controller, BuildingController)

    def start(self, companion: Any) -> None:
        if self.building(companion):
            return
        if companion.game_id is not None:
            raise BadInput(said("game_open_building"), 409)
        companion.controller = BuildingController(self._tapped, companion.status_role)
        companion.redraw()

    def stop(self, companion: Any) -> None:
        if self.building(companion):
            companion.new_game()  # the game choice again, with the table's catalog now
            companion.redraw()

    def _tapped(self, pad: str, uid: str, written_id: str | None) -> int:
        self._seq += 1
        self.last = CardTap(self._seq, pad, uid, written_id)
        return self._seq

    def bind(
        self,
        journal: Any,
        games: Any,
        companion: Any,
        uid: str,
        card: str,
        catalog: str,
        ids: Collection[str],
        rebind: bool = False,
    ) -> Bound:
        """Bind the tag as enrollment does (the journal's bindings); the table knows it at once.
        NeedsConfirmation (an EnrollError) if the tag stands for another card and not `rebind`."""
        bound = Enrollment(journal, catalog, {i: i for i in ids}).bind(uid, card, rebind=rebind)
        games.bindings[bound.uid] = card
        companion.registry.bind(bound.uid, card)
        self.previous = card
        return bound

    def check_rebind(self, journal: Any, uid: str, card: str) -> str | None:
        """The card the tag is bound to now, if another one."""
        current = journal.bindings().get(uid)
        return current if current is not None and current != card else None


def write_card_id(scan_threads: list[Any], pad: str, uid: str, card: str) -> str | None:
    """Write the card id onto the tag (NDEF text record) on the scanning thread's bus, between
    two polls; None when written, else the reason in a sentence."""
    for thread in scan_threads:
        if any(reader.name == pad for reader in thread.scanner.readers):

            def write(reader: Any) -> None:
                reader.poll()  # select the tag again: the scanner may have switched the field
                reader.write_card_id(uid, card)

            try:
                thread.scanner.between_polls(pad, write)
            except TagAccessError:  # lifted, or laid askew: what to do, in the page's words
                return said("card_id_tag_gone", pad=pad)
            except (TagError, ReaderFault) as err:
                return said("card_id_not_written", error=str(err))  # the reader's own words
            return None
    return said("card_id_no_reader", pad=pad)
