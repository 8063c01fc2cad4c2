"""The `arcana-table` command: one subcommand per job, each in `firmware.commands.<name>`.

Modules are imported only for the subcommand that runs, so `arcana-table replay` does not pay
for the display drivers and `--help` stays instant.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from firmware.commands import optional_module
from firmware.commands.refusal import printable

# name -> (module in firmware.commands, one line of help)
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("replay", "replay a game record (JSON Lines) and print the result as JSON"),
    "demo": ("demo", "play a complete game through the whole stack on emulated hardware"),
    "sim": ("sim", "run the table in a web browser on emulated hardware"),
    "run": ("run_table", "run the table on real hardware, as the systemd service does"),
    "enroll": ("enroll", "bind NFC tags to cards of a catalog (and write ids onto tags)"),
    "selftest": ("selftest", "check every reader, display and button of a table profile"),
    "export": ("export", "write a journalled game as a game record"),
    "history": ("history", "list the journalled games with winners and scores"),
    "bench": ("bench", "measure performance (engine, hardware, companion, appliance)"),
    "catalog": ("catalog", "check a card catalog (TOML) and report every problem"),
    "pair": ("pair", "pair the owner's phone with the table's web app (a one-time QR code)"),
    "wiring": ("wiring", "draw the wiring diagram of a table profile as SVG"),
}

EXIT_USAGE = 2


class CommandParser(argparse.ArgumentParser):
    """argparse, but a wrong argument is one line (`arcana-table sim: argument --port: ...`)
    and exit 2, like every other refusal; the usage is one `--help` away."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, printable(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="arcana-table",
        description="A Raspberry Pi table companion for Arcana and Res Arcana.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        module = _command_module(module_name)
        if module is not None:
            module.configure(sub)
    return parser


def _command_module(module_name: str) -> ModuleType | None:
    return optional_module(f"firmware.commands.{module_name}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    module = _command_module(COMMANDS[args.command][0])
    if module is None:
        print(f"arcana-table {args.command}: not implemented yet", file=sys.stderr)
        return EXIT_USAGE
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    return int(module.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
