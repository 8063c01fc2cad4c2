"""`arcana-table replay RECORD`: print the replay result of a game record.

Exit 0 with one JSON object on stdout; exit 2 with `line N: <reason>` on stderr and nothing
on stdout when a line is malformed or illegal (`../spec/records.md`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a game record file (JSON Lines), or - for stdin")


def run(args: argparse.Namespace) -> int:
    from engine.records import RecordError, replay

    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            text = Path(args.record).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        print(f"cannot read {args.record}: {err}", file=sys.stderr)
        return 2
    try:
        result = replay(text.splitlines())
    except RecordError as err:
        print(str(err if err.line is not None else err.at(1)), file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0
