"""A profile's `[web]` section: the owner's web app served by the table (docs/web.md).

    [web]
    enabled = true        # serve the web app from `arcana-table run` (default false)
    port = 8080           # TCP port (default 8080)
    spectators = false    # may a paired spectator see the public table (default false)
    address = "192.168.1.20"   # the address in the pairing QR codes (default: found out)

One module of the profile package: `values.py` lists the section's keys, `checker.py`
calls `check_web`, `specs.py`'s `Profile` holds the `WebSpec`.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any

WEB_KEYS = {"enabled", "port", "spectators", "address"}
DEFAULT_PORT = 8080


@dataclass(frozen=True)
class WebSpec:
    """Whether and where the table serves its web app; off unless the profile says so."""

    enabled: bool = False
    port: int = DEFAULT_PORT
    spectators: bool = False
    address: str = ""  # "" = found out when the table starts (firmware/web/serve.py)


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
        address=_address(checker, index, entry),
    )


def _address(checker: Any, index: int, entry: dict[str, Any]) -> str:
    """An IP address (the web app answers only to its own addresses, never to a name)."""
    text = checker.value("web", index, entry, "address", str, "")
    if not text:
        return ""
    try:
        address = ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        checker.problem(
            checker.lines.of("web", index, "address"),
            f"address {text!r} is not an IP address such as 192.168.1.20 (the web app "
            "answers only to its own addresses, not to a name)",
        )
        return ""
    if address.is_unspecified or address.is_multicast:
        checker.problem(
            checker.lines.of("web", index, "address"),
            f"address {text!r} is not one a phone can open (give the table's own address)",
        )
        return ""
    return str(address)
