"""Res Arcana enrollment from the owner's phone: its 39 cards are known, so the page lists
them with the tags bound to each, and binds the tag just tapped on any pad to the card the
owner chooses (`firmware/web/app.py` routes it, owner only).

    enrolling = ResArcanaEnrollment(live, taps)
    await enrolling.cards(request)     # GET  /api/enroll/res-arcana
    await enrolling.bind(request)      # POST /api/enroll/res-arcana {"tap": seq, "card": id}

The tap is named by its `seq` (`firmware.web.taps`): a tag tapped since the owner chose is
refused (409), never bound by mistake. A tag bound to another card is re-bound only with
`"rebind": true` (409 asks first), as `arcana-table enroll` asks. The journal is written on
the table loop's thread, and the running table's registry learns the binding at once.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from engine.resarcana import CARDS, name
from firmware.enrollment import EnrollError, Enrollment, NeedsConfirmation
from firmware.language import code, res_arcana_name, using
from firmware.web import guard
from firmware.web.live import LiveTable
from firmware.web.sentences import from_error, said
from firmware.web.taps import Taps

RES_ARCANA = "res-arcana"  # the journal's catalog name for Res Arcana's bindings


def teach_table(live: LiveTable) -> None:
    """On the loop's thread: the running table knows every binding of the journal now (the
    shelf's dict, which the table's enrollment shares, and the companion's registry)."""
    bindings = live.journal.bindings()
    live.games.bindings.clear()
    live.games.bindings.update(bindings)
    registry = live.companion.registry
    for uid, card in bindings.items():
        registry.bind(uid, card)


class ResArcanaEnrollment:
    def __init__(self, live: LiveTable, taps: Taps) -> None:
        self.live = live
        self.taps = taps

    def _enrollment(self) -> Enrollment:
        return Enrollment(self.live.journal, RES_ARCANA, {card: name(card) for card in CARDS})

    async def cards(self, request: web.Request) -> web.Response:
        """Every Res Arcana card with its tags (`shown`: its name in the game's language), and
        the last tap (with the card it stands for)."""

        def read() -> dict[str, Any]:
            everything = self.live.journal.bindings()
            tags: dict[str, list[str]] = {}
            for uid, card in self.live.journal.bindings(RES_ARCANA).items():
                tags.setdefault(card, []).append(uid)
            last = self.taps.last()
            with using(self.live.language):  # the game's language, as the page's words
                if last is not None:
                    last["card"] = everything.get(last["uid"])
                    last["shown"] = self._shown(last["card"])
                listed = [
                    {
                        "id": card,
                        "name": name(card),
                        "shown": res_arcana_name(card),  # as the screens name it
                        "kind": CARDS[card].kind,
                        "tags": tags.get(card, []),
                    }
                    for card in CARDS
                ]
            bound = sum(1 for card in listed if card["tags"])
            return {"cards": listed, "bound": bound, "unbound": len(listed) - bound, "tap": last}

        return web.json_response(await self.live.ask(read))

    def _shown(self, card: str | None) -> str | None:
        """A bound card's name in the current language (Res Arcana's, else the catalog's)."""
        if card is None:
            return None
        if card in CARDS:
            return res_arcana_name(card)
        return self.live.games.catalog.card_name(card, code())

    async def bind(self, request: web.Request) -> web.Response:
        """{"tap": seq, "card": id, "rebind": bool}: bind the tag of that tap to the card."""
        body = guard.json_object(request, ("tap", "card"))
        last = self.taps.last()
        if last is None or body["tap"] != last["seq"]:
            raise guard.Refused(409, said("tap_again"))
        card, rebind = body["card"], body.get("rebind") is True
        if not isinstance(card, str):
            raise guard.Refused(400, said("res_arcana_card_id"))

        def bind() -> dict[str, Any]:
            bound = self._enrollment().bind(last["uid"], card, rebind=rebind)
            teach_table(self.live)
            return {
                "uid": bound.uid,
                "card": bound.card,
                "previous": bound.previous,
                "warnings": list(bound.warnings),
            }

        try:
            done = await self.live.ask(bind)
        except NeedsConfirmation as ask:
            message = said("rebind_tag", uid=ask.uid, current=ask.current, wanted=ask.wanted)
            raise guard.Refused(409, message, rebind=ask.current) from None
        except EnrollError as err:
            raise guard.Refused(400, from_error(err)) from None
        done["warnings"] = await guard.say_all(request, done["warnings"])
        return web.json_response({"bound": done})
