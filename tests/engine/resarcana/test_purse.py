"""Packed essences and what a stock can pay for, against plain counting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.resarcana.essences import CAP, GUARD, Essences, clamp, pack, shortfall, unpack
from engine.resarcana.purse import capped, reach
from engine.resarcana.state import ORDER

counts = st.lists(st.integers(0, CAP), min_size=5, max_size=5)


@settings(max_examples=200)
@given(counts, counts)
def test_paying_is_one_subtraction_and_one_mask(have, cost):
    cost = [min(n, 7) for n in cost]
    left = pack(have) - pack(cost)
    affordable = all(h >= c for h, c in zip(have, cost, strict=True))
    assert (not left & GUARD) == affordable
    if affordable:
        assert list(unpack(left)) == [h - c for h, c in zip(have, cost, strict=True)]


@settings(max_examples=200)
@given(counts)
def test_reach_lists_exactly_the_cards_the_stock_pays_for(have):
    pay, power = reach(pack(have))
    for i, card in enumerate(ORDER):
        covers = all(h >= c for h, c in zip(have, card.cost.counts(), strict=True))
        assert bool(pay >> i & 1) == covers, card.id
        powered = card.power is not None and all(
            h >= c for h, c in zip(have, card.power.cost.counts(), strict=True)
        )
        assert bool(power >> i & 1) == powered, card.id
    assert unpack(capped(pack(have))) == tuple(min(n, 7) for n in have)


def test_production_clamps_at_the_cap_and_nowhere_else():
    assert clamp(pack([CAP + 5, 3, 0, CAP, 1])) == pack([CAP, 3, 0, CAP, 1])
    assert clamp(pack([12, 3, 0, 9, 1])) == pack([12, 3, 0, 9, 1])


def test_shortfall_names_only_what_is_missing():
    brazier = Essences(fire=1, gold=2).packed()
    assert shortfall(pack([1, 0, 0, 0, 1]), brazier) == "2 gold, you have 1"
    assert (
        shortfall(pack([0, 0, 0, 0, 0]), brazier) == "1 fire and 2 gold, you have 0 fire and 0 gold"
    )


def test_an_amount_names_only_the_five_essences():
    assert Essences.of({"calm": 2, "gold": 1}) == Essences(calm=2, gold=1)
    with pytest.raises(KeyError) as err:
        Essences.of({"calm": 2, "mana": 1})
    assert err.value.args == ("mana",)
