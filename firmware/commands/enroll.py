"""`arcana-table enroll`: bind NFC tags to the cards of a catalog.

    arcana-table enroll --game arcana --catalog sample --pad stake-0 blades_agent_1 ...
    arcana-table enroll --game res-arcana --pad stake-0 --write        # ask each card id
    arcana-table enroll --game arcana --export tags.csv   (or --import tags.csv, --list)

Tap mode waits for a tag on the pad, binds its UID to the card and, with `--write`, writes
the card id onto the tag (NDEF text record) so the card carries its identity. A tag bound to
another card is re-bound only when confirmed (or with `--yes`); a card bound twice is
reported.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from firmware import state_dir
from firmware.commands.refusal import refuse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", nargs="*", help="card ids to enroll in order (tap mode)")
    parser.add_argument("--game", choices=("arcana", "res-arcana"), required=True)
    parser.add_argument("--catalog", default="sample", help="Arcana catalog: TOML file or name")
    parser.add_argument("--profile", default="full-table", help="table profile (tap mode)")
    parser.add_argument("--pad", default=None, help="reader role to tap on (default: the first)")
    parser.add_argument("--emulated", action="store_true", help="use the profile's emulators")
    parser.add_argument("--write", action="store_true", help="also write the card id onto the tag")
    parser.add_argument("--yes", action="store_true", help="re-bind known tags without asking")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for a tap")
    parser.add_argument("--list", action="store_true", help="list the bindings")
    parser.add_argument("--import", dest="import_csv", type=Path, help="import bindings (CSV)")
    parser.add_argument("--export", dest="export_csv", type=Path, help="export bindings (CSV)")
    state_dir.add_argument(parser)


def run(args: argparse.Namespace) -> int:
    from firmware.enrollment import EnrollError
    from firmware.journal import JournalError

    try:
        cards, catalog = catalog_cards(args.game, args.catalog)
    except Exception as err:  # a broken catalog: its own precise message
        return refuse(f"arcana-table enroll: {err}")
    reading = (args.list or args.export_csv) and not args.import_csv  # never writes
    journal = state_dir.open_journal(args.state_dir, "enroll", read_only=bool(reading))
    if journal is None:
        return 2
    from firmware.enrollment import Enrollment

    enrollment = Enrollment(journal, catalog, cards)
    try:
        if args.list:
            for uid, card in sorted(enrollment.bindings().items(), key=lambda kv: kv[1]):
                print(f"{uid}  {card}  ({cards[card]})" if card in cards else f"{uid}  {card}")
            return 0
        if args.export_csv:
            args.export_csv.write_text(enrollment.export_csv(), encoding="utf-8")
            print(f"exported {len(enrollment.bindings())} bindings to {args.export_csv}")
            return 0
        if args.import_csv:
            data = args.import_csv.read_bytes()
            warnings = enrollment.import_csv(data, rebind=args.yes, source=str(args.import_csv))
            for warning in warnings:
                print(f"warning: {warning}")
            print(f"imported; {len(enrollment.bindings())} bindings now")
            return 0
        return tap_mode(args, enrollment)
    except (EnrollError, OSError) as err:  # one line per problem, each FILE line N: ...
        for line in str(err).splitlines():
            refuse(f"arcana-table enroll: {line}")
        return 2
    except JournalError as err:  # a full disk: the import was one transaction, none of it kept
        refuse(f"arcana-table enroll: {err}")
        return 1
    finally:
        journal.close()


def catalog_cards(game: str, catalog: str) -> tuple[dict[str, str], str]:
    """(card id -> name, catalog name) for a game."""
    if game == "res-arcana":
        from engine.resarcana import CARDS, name

        return {card: name(card) for card in CARDS}, "res-arcana"
    from engine.arcana import load_catalog

    loaded = load_catalog(catalog)
    return {card: loaded.card_name(card) for card in loaded.cards}, loaded.name


def tap_mode(args: argparse.Namespace, enrollment: Any) -> int:
    from firmware.commands import open_table, table_buses
    from hardware.profile import ProfileError, load_profile

    try:
        profile = load_profile(args.profile)
    except ProfileError as err:
        print(err, file=sys.stderr)
        return 2
    if not profile.readers:
        return refuse(f"arcana-table enroll: {profile.source} has no [[readers]] to tap tags on")
    buses = table_buses(profile, "enroll", emulated=args.emulated)
    table = open_table(profile, "enroll", buses) if buses else None
    if table is None:
        return 1 if buses else 2
    with table:
        pad = args.pad or next(iter(table.readers))
        if pad not in table.readers:
            print(f"arcana-table enroll: no pad {pad}; this table has {', '.join(table.readers)}")
            return 2
        wanted = iter(args.cards) if args.cards else _ask_cards(sys.stdin, sys.stdout)
        session = TapSession(table.readers[pad], profile.absence_s, args.timeout)
        return session.enroll(enrollment, wanted, args.write, args.yes, sys.stdin, sys.stdout)


def _ask_cards(stdin: TextIO, out: TextIO) -> Iterator[str]:
    while True:
        out.write("card id (empty to stop): ")
        out.flush()
        line = stdin.readline()
        if not line.strip():
            return
        yield line.strip()


class TapSession:
    """Tap mode on one reader: wait for a tag, bind it, write it, wait until it is lifted."""

    def __init__(
        self,
        reader: Any,
        absence_s: float,
        timeout_s: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        from hardware.nfc.scanner import Scanner

        self.reader = reader
        self.scanner = Scanner([reader], absence_s=absence_s, clock=clock, read_card_ids=False)
        self.timeout_s = timeout_s
        self.clock = clock
        self.sleep = sleep
        self.early: list[Any] = []  # tags placed while the previous one was being lifted

    def wait_for(self, kind: str) -> Any | None:
        """The next `placed` or `removed` event; a tag placed early is kept for the next card."""
        if kind == "placed" and self.early:
            return self.early.pop(0)
        deadline = self.clock() + self.timeout_s
        while self.clock() < deadline:
            for event in self.scanner.cycle():
                if event.kind == kind:
                    return event
                if event.kind == "placed":
                    self.early.append(event)
                elif event.kind == "conflict":
                    print("two tags on the pad: one at a time, please")
            self.sleep(0.02)
        return None

    def enroll(
        self, enrollment: Any, cards: Any, write: bool, yes: bool, stdin: TextIO, out: TextIO
    ) -> int:
        from firmware.enrollment import EnrollError, NeedsConfirmation
        from hardware.nfc.reader import TagError

        failures = 0
        for card in cards:
            try:
                enrollment.check_card(card)
            except EnrollError as err:
                print(err, file=out)
                failures += 1
                continue
            print(f"tap the tag for {card} ({enrollment.cards[card]}) ...", file=out, flush=True)
            placed = self.wait_for("placed")
            if placed is None:
                print(f"no tag within {self.timeout_s:g} s; {card} not enrolled", file=out)
                return 1
            try:
                bound = enrollment.bind(placed.uid, card, rebind=yes)
            except NeedsConfirmation as ask:
                out.write(f"{ask} [y/N] ")
                out.flush()
                if stdin.readline().strip().lower() not in ("y", "yes"):
                    print(f"kept {ask.current}", file=out)
                    self.wait_for("removed")
                    continue
                bound = enrollment.bind(placed.uid, card, rebind=True)
            for warning in bound.warnings:
                print(f"warning: {warning}", file=out)
            note = ""
            if write:
                try:
                    self.reader.poll()  # select the tag again: the scanner switched the field off
                    self.reader.write_card_id(placed.uid, card)
                    note = ", id written on the tag"
                except TagError as err:
                    note = f", but the id could not be written: {err}"
                    failures += 1
            print(f"{placed.uid} -> {card}{note}; lift the tag", file=out, flush=True)
            self.wait_for("removed")
        return 1 if failures else 0
