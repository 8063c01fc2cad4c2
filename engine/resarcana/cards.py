"""Every card of the simplified Res Arcana as data (rule [12]): 4 mages, 24 artifacts, 5
places, 6 monuments.

Ids are those of game records (`../shared/rules/res-arcana-simplified.md`); names are what a
screen shows. A power is `cost -> gain (+ VP tokens)`, usable once per round.

    CARDS["seer_orb"].name           # "Seer's Orb"
    CARDS["seer_orb"].power.vp       # 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.resarcana.essences import Essences

E = Essences
NOTHING = Essences()


@dataclass(frozen=True, slots=True)
class Power:
    """Pay `cost`, gain `gain` and `vp` VP tokens; once per round."""

    cost: Essences
    gain: Essences
    vp: int = 0

    def __str__(self) -> str:
        pay = "free" if not self.cost else f"pay {self.cost}"
        gains = [str(self.gain)] if self.gain else []
        if self.vp:
            gains.append(f"{self.vp} VP")
        return f"{pay} → {' and '.join(gains)}"


@dataclass(frozen=True, slots=True)
class Card:
    """One card: `kind` is "mage", "artifact", "place" or "monument"."""

    id: str
    name: str
    kind: str
    cost: Essences = NOTHING
    produces: Essences = NOTHING
    power: Power | None = None
    vp: int = 0

    def to_json(self) -> dict[str, Any]:
        """Plain data for screens and the companion."""
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "cost": self.cost.nonzero(),
            "produces": self.produces.nonzero(),
            "power": None
            if self.power is None
            else {
                "cost": self.power.cost.nonzero(),
                "gain": self.power.gain.nonzero(),
                "vp": self.power.vp,
            },
            "vp": self.vp,
        }


def _mage(id_: str, name: str, produces: Essences) -> Card:
    return Card(id_, name, "mage", produces=produces)


def _artifact(
    id_: str, name: str, cost: Essences, produces: Essences = NOTHING, power: Power | None = None
) -> Card:
    return Card(id_, name, "artifact", cost, produces, power)


MAGES: tuple[Card, ...] = (
    _mage("fire_mage", "Fire Mage", E(fire=1, life=1)),
    _mage("forest_healer", "Forest Healer", E(life=1, calm=1)),
    _mage("shadow_priest", "Shadow Priest", E(death=1, gold=1)),
    _mage("master_of_calm", "Master of Calm", E(calm=1, fire=1)),
)

ARTIFACTS: tuple[Card, ...] = (
    # producers
    _artifact("chalice_of_life", "Chalice of Life", E(life=1), E(life=1)),
    _artifact("mirror_of_calm", "Mirror of Calm", E(calm=1), E(calm=1)),
    _artifact("black_skull", "Black Skull", E(death=1), E(death=1)),
    _artifact("small_flame", "Small Flame", E(fire=1), E(fire=1)),
    _artifact("bag_of_gold", "Bag of Gold", E(gold=2), E(gold=1)),
    _artifact("healing_spring", "Healing Spring", E(life=3), E(life=2)),
    _artifact("death_bell", "Death Bell", E(death=3), E(death=2)),
    _artifact("brazier", "Brazier", E(fire=1, gold=2), E(fire=1, gold=1)),
    # converters
    _artifact(
        "alchemist_staff",
        "Alchemist's Staff",
        E(calm=1, death=1),
        power=Power(E(life=2), E(gold=2)),
    ),
    _artifact(
        "boiling_cauldron", "Boiling Cauldron", E(life=2), power=Power(E(), E(life=1, fire=1))
    ),
    _artifact("stone_armor", "Stone Armor", E(gold=1, calm=1), power=Power(E(), E(calm=2))),
    _artifact(
        "spell_scroll", "Spell Scroll", E(calm=2, death=1), power=Power(E(), E(calm=1, death=1))
    ),
    _artifact(
        "blood_dagger", "Blood Dagger", E(fire=1, death=1), E(fire=1), Power(E(fire=2), E(death=2))
    ),
    _artifact("shadow_book", "Shadow Book", E(death=2), E(death=1), Power(E(gold=1), E(death=3))),
    _artifact("phoenix_wing", "Phoenix Wing", E(fire=2, life=1), power=Power(E(life=1), E(fire=3))),
    _artifact("golden_scale", "Golden Scale", E(gold=2), power=Power(E(fire=1, calm=1), E(gold=2))),
    _artifact(
        "ancient_seed", "Ancient Seed", E(life=1), E(life=1), Power(E(life=3), E(fire=1, calm=1))
    ),
    _artifact("trade_ring", "Trade Ring", E(gold=1), power=Power(E(death=1), E(gold=1, life=1))),
    # VP makers
    _artifact("seer_orb", "Seer's Orb", E(calm=2), E(calm=1), Power(E(calm=3), E(), 1)),
    _artifact(
        "crown_of_thorns", "Crown of Thorns", E(life=1, death=1), power=Power(E(death=2), E(), 1)
    ),
    _artifact("eternal_lamp", "Eternal Lamp", E(fire=2), E(fire=1), Power(E(fire=3), E(), 1)),
    _artifact("secret_key", "Secret Key", E(calm=1), power=Power(E(gold=2), E(), 1)),
    _artifact("dragon_heart", "Dragon Heart", E(fire=3), E(fire=2), Power(E(fire=1), E(), 1)),
    _artifact(
        "ice_flower", "Ice Flower", E(calm=1, life=1), E(calm=1), Power(E(calm=2), E(life=1), 1)
    ),
)

PLACES: tuple[Card, ...] = (
    Card(
        "dragon_tower",
        "Dragon Tower",
        "place",
        E(fire=4, death=2),
        power=Power(E(fire=1), E(), 1),
        vp=2,
    ),
    Card("sacred_garden", "Sacred Garden", "place", E(life=6), E(life=2), vp=2),
    Card("calm_temple", "Calm Temple", "place", E(calm=5, gold=1), vp=3),
    Card(
        "death_crypt", "Death Crypt", "place", E(death=6), E(death=1), Power(E(death=2), E(), 1), 1
    ),
    Card("gold_mine", "Gold Mine", "place", E(gold=5), E(gold=1), vp=2),
)

MONUMENTS: tuple[Card, ...] = tuple(
    Card(f"monument_{n}", f"Monument {n}", "monument", E(gold=4), vp=2) for n in range(1, 7)
)

CARDS: dict[str, Card] = {card.id: card for card in MAGES + ARTIFACTS + PLACES + MONUMENTS}

KIND_WORDS = {
    "mage": "a mage",
    "artifact": "an artifact",
    "place": "a place of power",
    "monument": "a monument",
}


def name(card_id: str) -> str:
    """The printed name of a card id (`seer_orb` -> "Seer's Orb")."""
    return CARDS[card_id].name


def catalog() -> list[dict[str, Any]]:
    """Every card as plain data, mages first, in rules order (for the companion's screens)."""
    return [card.to_json() for card in CARDS.values()]
