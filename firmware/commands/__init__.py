"""One module per `arcana-table` subcommand.

Each module defines `configure(parser)` (its arguments) and `run(args) -> int` (its exit
status). `firmware.cli` lists the subcommands with their one-line help; a subcommand whose
module does not exist yet says so and exits 2.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any


def optional_module(name: str) -> ModuleType | None:
    """The module `name`, or None when it does not exist yet (a not-yet-written command).

    An import error *inside* an existing module is not hidden: it is raised.
    """
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        return None


def table_buses(profile: Any, command: str, *, emulated: bool = False) -> str | None:
    """The buses `--emulated`, then $ARCANA_TABLE_BUSES, then the profile choose ("real" or
    "emulated"); None after printing what is wrong with the variable (exit 2 follows)."""
    from firmware.commands.refusal import refuse
    from hardware.buses import buses_kind

    try:
        return "emulated" if emulated else buses_kind(None, profile.buses)
    except ValueError as err:  # a mistyped $ARCANA_TABLE_BUSES
        refuse(f"arcana-table {command}: {err}")
        return None


def open_table(profile: Any, command: str, buses: str) -> Any:
    """The table of `profile` on `buses`, or None after printing why it cannot be opened (one
    sentence on stderr, no traceback; exit 1 follows)."""
    try:
        from hardware.buses import BusUnavailable
        from hardware.table import build_table

        return build_table(profile, buses)
    except BusUnavailable as err:
        print(f"arcana-table {command}: cannot open the table's hardware: {err}", file=sys.stderr)
    except OSError as err:  # a device node there but not ours: permissions, busy
        print(
            f"arcana-table {command}: cannot open the table's hardware: "
            f"{type(err).__name__}: {err}",
            file=sys.stderr,
        )
    except Exception as err:  # off a Pi, Blinka and lgpio refuse to load
        print(
            f"arcana-table {command}: cannot open the table's hardware: "
            f"{type(err).__name__}: {err} (on a machine without the table, add --emulated)",
            file=sys.stderr,
        )
    return None
