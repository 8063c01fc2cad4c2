"""Every rule number an engine cites (`[7]`, `rule [8]`, `house rule [3]` in a docstring or a
comment) is a numbered section of its game's rules: Arcana's in docs/rules.md (the sections of
the house rules), Res Arcana's the `## [N]` headings of docs/res-arcana-rules.md."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r"(?<![\w\])\[])\[(\d+)\](?![\w(\[])")


def citations(package: str) -> dict[int, list[str]]:
    """rule number -> the places (file:line) that cite it, in comments and docstrings."""
    found: dict[int, list[str]] = {}
    for path in sorted((ROOT / "engine" / package).glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            is_doc = token.type == tokenize.STRING and token.string.lstrip("rbfu").startswith('"""')
            if token.type == tokenize.COMMENT or is_doc:
                for number in CITED.findall(token.string):
                    found.setdefault(int(number), []).append(f"{path.name}:{token.start[0]}")
    return found


def arcana_sections() -> set[int]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    arcana = text.split("- Arcana", 1)[1].split("- Res Arcana", 1)[0]
    return {int(n) for n in re.findall(r"^\s+- \[(\d+)\] ", arcana, re.MULTILINE)}


def res_arcana_sections() -> set[int]:
    text = (ROOT / "docs" / "res-arcana-rules.md").read_text(encoding="utf-8")
    return {int(n) for n in re.findall(r"^## \[(\d+)\] ", text, re.MULTILINE)}


@pytest.mark.parametrize(
    ("package", "sections"), [("arcana", arcana_sections), ("resarcana", res_arcana_sections)]
)
def test_every_cited_rule_is_a_section_of_the_games_rules(package, sections):
    numbers = sections()
    assert numbers == set(range(1, len(numbers) + 1))  # numbered 1..N, none left out
    cited = citations(package)
    assert len(cited) >= 5  # the engine does cite its rules
    assert {n: places for n, places in cited.items() if n not in numbers} == {}


def test_the_citation_pattern_takes_rule_numbers_and_not_indices():
    assert CITED.findall("house rules [3]-[10]; a round [5]") == ["3", "10", "5"]
    assert CITED.findall("lines[0], pile[1], [0][2], x[3](y)") == []
