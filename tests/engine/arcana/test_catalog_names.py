"""Names in the players' languages (issue 16): a catalog's cards and guilds may carry their
name per language (`names = { de = "...", fa = "..." }`), shown when a game is played in that
language; `name` stays the default. The check names an unknown language and an empty name."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from engine.arcana import RULES, CatalogError, load_catalog
from engine.arcana.names import LANGUAGES
from engine.records import dumps, load

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "engine/arcana/catalogs/sample.toml"

# The two TOML shapes of `names`: inline beside `name`, or a table of the card's own.
NAMES_INLINE = """
[[cards]]
id = "extra_agent"
kind = "agent"
name = "Ferryman of the Night"
names = { de = "Nachtfährmann", fa = "قایقران شب" }
vp = 3
main = "political"
fief = "automaton"
arcana = { military = 0, political = 1, spiritual = 0, financial = 0 }
"""
NAMES_TABLE = """
[[cards]]
id = "extra_agent"
kind = "agent"
name = "Ferryman of the Night"
vp = 3
main = "political"
fief = "automaton"
arcana = { military = 0, political = 1, spiritual = 0, financial = 0 }
[cards.names]
de = "Nachtfährmann"
fa = "قایقران شب"
"""


def sample_with(tmp_path: Path, extra: str, old: str = "", new: str = "") -> Path:
    text = SAMPLE.read_text(encoding="utf-8")
    if old:
        assert old in text
        text = text.replace(old, new, 1)
    mine = tmp_path / "mine.toml"
    mine.write_text(text + extra, encoding="utf-8")
    return mine


def problems_of(catalog) -> list[str]:
    with pytest.raises(CatalogError) as err:
        load_catalog(catalog)
    return err.value.problems


@pytest.mark.parametrize("shape", [NAMES_INLINE, NAMES_TABLE], ids=["inline", "table"])
def test_a_card_is_named_in_each_language_it_gives_and_by_its_name_in_the_others(tmp_path, shape):
    catalog = load_catalog(sample_with(tmp_path, shape))
    assert catalog.card_name("extra_agent", "de") == "Nachtfährmann"
    assert catalog.card_name("extra_agent", "fa") == "قایقران شب"
    assert catalog.card_name("extra_agent", "en") == "Ferryman of the Night"
    assert catalog.card_name("extra_agent") == "Ferryman of the Night"
    assert catalog.card_name("m_agent_07", "de") == "Beispiel-Agent 7"  # the sample's own
    assert catalog.card_name("m_agent_07", "xx") == "Sample agent 7"  # none in xx: its name


def test_a_guild_is_named_in_a_language_and_its_name_stays_the_one_records_use(tmp_path):
    mine = sample_with(
        tmp_path, "", "[guilds.blades]\n", '[guilds.blades]\nnames = { de = "Die Klingen" }\n'
    )
    catalog = load_catalog(mine)
    blades = catalog.guilds["blades"]
    assert (blades.name_in("de"), blades.name_in("fa"), blades.name) == (
        "Die Klingen",
        "Blades",
        "Blades",
    )
    assert catalog.to_object()["guilds"]["blades"]["names"] == {"de": "Die Klingen"}


def test_names_round_trip_through_the_catalog_object_and_an_inline_record(tmp_path):
    catalog = load_catalog(sample_with(tmp_path, NAMES_TABLE))
    again = load_catalog(json.loads(json.dumps(catalog.to_object())))
    assert again.cards == catalog.cards and again.guilds == catalog.guilds
    setup = {
        "catalog": catalog.to_object(),
        "variant": "basic",
        "players": [{"name": "Blades", "guild": "blades"}, {"name": "Thieves", "guild": "thieves"}],
        "start_player": 0,
        "stakes": ["m_agent_01", "m_agent_02", "m_agent_03", "m_agent_04", "m_agent_05"],
    }
    RULES.setup(setup)  # a record can carry it inline
    _, state, _ = load(dumps("arcana", setup, []))
    assert state.catalog.card_name("extra_agent", "de") == "Nachtfährmann"


def test_the_engine_knows_the_languages_of_the_screens():
    assert LANGUAGES[0] == "en" and {"de", "fa"} <= set(LANGUAGES)


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        ('{ it = "Traghettatore" }',
         'card "extra_agent": names: unknown language "it" (the languages of the table: '
         "en, de, fa)"),
        ('{ DE = "Nachtfährmann" }',
         'card "extra_agent": names: unknown language "DE" (did you mean de?)'),
        ('{ de = "" }',
         'card "extra_agent": names.de: the de name is empty (give the name, or leave the key '
         "out)"),
        ('{ fa = "   " }', 'card "extra_agent": names.fa: the fa name is empty'),
        ("{ de = 3 }", 'card "extra_agent": names.de: the de name must be text, not 3'),
        ('"Nachtfährmann"',
         "card \"extra_agent\": names: a table of names by language (en, de, fa), not "
         "'Nachtfährmann'"),
        ('{ de = { x = "y" } }', 'card "extra_agent": names.de: the de name must be text, not {'),
    ],
)  # fmt: skip
def test_a_bad_name_is_a_problem_naming_the_card_and_the_language(tmp_path, names, expected):
    extra = NAMES_INLINE.replace('{ de = "Nachtfährmann", fa = "قایقران شب" }', names)
    found = problems_of(sample_with(tmp_path, extra))
    assert len(found) == 1 and found[0].startswith(expected), found


def test_an_empty_name_is_called_empty(tmp_path):
    found = problems_of(
        sample_with(tmp_path, NAMES_INLINE.replace('"Ferryman of the Night"', '""'))
    )
    assert found == ['card "extra_agent": name is empty (give the name, or leave the key out)']


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('name = "Blades"\n', 'name = "Blades"\nnames = { xx = "A" }\n',
         '[guilds.blades] names: unknown language "xx" (the languages of the table: en, de, fa)'),
        ('name = "Blades"\n', 'name = "Blades"\nnames = { de = "" }\n',
         "[guilds.blades] names.de: the de name is empty (give the name, or leave the key out)"),
        ('name = "Thieves"\n', 'name = "Thieves"\nnames = { de = "blades" }\n',
         '[guilds.thieves] names.de: "blades" is the name of guild "blades" too (in de)'),
        ('name = "Thieves"\n', 'name = "Diebe"\nnames = { en = "Blades" }\n',
         '[guilds.thieves] names.en: "Blades" is the name of guild "blades" too (in en)'),
        ('name = "Thieves"\n', 'name = "Klingen"\n',
         '[guilds.thieves] name: "Klingen" is the name of guild "blades" too (in de)'),
    ],
)  # fmt: skip
def test_guild_names_are_checked_in_every_language(tmp_path, old, new, expected):
    mine = sample_with(tmp_path, "", old, new)
    if "Klingen" in new:  # blades called "Klingen" in German, thieves so by default
        text = mine.read_text(encoding="utf-8")
        text = text.replace('name = "Blades"\n', 'name = "Blades"\nnames = { de = "Klingen" }\n')
        mine.write_text(text, encoding="utf-8")
    assert problems_of(mine) == [expected]


def test_catalog_check_names_an_unknown_language_and_changes_nothing(tmp_path):
    mine = sample_with(tmp_path, NAMES_INLINE.replace("fa =", "fr ="))
    before = mine.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "catalog", "check", str(mine)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert (
        f'{mine}: card "extra_agent": names: unknown language "fr" '
        "(the languages of the table: en, de, fa)"
    ) in done.stderr
    assert mine.read_bytes() == before


def test_catalog_check_accepts_names_in_the_tables_languages(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware",
            "catalog",
            "check",
            str(sample_with(tmp_path, NAMES_TABLE)),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert (done.returncode, done.stdout) == (0, "ok: 163 cards\n")


def test_the_template_shows_both_shapes_of_names():
    data = tomllib.loads((ROOT / "docs/catalog-template.toml").read_text(encoding="utf-8"))
    cards = {card["id"]: card for card in data["cards"]}
    assert cards["blades_base"]["names"] == {"de": "Gilde der Klingen"}  # inline
    assert cards["m_agent_01"]["names"] == {"de": "Eine Person"}  # [cards.names]
    assert data["guilds"]["blades"]["names"] == {"de": "Klingen"}


def test_every_bad_name_of_a_table_is_listed_not_only_the_first(tmp_path):
    extra = NAMES_INLINE.replace(
        '{ de = "Nachtfährmann", fa = "قایقران شب" }', '{ xx = "A", de = "", fa = 3 }'
    )
    assert problems_of(sample_with(tmp_path, extra)) == [
        'card "extra_agent": names: unknown language "xx" (the languages of the table: en, de, fa)',
        'card "extra_agent": names.de: the de name is empty (give the name, or leave the key out)',
        'card "extra_agent": names.fa: the fa name must be text, not 3',
    ]


def test_two_guilds_of_the_same_name_are_reported_once_not_once_per_language(tmp_path):
    """Thieves called "Blades": alike in every language (neither has names), one problem."""
    mine = sample_with(tmp_path, "", 'name = "Thieves"\n', 'name = "Blades"\n')
    expected = '[guilds.thieves] name: "Blades" is the name of guild "blades" too'
    assert problems_of(mine) == [expected]
