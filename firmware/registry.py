"""The card registry: which catalog card a tag stands for.

A tag may carry its card id (an NDEF text record written at enrollment); otherwise its UID
is looked up in the bindings. A written id wins when the catalog knows it, so a card keeps
its identity on any table.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping


class Registry:
    """Resolve taps to card ids of one game's cards.

    >>> Registry({"04aabb": "seer_orb"}, {"seer_orb", "brazier"}).card_for("04aabb", None)
    'seer_orb'
    """

    def __init__(self, bindings: Mapping[str, str], cards: Collection[str]) -> None:
        self._bindings = {uid.lower(): card for uid, card in bindings.items()}
        self._cards = frozenset(cards)

    def card_for(self, uid: str, written_id: str | None) -> str | None:
        """The card id of a tag, or None for an unknown card (to be enrolled)."""
        if written_id is not None and written_id in self._cards:
            return written_id
        card = self._bindings.get(uid.lower())
        return card if card in self._cards else None

    def bind(self, uid: str, card: str) -> None:
        self._bindings[uid.lower()] = card
