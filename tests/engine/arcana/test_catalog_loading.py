"""Loading a catalog: where its problems come from (`CatalogError.source`), what a loaded
catalog answers (names in the languages, the lists the rules use), the defaults a guild or a
card takes, and each limit at its boundary: the last value accepted and the first refused."""

from __future__ import annotations

import pytest
from catalog_problems import FILES, card, guild, market_of, problems_of, sample

from engine.arcana.catalog import (
    LARGEST,
    CatalogError,
    card_problems,
    load_catalog,
    parse_catalog,
)

A = "m_agent_07"


def loaded(data: dict):
    return parse_catalog(data, None)


def test_a_catalog_error_names_its_source_and_joins_every_problem(tmp_path) -> None:
    assert str(CatalogError(["a", "b"])) == "catalog: a; b"
    assert CatalogError(["a"]).source == "catalog"
    data = sample()
    card(data, A).pop("vp")
    card(data, "m_loc_03").update(effect="teleport")
    with pytest.raises(CatalogError) as caught:
        parse_catalog(data, None)
    assert caught.value.source == "catalog"
    assert str(caught.value) == "catalog: " + "; ".join(caught.value.problems)
    assert len(caught.value.problems) == 2
    with pytest.raises(CatalogError) as caught:
        parse_catalog(data, None, "mine")
    assert caught.value.source == "mine" and str(caught.value).startswith("mine: card ")


def test_a_files_problems_are_named_after_the_file(tmp_path) -> None:
    for code, content, _expected in FILES:
        path = tmp_path / f"{code}.toml"
        if content is not None:
            path.write_bytes(content)
        with pytest.raises(CatalogError) as caught:
            load_catalog(path)
        assert caught.value.source == str(path), code
        assert str(caught.value) == f"{path}: {caught.value.problems[0]}"
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\n[guilds.blades]\n', encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_catalog(path)
    assert caught.value.source == str(path)
    assert "missing value for cards (an array of card tables)" in caught.value.problems
    with pytest.raises(CatalogError) as caught:
        load_catalog("nosuch")
    assert caught.value.source == "nosuch"


def test_a_name_with_a_slash_or_ending_in_toml_is_a_file_not_a_shipped_catalog(tmp_path) -> None:
    for name in ("sample.toml", "dir\\sample", "./sample"):
        with pytest.raises(CatalogError) as caught:
            load_catalog(name)
        assert caught.value.problems == ["cannot read the file (No such file or directory)"]
    assert load_catalog("sample").source == "sample"
    shipped = load_catalog("sample")
    assert load_catalog(shipped) is shipped


def test_a_catalog_too_deep_for_the_form_is_one_problem_of_the_catalog() -> None:
    data = sample()
    card(data, A).update(vp=[[[[[[1]]]]]])  # the 1 at the 9th level
    with pytest.raises(CatalogError) as caught:
        card_problems(data, 55)
    assert caught.value.source == "catalog"
    assert caught.value.problems == ["cards[54].vp[0][0][0][0][0][0]: nested deeper than 8 levels"]
    card(data, A).update(vp=[[[[[1]]]]])  # the 1 at the 8th: checked, and not a number
    assert card_problems(data, 55) == {
        "vp": [f'card "{A}": vp must be a whole number >= 0, not [[[[[1]]]]]']
    }
    with pytest.raises(CatalogError) as caught:
        card_problems([], 1)
    assert caught.value.problems == ["a catalog is a table with name, guilds and cards"]
    with pytest.raises(CatalogError) as caught:
        parse_catalog({"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": 1}}}}}}}}}, None)
    assert caught.value.problems == ["a.b.c.d.e.f.g.h.i: nested deeper than 8 levels"]


