"""`arcana-table wiring --profile P [--svg OUT] [--text]`: the wiring diagram of a profile.

`--svg OUT` writes the diagram (`-` for stdout); `--text` prints one line per wire and the
header pins in use. Without either, the text is printed. Exit 0 when done, 1 when OUT
cannot be written, 2 when the profile is wrong (each problem with its line number).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        default="full-table",
        help="a shipped profile (full-table, minimal) or a profile TOML file (default full-table)",
    )
    parser.add_argument(
        "--svg", metavar="OUT", help="write the diagram as SVG to OUT ('-' for stdout)"
    )
    parser.add_argument("--text", action="store_true", help="print the connections as a text table")


def run(args: argparse.Namespace) -> int:
    from hardware.profile import ProfileError, load_profile
    from hardware.wiring import connection_table, wiring_svg

    try:
        profile = load_profile(args.profile)
    except ProfileError as err:
        print(err, file=sys.stderr)
        return 2
    if args.svg:
        svg = wiring_svg(profile)
        if args.svg == "-":
            sys.stdout.write(svg)
        else:
            try:
                _write(Path(args.svg), svg)
            except OSError as err:
                print(f"arcana-table wiring: cannot write {args.svg}: {err}", file=sys.stderr)
                return 1
            print(f"wrote {args.svg} (profile {profile.name})", file=sys.stderr)
    if args.text or not args.svg:
        sys.stdout.write(connection_table(profile))
    return 0


def _write(path: Path, text: str) -> None:
    """Write through a temporary file, so a failed write leaves the old diagram whole."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
