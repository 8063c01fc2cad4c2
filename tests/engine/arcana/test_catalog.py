"""Card catalogs: the sample deck, TOML files, inline objects, and every validation error
named in issue 4, each naming the card and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.arcana import RULES, CatalogError, load_catalog
from engine.records import RecordError

ROOT = Path(__file__).resolve().parents[3]


def problems_of(catalog: dict) -> list[str]:
    with pytest.raises(CatalogError) as err:
        load_catalog(catalog)
    return err.value.problems


def card(catalog: dict, cid: str) -> dict:
    return next(c for c in catalog["cards"] if c["id"] == cid)


def test_the_sample_catalog_is_clearly_labelled_and_complete():
    text = (ROOT / "engine/arcana/catalogs/sample.toml").read_text(encoding="utf-8")
    assert "MADE-UP VALUES" in text.splitlines()[0]
    sample = load_catalog("sample")
    assert sample.name == "sample" and sample.source == "sample"
    assert len(sample.cards) == 48 + 85 + 1 + 6 + 22
    assert sorted(sample.guilds) == ["blades", "ferrymen", "thieves", "usurers"]
    assert len(sample.fiefs()) == 5
    assert sample.card_name("m_agent_07") == "Sample agent 7"


def test_a_valid_catalog_object_loads_and_round_trips(test_catalog):
    catalog = load_catalog(test_catalog())
    again = load_catalog(json.loads(json.dumps(catalog.to_object())))
    assert again.cards == catalog.cards
    assert {g.tie_arcanum for g in again.guilds.values()} == {
        "military",
        "political",
        "spiritual",
        "financial",
    }


def test_a_toml_file_loads_by_path_and_broken_toml_is_reported(tmp_path):
    copy_of_sample = tmp_path / "mine.toml"
    copy_of_sample.write_text(
        (ROOT / "engine/arcana/catalogs/sample.toml").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    mine = load_catalog(copy_of_sample)
    assert mine.cards == load_catalog("sample").cards
    assert isinstance(mine.source, dict)  # a record can carry it inline
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n[[cards]\n', encoding="utf-8")
    with pytest.raises(CatalogError, match="not valid TOML"):
        load_catalog(broken)
    with pytest.raises(CatalogError, match="cannot read"):
        load_catalog(tmp_path / "missing.toml")


@pytest.mark.parametrize(
    ("cid", "field", "value", "expected"),
    [
        ("m_agent_07", "main", "magic", 'card "m_agent_07": unknown arcanum "magic" in main'),
        ("m_agent_07", "arcana", {"military": 1, "political": 3, "spiritual": 1,
                                  "financial": 4, "luck": 2},
         'card "m_agent_07": unknown arcanum "luck" in arcana'),
        ("m_agent_07", "arcana", {"military": 1, "political": 3, "financial": 4},
         'card "m_agent_07": missing value for arcana.spiritual'),
        ("m_agent_07", "vp", None, 'card "m_agent_07": missing value for vp'),
        ("m_agent_07", "fief", None, 'card "m_agent_07": missing value for fief'),
        ("m_loc_03", "effect", "teleport", 'card "m_loc_03": unknown location effect "teleport"'),
        ("m_loc_03", "effect", None, 'card "m_loc_03": missing value for effect'),
        ("m_agent_07", "kind", "dragon", 'card "m_agent_07": unknown kind "dragon"'),
        ("task_03", "count", None, 'card "task_03": missing value for count'),
        ("task_03", "fief", "moon", 'card "task_03": unknown fief "moon" in fief'),
        ("blades_agent_2", "guild", "pirates", 'card "blades_agent_2": unknown guild "pirates"'),
        ("m_agent_07", "arcana", {"military": 1, "political": 0, "spiritual": 1, "financial": 4},
         'card "m_agent_07": the main arcanum political must be at least 1'),
    ],
)  # fmt: skip
def test_each_card_error_names_the_card_and_the_field(test_catalog, cid, field, value, expected):
    catalog = test_catalog()
    if value is None:
        del card(catalog, cid)[field]
    else:
        card(catalog, cid)[field] = value
    assert any(p.startswith(expected) for p in problems_of(catalog)), problems_of(catalog)


def test_a_duplicate_id_names_both_cards(test_catalog):
    catalog = test_catalog()
    catalog["cards"].append({**card(catalog, "m_agent_07")})
    (problem,) = problems_of(catalog)[:1]
    assert problem.startswith('duplicate id "m_agent_07" (cards ')


@pytest.mark.parametrize("change", ["drop_agent", "second_relic"])
def test_a_guild_needs_exactly_1_base_9_agents_1_location_1_relic(test_catalog, change):
    catalog = test_catalog()
    if change == "drop_agent":
        catalog["cards"].remove(card(catalog, "thieves_agent_9"))
        shown = "1 base, 8 agent, 1 location, 1 relic"
    else:
        catalog["cards"].append({**card(catalog, "thieves_relic"), "id": "thieves_relic_2"})
        shown = "1 base, 9 agent, 1 location, 2 relic"
    assert problems_of(catalog) == [
        f'guild "thieves": needs exactly 1 base + 9 agent + 1 location + 1 relic, has {shown}'
    ]


def test_too_few_market_cards_for_the_piles(test_catalog):
    catalog = test_catalog()
    catalog["cards"] = [c for c in catalog["cards"] if c["id"] != "m_agent_40"]
    assert problems_of(catalog) == [
        "too few market cards for the piles: 59, need 60 (5 piles of 12)"
    ]


def test_every_problem_is_reported_at_once(test_catalog):
    catalog = test_catalog()
    card(catalog, "m_agent_01")["main"] = "magic"
    card(catalog, "m_loc_01")["effect"] = "teleport"
    catalog["guilds"]["blades"]["tie_arcanum"] = "luck"
    found = problems_of(catalog)
    assert len(found) == 3
    assert 'guild "blades": unknown arcanum "luck" in tie_arcanum' in found


def test_a_bad_inline_catalog_in_a_setup_is_a_record_error(setup_for, test_catalog):
    catalog = test_catalog()
    card(catalog, "m_loc_01")["effect"] = "teleport"
    with pytest.raises(RecordError, match=r'bad catalog: .*unknown location effect "teleport"'):
        RULES.setup(setup_for(catalog=catalog))


def test_the_documented_template_has_only_well_formed_example_cards():
    with pytest.raises(CatalogError) as err:
        load_catalog(ROOT / "docs/catalog-template.toml")
    # the template holds one example of each kind: only the totals are incomplete
    assert all(not p.startswith("card ") for p in err.value.problems), err.value.problems
    assert any(p.startswith("too few market cards") for p in err.value.problems)


def test_a_loaded_catalog_does_not_change_with_the_callers_object(test_catalog):
    catalog = test_catalog()
    loaded = load_catalog(catalog)
    card(catalog, "m_agent_01")["arcana"]["political"] = 9
    card(catalog, "m_agent_02")["vp"] = 9
    assert loaded.cards["m_agent_01"].arcana["political"] == 3
    assert card(loaded.source, "m_agent_02")["vp"] == 3


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda c: c["guilds"]["thieves"].update(tie_arcanumm="spiritual"),
         "[guilds.thieves] tie_arcanumm: unknown key (did you mean tie_arcanum?)"),
        (lambda c: c.update(nmae="x"), "nmae: unknown key (did you mean name?)"),
        (lambda c: card(c, "m_agent_07").update(fiefs="temple"),
         'card "m_agent_07": fiefs: unknown key (did you mean fief?)'),
        (lambda c: card(c, "m_agent_07").update(colour=1),
         'card "m_agent_07": colour: unknown key (known: id, kind, vp, name,'),
        (lambda c: card(c, "m_agent_07")["arcana"].update(militray=1),
         'card "m_agent_07": unknown arcanum "militray" in arcana (did you mean military?)'),
        (lambda c: c["guilds"].update(thieves=5),
         "[guilds.thieves]: a guild is a table with name and tie_arcanum, not 5"),
        (lambda c: c.update(name=["x"]), "name: the catalog's name must be text, not ['x']"),
        (lambda c: c["guilds"]["blades"].update(name=["x"]),
         "[guilds.blades] name: a guild's name must be text, not ['x']"),
        (lambda c: card(c, "blades_agent_2").update(guild=["blades"]),
         "card \"blades_agent_2\": guild must be text, not ['blades']"),
        (lambda c: card(c, "m_agent_07").update(main={"a": 1}),
         "card \"m_agent_07\": main must be text, not {'a': 1}"),
        (lambda c: card(c, "m_agent_07").update(name=3), 'card "m_agent_07": name must be text'),
        (lambda c: card(c, "m_agent_07").update(id=7), "card 55: id must be text, not 7"),
        (lambda c: card(c, "m_agent_07").update(vp=[[[[[[[[[1]]]]]]]]]),
         "cards[54].vp[0][0][0][0][0][0]: nested deeper than 8 levels"),
        (lambda c: card(c, "m_agent_07").update(vp=10**20),
         'card "m_agent_07": vp is 100000000000000000000, more than a record holds'),
        (lambda c: card(c, "m_agent_07")["arcana"].update(military=10**16),
         'card "m_agent_07": arcana.military must be a whole number from 0 to 999999999999999'),
        (lambda c: card(c, "m_agent_07").update(id="m_agent\u0007x"),
         "card 55: id 'm_agent\\x07x' has a control character or edge space"),
        (lambda c: c["guilds"]["thieves"].update(name="blades"),
         '[guilds.thieves] name: "blades" is the name of guild "blades" too'),
    ],
)  # fmt: skip
def test_unknown_keys_and_wrong_types_are_errors_naming_the_place(test_catalog, change, expected):
    catalog = test_catalog()
    change(catalog)
    found = problems_of(catalog)
    assert any(p.startswith(expected) for p in found), found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a = " + "[" * 5000 + "]" * 5000, "not valid TOML (nested too deeply)"),
        ("a = " + "9" * 5000, "not valid TOML (a number far too long)"),
        ("a = " + "{b = " * 20 + "1" + "}" * 20, "a.b.b.b.b.b.b.b.b: nested deeper than 8 levels"),
    ],
)
def test_hostile_toml_is_one_problem_not_a_crash(tmp_path, text, expected):
    path = tmp_path / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_catalog(path)
    assert err.value.problems == [expected]
