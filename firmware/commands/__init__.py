"""One module per `arcana-table` subcommand.

Each module defines `configure(parser)` (its arguments) and `run(args) -> int` (its exit
status). `firmware.cli` lists the subcommands with their one-line help; a subcommand whose
module does not exist yet says so and exits 2.
"""

import importlib
from types import ModuleType


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
