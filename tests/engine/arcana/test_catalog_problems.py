"""Every problem `catalog check` says, word for word, each with its stable code and the values
it is made of (engine/arcana/problems.py): the table says the code in its languages."""

from __future__ import annotations

import copy
import pickle

import pytest
from catalog_problems import CHANGES, FILES, every_problem

from engine.arcana.problems import SENTENCES, Problem, problem
from firmware.web.catalog_checks import SENTENCES as PAGE_SENTENCES


def test_each_problem_is_said_word_for_word_with_its_code(tmp_path) -> None:
    for code, said, expected in every_problem(tmp_path):
        assert expected in said, (code, said)
        (found,) = [p for p in said if p == expected]
        assert isinstance(found, Problem) and found.code == code, (code, found)
        assert SENTENCES.get(code, PAGE_SENTENCES.get(code)).format(**found.params) == expected


def test_every_code_has_a_broken_catalog_that_says_it() -> None:
    cases = [code for code, _, _ in CHANGES] + [code for code, _, _ in FILES]
    cases += ["no_shipped_catalog", "too_many_guilds"]
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
