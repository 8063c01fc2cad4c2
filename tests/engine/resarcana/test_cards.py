"""Every card's cost, production, power and VP, against the rules' own tables.

`RULES_TABLES` is the "Cards" section of `res-arcana-simplified.md`, pasted verbatim: the
engine's card data must say exactly what the printed tables say. Then every card is put to
work: played (or bought) it costs exactly its cost, it produces at the next round's start,
and its power pays and gains exactly as printed.
"""

from __future__ import annotations

import re

import pytest

from engine.protocol import Rejection
from engine.resarcana import CARDS, RULES, Action, Position, catalog, name, state_to_json
from engine.resarcana.cards import ARTIFACTS, MAGES, MONUMENTS, PLACES
from engine.resarcana.scenario import adjust, deal, everyone_passes, setup_state, take

RULES_TABLES = """
## Cards
Cost / production / power. "pay X → Y" is the power; "free → Y" a power with no cost.

Mages (no power; production only):
| id | produces |
|---|---|
| `fire_mage` | 1 fire, 1 life |
| `forest_healer` | 1 life, 1 calm |
| `shadow_priest` | 1 death, 1 gold |
| `master_of_calm` | 1 calm, 1 fire |

Artifacts, producers:
| id | cost | produces | power |
|---|---|---|---|
| `chalice_of_life` | 1 life | 1 life | – |
| `mirror_of_calm` | 1 calm | 1 calm | – |
| `black_skull` | 1 death | 1 death | – |
| `small_flame` | 1 fire | 1 fire | – |
| `bag_of_gold` | 2 gold | 1 gold | – |
| `healing_spring` | 3 life | 2 life | – |
| `death_bell` | 3 death | 2 death | – |
| `brazier` | 1 fire, 2 gold | 1 fire, 1 gold | – |

Artifacts, converters:
| id | cost | produces | power |
|---|---|---|---|
| `alchemist_staff` | 1 calm, 1 death | – | pay 2 life → 2 gold |
| `boiling_cauldron` | 2 life | – | free → 1 life, 1 fire |
| `stone_armor` | 1 gold, 1 calm | – | free → 2 calm |
| `spell_scroll` | 2 calm, 1 death | – | free → 1 calm, 1 death |
| `blood_dagger` | 1 fire, 1 death | 1 fire | pay 2 fire → 2 death |
| `shadow_book` | 2 death | 1 death | pay 1 gold → 3 death |
| `phoenix_wing` | 2 fire, 1 life | – | pay 1 life → 3 fire |
| `golden_scale` | 2 gold | – | pay 1 fire, 1 calm → 2 gold |
| `ancient_seed` | 1 life | 1 life | pay 3 life → 1 fire, 1 calm |
| `trade_ring` | 1 gold | – | pay 1 death → 1 gold, 1 life |

Artifacts, VP makers:
| id | cost | produces | power |
|---|---|---|---|
| `seer_orb` | 2 calm | 1 calm | pay 3 calm → 1 VP |
| `crown_of_thorns` | 1 life, 1 death | – | pay 2 death → 1 VP |
| `eternal_lamp` | 2 fire | 1 fire | pay 3 fire → 1 VP |
| `secret_key` | 1 calm | – | pay 2 gold → 1 VP |
| `dragon_heart` | 3 fire | 2 fire | pay 1 fire → 1 VP |
| `ice_flower` | 1 calm, 1 life | 1 calm | pay 2 calm → 1 life and 1 VP |

Places of power (no replacement once bought):
| id | cost | VP | produces | power |
|---|---|---|---|---|
| `dragon_tower` | 4 fire, 2 death | 2 | – | pay 1 fire → 1 VP |
| `sacred_garden` | 6 life | 2 | 2 life | – |
| `calm_temple` | 5 calm, 1 gold | 3 | – | – |
| `death_crypt` | 6 death | 1 | 1 death | pay 2 death → 1 VP |
| `gold_mine` | 5 gold | 2 | 1 gold | – |

Monuments: `monument_1` … `monument_6`, each costs 4 gold and is worth 2 VP.
"""

WORD = {"fire", "life", "calm", "death", "gold"}


def amounts(text: str) -> dict[str, int]:
    """`1 fire, 2 gold` / `2 calm and 1 VP` / `–` as {kind: n} (VP under "vp")."""
    found: dict[str, int] = {}
    for n, word in re.findall(r"(\d+) (fire|life|calm|death|gold|VP)", text):
        found["vp" if word == "VP" else word] = int(n)
    return found


