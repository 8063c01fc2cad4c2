"""`arcana-table replay RECORD`: print the replay result of a game record.

Exit 0 with one JSON object on stdout; exit 2 with `line N: <reason>` on stderr and nothing
on stdout when a line is malformed or illegal (`../spec/records.md`, docs/records.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from firmware.commands.refusal import refuse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a game record file (JSON Lines), or - for stdin")


def run(args: argparse.Namespace) -> int:
    from engine.records import RecordError, replay

    try:
        data = sys.stdin.buffer.read() if args.record == "-" else Path(args.record).read_bytes()
    except OSError as err:
        return refuse(f"cannot read {args.record}: {err.strerror or err}")
    try:
        result = replay(data)
    except RecordError as err:
        return refuse(str(err if err.line is not None else err.at(1)))
    # UTF-8 whatever the locale says: the record was UTF-8, and so is the result
    text = json.dumps(result, ensure_ascii=False) + "\n"
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()
    return 0
