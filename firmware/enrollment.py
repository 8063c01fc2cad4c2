"""Binding NFC tags to cards: checks, re-binding with confirmation, CSV import and export.

The bindings live in the journal's database (table `bindings`), so they survive power cuts
the same way games do. A card id written on the tag itself (NDEF) needs no binding at all;
binding by UID is for tags that cannot or should not be written.

    enrollment = Enrollment(journal, "sample", catalog_cards)
    outcome = enrollment.bind("04a1b2c3d4e5f6", "blades_agent_3")
    outcome.warnings   # ("blades_agent_3 is also bound to tag 04...",) when bound twice
"""

from __future__ import annotations

import csv
import difflib
import io
from collections.abc import Mapping
from dataclasses import dataclass

from firmware.journal import Journal

CSV_FIELDS = ("uid", "card")


class EnrollError(ValueError):
    """A binding that cannot be made; the message says why and what to do."""


class NeedsConfirmation(EnrollError):
    """The tag is already bound to another card: re-binding must be confirmed."""

    def __init__(self, uid: str, current: str, wanted: str) -> None:
        super().__init__(f"tag {uid} is bound to {current}; re-bind it to {wanted}?")
        self.uid, self.current, self.wanted = uid, current, wanted


@dataclass(frozen=True, slots=True)
class Bound:
    uid: str
    card: str
    previous: str | None
    warnings: tuple[str, ...]


class Enrollment:
    """The bindings of one catalog's cards (Arcana catalog name, or "res-arcana")."""

    def __init__(self, journal: Journal, catalog: str, cards: Mapping[str, str]) -> None:
        self.journal = journal
        self.catalog = catalog
        self.cards = dict(cards)  # id -> name, for messages and the screen

    def bindings(self) -> dict[str, str]:
        return self.journal.bindings(self.catalog)

    def check_card(self, card: str) -> None:
        if card not in self.cards:
            close = difflib.get_close_matches(card, self.cards, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise EnrollError(f"{card} is not a card of {self.catalog}{hint}")

    def bind(self, uid: str, card: str, *, rebind: bool = False) -> Bound:
        """Bind a tag to a card; NeedsConfirmation if the tag is bound to another card."""
        uid = normalise_uid(uid)
        self.check_card(card)
        current = self.journal.bindings().get(uid)
        if current is not None and current != card and not rebind:
            raise NeedsConfirmation(uid, current, card)
        others = [u for u, c in self.bindings().items() if c == card and u != uid]
        warnings = tuple(f"{card} is also bound to tag {other}" for other in others)
        self.journal.bind(uid, card, self.catalog)
        return Bound(uid, card, current if current != card else None, warnings)

    def unbound(self) -> list[str]:
        """The catalog's cards that no tag is bound to yet, in catalog order."""
        bound = set(self.bindings().values())
        return [card for card in self.cards if card not in bound]

    def export_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_FIELDS)
        writer.writerows(sorted(self.bindings().items()))
        return out.getvalue()

    def import_csv(self, text: str, *, rebind: bool = False) -> list[str]:
        """Import `uid,card` rows; all or nothing. Returns warnings; EnrollError lists problems."""
        rows = list(csv.reader(io.StringIO(text)))
        problems, pending = [], []
        for number, row in enumerate(rows, start=1):
            if not row or (number == 1 and [c.strip().lower() for c in row] == list(CSV_FIELDS)):
                continue
            if len(row) != 2:
                problems.append(f"line {number}: expected 2 fields (uid,card), found {len(row)}")
                continue
            uid, card = row[0].strip(), row[1].strip()
            try:
                uid = normalise_uid(uid)
                self.check_card(card)
            except EnrollError as err:
                problems.append(f"line {number}: {err}")
                continue
            current = self.journal.bindings().get(uid)
            if current is not None and current != card and not rebind:
                problems.append(f"line {number}: tag {uid} is bound to {current} (use --yes)")
            pending.append((uid, card))
        if problems:
            raise EnrollError("\n".join(problems))
        warnings = []
        for uid, card in pending:
            warnings.extend(self.bind(uid, card, rebind=True).warnings)
        return warnings


def normalise_uid(uid: str) -> str:
    """A UID as lower-case hex without separators: "04:A1:B2" -> "04a1b2"."""
    text = uid.strip().lower().replace(":", "").replace("-", "").replace(" ", "")
    if not text or len(text) % 2 or any(c not in "0123456789abcdef" for c in text):
        raise EnrollError(f"{uid!r} is not a tag UID (hex bytes, e.g. 04a1b2c3d4e5f6)")
    if len(text) not in (8, 14, 20):
        raise EnrollError(f"{uid!r} is not a tag UID: expected 4, 7 or 10 bytes")
    return text
