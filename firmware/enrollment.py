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

from firmware.enrollment_csv import CSV_FIELDS, CsvProblem, read_rows
from firmware.errors import FirmwareError, Said
from firmware.journal import Journal

MAX_PROBLEMS = 20  # listed; the rest are counted


class EnrollError(FirmwareError, ValueError):
    """A binding that cannot be made; the message says why and what to do. Its sentences
    are `Said` (the web pages say them again in their language); `problems` are the lines
    of an import's message, one per problem."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = [message] if problems is None else problems


class NeedsConfirmation(EnrollError):
    """The tag is already bound to another card: re-binding must be confirmed."""

    def __init__(self, uid: str, current: str, wanted: str) -> None:
        super().__init__(
            Said(
                f"tag {uid} is bound to {current}; re-bind it to {wanted}?",
                "enroll_rebind",
                {"uid": uid, "current": current, "wanted": wanted},
            )
        )
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
            values = {"card": card, "catalog": self.catalog}
            if close:
                shown = ", ".join(close)
                raise EnrollError(
                    Said(
                        f"{card} is not a card of {self.catalog}; did you mean {shown}?",
                        "enroll_not_a_card_close",
                        {**values, "close": shown},
                    )
                )
            raise EnrollError(
                Said(f"{card} is not a card of {self.catalog}", "enroll_not_a_card", values)
            )

    def bind(self, uid: str, card: str, *, rebind: bool = False) -> Bound:
        """Bind a tag to a card; NeedsConfirmation if the tag is bound to another card."""
        uid = normalise_uid(uid)
        self.check_card(card)
        current = self.journal.bindings().get(uid)
        if current is not None and current != card and not rebind:
            raise NeedsConfirmation(uid, current, card)
        others = [u for u, c in self.bindings().items() if c == card and u != uid]
        warnings = tuple(_also_bound(card, other) for other in others)
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

    def import_csv(
        self, data: bytes | str, *, rebind: bool = False, source: str | None = None
    ) -> list[str]:
        """Import `uid,card` rows in one transaction: all or nothing. Returns warnings.

        EnrollError lists every problem as "SOURCE line N: ..." (just "line N: ..." without
        a source): a malformed line, an unknown card, a tag bound elsewhere (without
        `rebind`), the same tag twice in the file (naming both lines).
        """
        where = f"{source} " if source else ""
        try:
            rows = read_rows(data)
        except CsvProblem as err:
            raise EnrollError(_at_line(where, err.line, err.reason)) from None
        bound = self.journal.bindings()
        problems: list[str] = []
        seen: dict[str, int] = {}
        pending: dict[str, str] = {}
        for number, row in rows:
            try:
                uid, card = self._import_row(row, bound, rebind)
                if uid in seen:
                    raise EnrollError(
                        Said(
                            f"tag {uid} is also on line {seen[uid]}",
                            "enroll_tag_twice",
                            {"uid": uid, "other": seen[uid]},
                        )
                    )
            except EnrollError as err:
                problems.append(_at_line(where, number, err.args[0]))
                continue
            seen[uid] = number
            pending[uid] = card
        if problems:
            shown = problems[:MAX_PROBLEMS]
            if len(problems) > MAX_PROBLEMS:
                more = len(problems) - MAX_PROBLEMS
                values = {"where": where, "n": more}
                shown.append(Said(f"{where}and {more} more problems", "enroll_more", values))
            raise EnrollError("\n".join(shown), shown)
        self.journal.bind_all(pending, self.catalog)
        return self._twice_bound(pending)

    def _import_row(self, row: list[str], bound: dict[str, str], rebind: bool) -> tuple[str, str]:
        if len(row) != 2:
            found = len(row)
            message = f"expected 2 fields (uid,card), found {found}"
            raise EnrollError(Said(message, "enroll_fields", {"found": found}))
        uid, card = normalise_uid(row[0]), row[1].strip()
        if not card:
            raise EnrollError(Said(f"tag {uid} has no card id", "enroll_no_card_id", {"uid": uid}))
        if not card.isprintable():
            raise EnrollError(
                Said(f"{card!r} is not a card id", "enroll_not_card_id", {"card": repr(card)})
            )
        self.check_card(card)
        current = bound.get(uid)
        if current is not None and current != card and not rebind:
            values = {"uid": uid, "current": current}
            message = f"tag {uid} is bound to {current} (use --yes)"
            raise EnrollError(Said(message, "enroll_bound_elsewhere", values))
        return uid, card

    def _twice_bound(self, imported: Mapping[str, str]) -> list[str]:
        tags: dict[str, list[str]] = {}
        for uid, card in self.bindings().items():
            tags.setdefault(card, []).append(uid)
        return [
            _also_bound(card, other)
            for uid, card in imported.items()
            for other in tags.get(card, [])
            if other != uid
        ]


def _also_bound(card: str, other: str) -> Said:
    return Said(
        f"{card} is also bound to tag {other}", "enroll_also_bound", {"card": card, "other": other}
    )


def _at_line(where: str, line: int, problem: str) -> Said:
    """ "FILE line N: problem" (where: "FILE " or ""), the problem said as it was."""
    values = {"where": where, "line": line, "problem": problem}
    return Said(f"{where}line {line}: {problem}", "enroll_line", values)


def normalise_uid(uid: str) -> str:
    """A UID as lower-case hex without separators: "04:A1:B2" -> "04a1b2"."""
    text = uid.strip().lower().replace(":", "").replace("-", "").replace(" ", "")
    shown = repr(uid)
    if not text or len(text) % 2 or any(c not in "0123456789abcdef" for c in text):
        message = f"{shown} is not a tag UID (hex bytes, e.g. 04a1b2c3d4e5f6)"
        raise EnrollError(Said(message, "enroll_not_uid", {"uid": shown}))
    if len(text) not in (8, 14, 20):
        message = f"{shown} is not a tag UID: expected 4, 7 or 10 bytes"
        raise EnrollError(Said(message, "enroll_uid_length", {"uid": shown}))
    return text
