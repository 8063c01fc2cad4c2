"""`card_problems`: what `catalog check` says about one card, by field, for the owner's form."""

from __future__ import annotations

import copy

import pytest

from engine.arcana.catalog import CatalogError, card_problems, load_catalog, parse_catalog


def sample() -> dict:
    return copy.deepcopy(load_catalog("sample").to_object())


def problems_of(data: dict) -> list[str]:
    with pytest.raises(CatalogError) as caught:
        parse_catalog(data, None)
    return caught.value.problems


def test_each_cards_sentences_are_the_whole_checks_and_filed_under_their_field() -> None:
    data = sample()
    cards = data["cards"]
    cards[1]["arcana"]["military"] = "three"  # a blades agent
    cards[2]["vp"] = -1
    cards[3]["guild"] = "blads"
    cards[4]["colour"] = "red"
    del cards[5]["arcana"]
    cards[6]["id"] = cards[7]["id"]
    whole = problems_of(data)
    by_card = {n: card_problems(data, n) for n in range(1, len(cards) + 1)}
    filed = [s for fields in by_card.values() for ss in fields.values() for s in ss]
    totals = [p for p in whole if p.startswith('guild "')]  # the guild's count: no one card's
    assert sorted(filed) == sorted(p for p in whole if p not in totals)  # each once, none made up
    assert len(totals) == 1
    assert list(by_card[2]) == ["arcana.military"]
    assert by_card[2]["arcana.military"][0].startswith(f'card "{cards[1]["id"]}": arcana.military')
    assert list(by_card[3]) == ["vp"] and list(by_card[4]) == ["guild"]
    assert list(by_card[5]) == ["colour"] and "unknown key" in by_card[5]["colour"][0]
    assert list(by_card[6]) == ["arcana"]
    assert list(by_card[8]) == ["id"] and by_card[8]["id"][0].startswith("duplicate id")
    assert by_card[1] == {} and by_card[7] == {}


def test_a_catalog_far_from_complete_still_has_its_cards_checked_one_by_one() -> None:
    data = {"name": "mine", "guilds": {"blades": {}, "thieves": {}}, "cards": []}
    data["cards"].append({"id": "blades_agent_1", "kind": "agent", "guild": "blades", "vp": 0})
    data["cards"].append(
        {
            "id": "m_1",
            "kind": "relic",
            "main": "military",
            "vp": 1,
            "fief": "temple",
            "arcana": {"military": 0, "political": 0, "spiritual": 0, "financial": 0},
        }
    )
    assert card_problems(data, 1) == {
        "arcana": [
            'card "blades_agent_1": missing value for arcana '
            "(military, political, spiritual, financial)"
        ]
    }
    said = 'card "m_1": the main arcanum military must be at least 1 in arcana.military'
    assert card_problems(data, 2) == {"arcana.military": [said]}
    assert card_problems(data, 3) == {}  # no such card: nothing said about it
    assert any("guild" in p for p in problems_of(data))  # the totals are the whole check's
