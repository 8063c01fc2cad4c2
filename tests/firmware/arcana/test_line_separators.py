"""A name holding U+2028 (LINE SEPARATOR) must not break the journal: records are JSON Lines,
split at "\\n" only (issue 11: a guild named so passed `catalog check`, then its game no
longer replayed at the next start)."""

from __future__ import annotations

from engine.arcana import load_catalog
from engine.records import load
from firmware.games import GameShelf
from firmware.tabletop import EmulatedTable

from .conftest import ArcanaController

ODD = "Bla\u2028des\u2029\x85"


def test_a_game_with_u2028_in_a_guild_name_survives_a_restart(tmp_path):
    catalog = load_catalog("sample").to_object()
    catalog["guilds"]["blades"]["name"] = ODD
    with EmulatedTable(tmp_path, GameShelf(catalog=catalog)) as top:
        table = ArcanaController(top)
        table.seat()
        line = table.tap("stake-0", "blades_agent_1")
        game_id, state = top.companion.game_id, table.state
        assert ODD in top.journal.record(game_id)
    with EmulatedTable(tmp_path, GameShelf(catalog=catalog)) as again:
        assert again.companion.game_id == game_id
        assert again.companion.controller.state == state
        assert ArcanaController(again).lines()[-1] == line
        _, replayed, _ = load(again.journal.record(game_id))
        assert replayed == state
