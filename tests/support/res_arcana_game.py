"""A Res Arcana game in progress for the seats' tests: three discards each, so the two seats'
stocks of essences differ.

    res_arcana_game(state_dir)     # journalled; a table started on state_dir resumes it
    STOCKS[seat]                   # that seat's essences then
"""

from __future__ import annotations

from pathlib import Path

from firmware.journal import Journal

SETUP = {"players": ["Cy", "Di"], "start_player": 0, "mages": ["fire_mage", "shadow_priest"]}
# Three discards each: Cy gains 2 calm and 2 gold, Di 1 gold, 2 calm and 2 death.
LINES = [
    {"player": 0, "action": "discard", "card": "bag_of_gold", "gain": {"calm": 2}},
    {"player": 1, "action": "discard", "card": "chalice_of_life", "gain": {"gold": 1}},
    {"player": 0, "action": "discard", "card": "healing_spring", "gain": {"gold": 1}},
    {"player": 1, "action": "discard", "card": "mirror_of_calm", "gain": {"calm": 2}},
    {"player": 0, "action": "discard", "card": "shadow_book", "gain": {"gold": 1}},
    {"player": 1, "action": "discard", "card": "secret_key", "gain": {"death": 2}},
]
STOCKS = [  # one of each essence to start, then the gains
    {"fire": 1, "life": 1, "calm": 3, "death": 1, "gold": 3},
    {"fire": 1, "life": 1, "calm": 3, "death": 3, "gold": 2},
]


def res_arcana_game(state_dir: Path) -> None:
    with Journal.open(state_dir) as journal:
        game = journal.start("res-arcana", SETUP)
        for line in LINES:
            journal.append(game, line)