def test_names_in_the_languages_and_a_cards_default_name() -> None:
    data = sample()
    card(data, A).update(names={"de": "Musteragent 7"})
    card(data, "m_agent_08").pop("name")
    guild(data, "thieves").update(names={"fa": "دزدان"})
    catalog = loaded(data)
    assert catalog.card_name(A, "de") == "Musteragent 7"
    assert catalog.card_name(A, "fa") == catalog.card_name(A) == "Sample agent 7"
    assert catalog.card_name(A, None) == "Sample agent 7"
    assert catalog.card_name("nosuch", "de") == "nosuch"  # not in the catalog: its id
    assert catalog.card_name("m_agent_08") == "M agent 08"  # no name: its id, readable
    thieves = catalog.guilds["thieves"]
    assert (thieves.name_in("fa"), thieves.name_in("de"), thieves.name_in(None)) == (
        "دزدان",
        "Thieves",
        "Thieves",
    )


def test_a_guild_takes_the_boxs_tie_arcanum_and_a_name_from_its_id() -> None:
    data = sample()
    for entry in data["guilds"].values():
        entry.pop("tie_arcanum")
        entry.pop("name")
    data["guilds"]["sea_wolves"] = {"tie_arcanum": "political"}
    data["guilds"].pop("ferrymen")
    for entry in data["cards"]:
        if entry.get("guild") == "ferrymen":
            entry["guild"] = "sea_wolves"
    catalog = loaded(data)
    assert {g.id: (g.name, g.tie_arcanum) for g in catalog.guilds.values()} == {
        "blades": ("Blades", "military"),
        "thieves": ("Thieves", "spiritual"),
        "usurers": ("Usurers", "financial"),
        "sea_wolves": ("Sea Wolves", "political"),
    }
    data["guilds"]["sea_wolves"].pop("tie_arcanum")  # no box default for a guild of one's own
    assert problems_of(data) == ['guild "sea_wolves": missing value for tie_arcanum']


def test_what_a_loaded_catalog_gives_the_rules() -> None:
    data = sample()
    card(data, "game_end").update(id="the_end")
    catalog = loaded(data)
    assert catalog.game_end == "the_end" and catalog.kind("the_end") == "game_end"
    assert catalog.militia == tuple(f"militia_{n}" for n in range(1, 7))
    assert len(catalog.tasks) == 22 and list(catalog.tasks) == sorted(catalog.tasks)
    assert len(catalog.market) == 85 and list(catalog.market) == sorted(catalog.market)
    assert all(catalog.cards[c].is_market for c in catalog.market)
    assert catalog.fiefs() == ["academy", "automaton", "catacombs", "harbour", "temple"]
    assert catalog.base_of("thieves") == "thieves_base"
    thieves = catalog.guild_cards("thieves")
    assert len(thieves) == 12 and {c.guild for c in thieves} == {"thieves"}
    agent = catalog.cards[A]
    assert (agent.threshold, agent.value("military"), agent.value("financial")) == (3, 2, 3)
    assert catalog.cards["the_end"].value("military") == 0  # no arcana: nothing in any


@pytest.mark.parametrize(
    ("change", "accepted"),
    [
        (lambda d: card(d, A).update(vp=LARGEST), True),
        (lambda d: card(d, A).update(vp=LARGEST + 1), False),
        (lambda d: card(d, A).update(vp=0), True),
        (lambda d: card(d, A).update(vp=-1), False),
        (lambda d: card(d, A)["arcana"].update(military=LARGEST), True),
        (lambda d: card(d, A)["arcana"].update(military=LARGEST + 1), False),
        (lambda d: card(d, A)["arcana"].update(military=0), True),
        (lambda d: card(d, A)["arcana"].update(military=-1), False),
        (lambda d: card(d, A)["arcana"].update(financial=1), True),  # the main arcanum: 1 is enough
        (lambda d: card(d, "task_03").update(count=1), True),
        (lambda d: card(d, "task_03").update(count=0), False),
        (lambda d: d.update(cards=market_of(d, 60)), True),
        (lambda d: d.update(cards=market_of(d, 59)), False),
        (lambda d: two_guilds(d), True),
        (lambda d: d["cards"].append({"id": "end_2", "kind": "game_end", "vp": 0}), False),
    ],
)  # fmt: skip
def test_each_limit_at_its_boundary(change, accepted) -> None:
    data = sample()
    change(data)
    assert (problems_of(data) == []) is accepted, problems_of(data)


