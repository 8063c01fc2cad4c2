"""Every problem `catalog check` says, word for word, each with its stable code and the values
it is made of (engine/arcana/problems.py): the table says the code in its languages."""

from __future__ import annotations

import copy
import pickle
import string

import pytest
from catalog_problems import CHANGES, FILED, FILES, MORE, every_problem, problems_of, sample

from engine.arcana.catalog import CatalogError, card_problems
from engine.arcana.problems import SENTENCES, Problem, problem
from firmware.web.catalog_checks import SENTENCES as PAGE_SENTENCES


def test_each_problem_is_said_word_for_word_with_its_code(tmp_path) -> None:
    for code, said, expected in every_problem(tmp_path):
        assert expected in said, (code, said)
        (found,) = [p for p in said if p == expected]
        assert isinstance(found, Problem) and found.code == code, (code, found)
        template = SENTENCES.get(code, PAGE_SENTENCES.get(code))
        assert template.format(**found.params) == expected
        assert set(found.params) == fields(template), code  # the values it says, no more


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_each_problem_said_in_more_places_is_said_word_for_word_with_its_code() -> None:
    for code, change, expected, _filed in MORE:
        data = sample()
        change(data)
        (found,) = [p for p in problems_of(data) if p == expected]
        assert found.code == code and set(found.params) == fields(SENTENCES[code]), expected


def test_every_code_has_a_broken_catalog_that_says_it() -> None:
    cases = [code for code, _, _ in CHANGES] + [code for code, _, _ in FILES]
    cases += ["no_shipped_catalog", "too_many_guilds", "no_catalog"]
    assert sorted(cases) == sorted({*SENTENCES, *PAGE_SENTENCES})
    assert len(cases) == len(set(cases))


def test_a_problem_is_its_sentence_and_keeps_its_code_when_copied() -> None:
    said = problem("card_missing", card="m_agent_07", field="vp")
    assert said == 'card "m_agent_07": missing value for vp'
    assert (said.code, said.params) == ("card_missing", {"card": "m_agent_07", "field": "vp"})
    for again in (copy.deepcopy(said), pickle.loads(pickle.dumps(said))):
        assert again == said and again.code == said.code and again.params == said.params
    assert repr(said) == repr(str(said))  # printed and joined as the text it is
    assert "; ".join([said, said]) == f"{said}; {said}"


def test_a_problem_not_in_the_sentences_is_a_bug_not_a_sentence() -> None:
    with pytest.raises(KeyError):
        problem("no_such_code")
    with pytest.raises(KeyError):  # a value the sentence needs and was not given
        problem("card_missing", card="x")


def test_each_cards_problem_is_filed_under_its_card_and_field_for_the_form() -> None:
    cases = [(code, change, expected, FILED.get(code)) for code, change, expected in CHANGES]
    for code, change, expected, filed in cases + MORE:
        data = sample()
        change(data)
        if code == "too_deep":  # not checked at all: the whole check's one problem
            with pytest.raises(CatalogError) as caught:
                card_problems(data, 55)
            assert caught.value.problems == [expected]
            continue
        if filed is None:  # about the catalog or a guild: no one card's
            assert all(expected not in said for said in card_problems(data, 55).values())
            continue
        number, field = filed
        fields = card_problems(data, number)
        assert expected in fields.get(field, []), (code, fields)
        assert [f for f, said in fields.items() if expected in said] == [field], code


def test_a_guild_named_as_two_others_names_both_without_a_language() -> None:
    data = sample()
    for gid in ("thieves", "usurers"):
        data["guilds"][gid]["name"] = "Blades"
    twins = [p for p in problems_of(data) if p.code.startswith("guild_twin")]
    assert twins == [
        '[guilds.thieves] name: "Blades" is the name of guild "blades" too',
        '[guilds.usurers] name: "Blades" is the name of guild "blades" too',
        '[guilds.usurers] name: "Blades" is the name of guild "thieves" too',
    ]
