"""One module per `arcana-table` subcommand.

Each module defines `configure(parser)` (its arguments) and `run(args) -> int` (its exit
status). `firmware.cli` lists the subcommands with their one-line help; a subcommand whose
module does not exist yet says so and exits 2.
"""
