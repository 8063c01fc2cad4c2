"""A profile's `[web]` section: the owner's web app served by the table (docs/web.md).

    [web]
    enabled = true        # serve the web app from `arcana-table run` (default false)
    port = 8080           # TCP port (default 8080)
    spectators = false    # may a paired spectator see the public table (default false)

One module of the profile package: `values.py` lists the section's keys, `checker.py`
calls `check_web`, `specs.py`'s `Profile` holds the `WebSpec`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WEB_KEYS = {"enabled", "port", "spectators"}
DEFAULT_PORT = 8080


@dataclass(frozen=True)
class WebSpec:
    """Whether and where the table serves its web app; off unless the profile says so."""

    enabled: bool = False
    port: int = DEFAULT_PORT
    spectators: bool = False


def check_web(checker: Any) -> WebSpec:
    """The `[web]` section through the profile checker's `entries` and `value` (which
    record a problem, with its line, for every bad value and return the default)."""
    found = checker.entries("web", many=False)
    if not found:
        return WebSpec()
    index, entry = found[0]
    return WebSpec(
        enabled=checker.value("web", index, entry, "enabled", bool, False),
        port=checker.value("web", index, entry, "port", int, DEFAULT_PORT, low=1, high=65535),
        spectators=checker.value("web", index, entry, "spectators", bool, False),
    )