def two_guilds(data: dict) -> None:
    """The catalog with only the blades and the thieves."""
    for gid in ("ferrymen", "usurers"):
        data["guilds"].pop(gid)
    data["cards"] = [c for c in data["cards"] if c.get("guild") not in ("ferrymen", "usurers")]


def test_the_totals_say_how_many_there_are() -> None:
    data = sample()
    data["cards"].append({"id": "end_2", "kind": "game_end", "vp": 0})
    assert problems_of(data) == ["cards: need exactly 1 game_end card, found 2"]
    data = sample()
    card(data, "militia_1").update(guild="blades")  # a thirteenth card of the guild's
    assert problems_of(data) == [
        'card "militia_1": a militia card has no guild and no main',
        'guild "blades": needs exactly 1 base + 9 agent + 1 location + 1 relic, '
        "has 1 base, 9 agent, 1 location, 1 relic",
    ]
    data = sample()
    data["cards"] = market_of(data, 0)  # no market card: no fief a task could be wrong about
    assert problems_of(data) == ["too few market cards for the piles: 0, need 60 (5 piles of 12)"]


def test_the_catalog_name_is_needed_and_a_card_without_a_usable_id_is_left_out() -> None:
    data = sample()
    data["name"] = ""
    assert problems_of(data) == ["missing value for the catalog's name"]
    data = sample()
    data["cards"] = {"not": "a list"}
    assert problems_of(data)[0] == "missing value for cards (an array of card tables)"
    data = sample()
    card(data, A).update(id=7)
    assert problems_of(data)[0] == "card 55: id must be text, not 7"
    data["cards"] = market_of(data, 60)  # the 60 market cards with m_agent_07 among them
    assert problems_of(data) == [
        "card 84: id must be text, not 7",  # left out: a market card short of the 60
        "too few market cards for the piles: 59, need 60 (5 piles of 12)",
    ]


def test_a_catalog_object_keeps_the_source_and_the_label_it_is_given() -> None:
    assert parse_catalog(sample(), "given").source == "given"
    deep = {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": 1}}}}}}}}}
    for data in (deep, ["not", "a", "table"]):
        with pytest.raises(CatalogError) as caught:
            parse_catalog(data, None, "mine")
        assert caught.value.source == "mine" and str(caught.value).startswith("mine: ")


def test_a_value_that_does_not_apply_to_the_cards_kind_is_left_out_of_the_loaded_card() -> None:
    data = sample()
    card(data, "blades_agent_2").update(fief="temple")  # a guild card has no fief
    card(data, A).update(effect="swap_stakes")  # only a location has an effect
    catalog = loaded(data)
    agent, market = catalog.cards["blades_agent_2"], catalog.cards[A]
    assert (agent.fief, market.effect) == (None, None)
    assert (market.fief, catalog.cards["m_loc_03"].effect) == ("temple", "swap_stakes")
    again = {c["id"]: c for c in catalog.to_object()["cards"]}
    assert "fief" not in again["blades_agent_2"] and "effect" not in again[A]


def test_an_unknown_shipped_name_lists_the_shipped_catalogs(tmp_path, monkeypatch) -> None:
    import engine.arcana.catalog as catalogs

    for name in ("sample", "second"):
        (tmp_path / f"{name}.toml").write_text("", encoding="utf-8")
    monkeypatch.setattr(catalogs, "CATALOG_DIR", tmp_path)
    with pytest.raises(CatalogError) as caught:
        load_catalog("nosuch")
    assert caught.value.problems == ['no shipped catalog named "nosuch" (shipped: sample, second)']