def printed() -> dict[str, dict]:
    """Every card row of the pasted tables: cost, produces, power (cost, gain, vp), vp."""
    cards: dict[str, dict] = {}
    for line in RULES_TABLES.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not cells or not cells[0].startswith("`"):
            continue
        card_id = cells[0].strip("`")
        if len(cells) == 2:  # mages: id | produces
            cards[card_id] = {"cost": {}, "produces": amounts(cells[1]), "power": None, "vp": 0}
            continue
        if len(cells) == 4:  # artifacts: id | cost | produces | power
            cost, produces, power, vp = cells[1], cells[2], cells[3], "0"
        else:  # places: id | cost | VP | produces | power
            cost, vp, produces, power = cells[1], cells[2], cells[3], cells[4]
        parsed_power = None
        if "→" in power:
            pay, gain = power.split("→")
            gained = amounts(gain)
            parsed_power = {
                "cost": {} if "free" in pay else amounts(pay),
                "gain": {k: n for k, n in gained.items() if k != "vp"},
                "vp": gained.get("vp", 0),
            }
        cards[card_id] = {
            "cost": amounts(cost),
            "produces": amounts(produces),
            "power": parsed_power,
            "vp": int(vp),
        }
    return cards


def test_the_tables_list_4_mages_24_artifacts_and_5_places():
    rows = printed()
    kinds = [CARDS[c].kind for c in rows]
    assert (kinds.count("mage"), kinds.count("artifact"), kinds.count("place")) == (4, 24, 5)
    assert (len(MAGES), len(ARTIFACTS), len(PLACES), len(MONUMENTS)) == (4, 24, 5, 6)


@pytest.mark.parametrize("card_id", sorted(printed()))
def test_card_data_matches_the_printed_tables(card_id):
    data = CARDS[card_id].to_json()
    row = printed()[card_id]
    assert (data["cost"], data["produces"], data["vp"]) == (row["cost"], row["produces"], row["vp"])
    assert data["power"] == row["power"]


@pytest.mark.parametrize("card", MONUMENTS, ids=lambda c: c.id)
def test_each_monument_costs_4_gold_and_is_worth_2_vp(card):
    assert (card.cost.nonzero(), card.vp, card.power, card.produces.nonzero()) == (
        {"gold": 4},
        2,
        None,
        {},
    )


def test_the_catalog_gives_each_card_as_plain_data():
    by_id = {c["id"]: c for c in catalog()}
    assert by_id["seer_orb"] == {
        "id": "seer_orb",
        "name": "Seer's Orb",
        "kind": "artifact",
        "cost": {"calm": 2},
        "produces": {"calm": 1},
        "power": {"cost": {"calm": 3}, "gain": {}, "vp": 1},
        "vp": 0,
    }
    assert by_id["gold_mine"]["kind"] == "place" and by_id["gold_mine"]["power"] is None
    assert by_id["shadow_priest"]["kind"] == "mage"
    assert by_id["monument_6"]["kind"] == "monument"


def test_screen_names():
    assert name("seer_orb") == "Seer's Orb"
    assert name("alchemist_staff") == "Alchemist's Staff"
    assert name("monument_3") == "Monument 3"
    assert [c["id"] for c in catalog()][:4] == [m.id for m in MAGES]
    assert len({c["name"] for c in catalog()}) == len(CARDS) == 39


def stock(state, seat=0):
    return Position(state).essences(seat).as_dict()


def plus(a: dict[str, int], b: dict[str, int], sign: int = 1) -> dict[str, int]:
    return {k: a.get(k, 0) + sign * b.get(k, 0) for k in ("fire", "life", "calm", "death", "gold")}


RICH = {"fire": 9, "life": 9, "calm": 9, "death": 9, "gold": 9}


@pytest.mark.parametrize("card", ARTIFACTS, ids=lambda c: c.id)
def test_playing_each_artifact_costs_exactly_its_cost(card):
    state = setup_state(deal(hands=[[card.id, *[a.id for a in ARTIFACTS if a != card][:2]]]))
    state = adjust(state, 0, essences=RICH)
    state, events = take(state, 0, "play", card.id)
    assert stock(state) == plus(RICH, card.cost.nonzero(), -1)
    assert card.id in Position(state).tableau(0)
    assert card.id not in Position(state).hand(0)
    paid = [e for e in events if e["kind"] == "paid"]
    assert paid == [{"kind": "paid", "player": 0, "card": card.id, "essences": card.cost.as_dict()}]


@pytest.mark.parametrize("card", ARTIFACTS, ids=lambda c: c.id)
def test_each_artifact_produces_from_the_next_round(card):
    state = adjust(setup_state(deal()), 0, essences={}, tableau=[card.id])
    state, events = everyone_passes(state)
    fire_mage = {"fire": 1, "life": 1}
    assert stock(state) == plus(fire_mage, card.produces.nonzero())
    produced = [e for e in events if e["kind"] == "produced" and e["player"] == 0]
    assert produced[0]["essences"] == plus(fire_mage, card.produces.nonzero())


POWERED = [c for c in ARTIFACTS + PLACES if c.power is not None]


@pytest.mark.parametrize("card", POWERED, ids=lambda c: c.id)
def test_each_power_pays_its_cost_and_gains_essences_and_vp(card):
    state = adjust(setup_state(deal()), 0, essences=RICH, tableau=[card.id])
    before = Position(state).vp(0)
    state, events = take(state, 0, "activate", card.id)
    expected = plus(plus(RICH, card.power.cost.nonzero(), -1), card.power.gain.nonzero())
    assert stock(state) == expected
    assert Position(state).tokens(0) == card.power.vp
    assert Position(state).vp(0) == before + card.power.vp
    assert card.id in Position(state).used()
    scored = [e["vp"] for e in events if e["kind"] == "scored"]
    assert scored == ([card.power.vp] if card.power.vp else [])


