"""The shipped full table with its Res Arcana seats moved out of pad order: stake-3 is seat
1, stake-1 seat 2, stake-4 seat 3, stake-0 seat 4, and stake-2 is no seat. A table that
seats, names or plays by pad order instead of by the profile fails on it.

    text = reseated_text()                # the profile's TOML
    profile = reseated_profile()          # checked: profile.seats == RESEATED
"""

from __future__ import annotations

import re

from hardware.profile import PROFILES, Profile, parse_profile

RESEATED = ("stake-3", "stake-1", "stake-4", "stake-0")  # seats 1..4


def reseated_text() -> str:
    text = re.sub(r"seat = \d\n", "", (PROFILES / "full-table.toml").read_text())
    for seat, role in enumerate(RESEATED, start=1):
        header = f'[[readers]]\nrole = "{role}"\n'
        if header not in text:
            raise AssertionError(f"the full-table profile has no reader {role}")
        text = text.replace(header, f"{header}seat = {seat}\n")
    return text


def reseated_profile() -> Profile:
    return parse_profile(reseated_text(), source="reseated.toml", name="reseated")