PAID_POWERS = [(c, kind) for c in POWERED for kind in c.power.cost.nonzero()]


@pytest.mark.parametrize(("card", "kind"), PAID_POWERS, ids=lambda x: getattr(x, "id", x))
def test_each_power_is_refused_one_essence_short(card, kind):
    short = dict(RICH, **{kind: card.power.cost.nonzero()[kind] - 1})
    state = adjust(setup_state(deal()), 0, essences=short, tableau=[card.id])
    before = state_to_json(state)
    outcome = RULES.apply(state, Action(0, "activate", card.id))
    assert isinstance(outcome, Rejection)
    assert outcome.code == "cannot_afford"
    need = card.power.cost.nonzero()[kind]
    assert f"{need} {kind}, you have {need - 1}" in outcome.message
    assert state_to_json(state) == before


@pytest.mark.parametrize(
    ("card", "kind"),
    [(c, k) for c in ARTIFACTS for k in c.cost.nonzero()],
    ids=lambda x: getattr(x, "id", x),
)
def test_playing_each_artifact_is_refused_one_essence_short(card, kind):
    short = dict(RICH, **{kind: card.cost.nonzero()[kind] - 1})
    hand = [card.id, *[a.id for a in ARTIFACTS if a != card][:2]]
    state = adjust(setup_state(deal(hands=[hand])), 0, essences=short)
    outcome = RULES.apply(state, Action(0, "play", card.id))
    assert isinstance(outcome, Rejection)
    assert outcome.code == "cannot_afford"
    assert outcome.message.startswith(f"{card.name} needs ")


@pytest.mark.parametrize("card", PLACES + MONUMENTS, ids=lambda c: c.id)
def test_buying_each_place_and_monument_costs_its_price_and_gives_its_vp(card):
    face_up_first = [card.id] * (card.kind == "monument") + [m.id for m in MONUMENTS if m != card]
    state = adjust(setup_state(deal(monuments=face_up_first)), 0, essences=RICH)
    state, events = take(state, 0, "buy", card.id)
    look = Position(state)
    assert stock(state) == plus(RICH, card.cost.nonzero(), -1)
    assert look.vp(0) == card.vp
    assert card.id in look.tableau(0)
    assert events[:2] == [
        {"kind": "bought", "player": 0, "card": card.id},
        {"kind": "paid", "player": 0, "card": card.id, "essences": card.cost.as_dict()},
    ]


@pytest.mark.parametrize("card", PLACES, ids=lambda c: c.id)
def test_each_place_produces_from_the_next_round(card):
    state = adjust(setup_state(deal()), 0, essences={}, tableau=[card.id])
    state, _ = everyone_passes(state)
    assert stock(state) == plus({"fire": 1, "life": 1}, card.produces.nonzero())


@pytest.mark.parametrize("mage", MAGES, ids=lambda c: c.id)
def test_each_mage_produces_its_essences_every_round_but_the_first(mage):
    setup = deal(mages=(mage.id, *[m.id for m in MAGES if m != mage][:1]))
    state = adjust(setup_state(setup), 0, essences={})
    state, _ = everyone_passes(state)
    assert stock(state) == plus({}, mage.produces.nonzero())
    state, _ = everyone_passes(state)
    assert stock(state) == plus({}, {k: 2 * n for k, n in mage.produces.nonzero().items()})


def test_a_power_reads_as_the_tables_print_it():
    # "pay X → Y" for a power with a cost, "free → Y" for one without; VP after essences.
    # Essences are named in the order fire, life, calm, death, gold.
    words = {card_id: str(CARDS[card_id].power) for card_id in printed() if CARDS[card_id].power}
    assert words["alchemist_staff"] == "pay 2 life → 2 gold"
    assert words["boiling_cauldron"] == "free → 1 fire, 1 life"
    assert words["golden_scale"] == "pay 1 fire, 1 calm → 2 gold"
    assert words["seer_orb"] == "pay 3 calm → 1 VP"
    assert words["ice_flower"] == "pay 2 calm → 1 life and 1 VP"
    assert words["death_crypt"] == "pay 2 death → 1 VP"
    for card_id, text in words.items():
        row = printed()[card_id]["power"]
        pay, gain = text.split(" → ")
        assert (pay == "free") == (not row["cost"]), card_id
        vp = {"vp": row["vp"]} if row["vp"] else {}
        assert amounts(pay) == row["cost"] and amounts(gain) == {**row["gain"], **vp}


def test_an_amount_of_essences_reads_kind_by_kind_or_as_nothing():
    from engine.resarcana.essences import Essences

    assert str(Essences(gold=2, fire=1)) == "1 fire, 2 gold"
    assert str(Essences(calm=3)) == "3 calm"
    assert str(Essences()) == "nothing"
    assert not Essences() and Essences(death=1)
