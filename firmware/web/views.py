"""What the simulator's page may show: the public table, and one seat's hand in private.

Arcana keeps secrets: agents placed face down and the tasks each player kept. They appear
only in their owner's hand view (`hand(..., seat)`); everywhere else (the record, the replay
result, the engine's view) the engine's `engine.arcana.secrets` decides: hidden cards are
counted, never listed, and a record line that names one shows null. Res Arcana at the table
keeps none (the companion never sees hands).

    public_record(game, lines, viewer=None)     # the record as the viewer may see it
    public_result(game, state, rules, viewer)   # the replay result, hidden cards counted
    hand(game, rules, state, pads, seat)        # cards a seat holds, playable or greyed
                                                # (Res Arcana: and its essences and VP)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from firmware.controllers.base import Shelf
from firmware.language import code, res_arcana_name


def public_record(
    game: str, lines: list[dict[str, Any]], viewer: int | None, replay: Any = None
) -> list[Any]:
    """The record (header first) as `viewer` may see it; the header's catalog is kept by
    name only (a full catalog object would repeat every card's values). `replay`: an
    Arcana `PublicReplay` kept between calls, so a growing record replays only its new
    lines."""
    if game == "arcana":
        from engine.arcana import PublicReplay

        lines = (replay or PublicReplay()).records(lines, (viewer,))[viewer]
    if lines and isinstance(lines[0].get("setup", {}).get("catalog"), dict):
        setup = dict(lines[0]["setup"], catalog=lines[0]["setup"]["catalog"].get("name", "custom"))
        lines = [dict(lines[0], setup=setup), *lines[1:]]
    return lines


def public_result(game: str, rules: Any, state: Any, viewer: int | None) -> dict[str, Any]:
    """The replay result of the game so far as `viewer` may see it."""
    if game == "arcana":
        from engine.arcana import public_result as arcana_result

        return arcana_result(state, viewer)
    return rules.result(state)


def card_info(game: str | None, games: Shelf, card: str) -> dict[str, Any]:
    """A card's id, name (in the language of the screens), kind and `face`: the values
    printed on it (for the page's card faces). Only ever asked for cards the viewer may see."""
    if game == "res-arcana" or (game is None and card not in games.catalog.cards):
        from engine.resarcana import CARDS

        found = CARDS[card]
        printed = found.to_json()
        face = {key: printed[key] for key in ("cost", "produces", "power", "vp")}
        return {"id": card, "name": res_arcana_name(card), "kind": found.kind, "face": face}
    catalog = games.catalog
    kind = catalog.kind(card)
    found = catalog.cards[card]
    arcana_face: dict[str, Any] = {"vp": found.vp, "arcana": found.arcana}
    if found.is_market:
        kind = f"market_{kind}"  # the page names it: sim.kind_market_agent
        arcana_face.update(main=found.main, threshold=found.threshold)
    if found.effect:
        arcana_face["effect"] = found.effect
    name = catalog.card_name(card, code())
    return {"id": card, "name": name, "kind": kind, "face": arcana_face}


def card_box(game: str | None, games: Shelf) -> list[dict[str, str]]:
    """Every card of the game (or of both during the choice), grouped by kind, then name."""
    cards = [card_info(game, games, card) for card in games.cards(game)]
    return sorted(cards, key=lambda c: (c["kind"], c["name"], c["id"]))


def moves(
    game: str, rules: Any, state: Any, pads: Sequence[str]
) -> dict[int | None, dict[str, dict[str, set[str]]]]:
    """Legal actions by player (None: the table's own, such as a reveal), then by card:
    the action kinds and the pads a tap of that card goes to."""
    out: dict[int | None, dict[str, dict[str, set[str]]]] = {}
    for action in rules.legal_actions(state):
        player, kind, card = action.player, action.kind, action.card
        if game == "arcana":
            taps = _arcana_pads(action, pads[: len(state.stakes)])
        else:
            taps = [pads[player]] if player is not None and player < len(pads) else []
        if not card:
            continue  # a pass: a button, not a card
        entry = out.setdefault(player, {}).setdefault(card, {"kinds": set(), "pads": set()})
        entry["kinds"].add(kind)
        entry["pads"].update(taps)
    return out


def _arcana_pads(action: Any, pads: Sequence[str]) -> list[str]:
    if action.kind in ("discard", "location"):
        # after Select, or a location: tapped on any stake's pad (the screens then ask more)
        return list(pads)
    if action.stake is not None and action.stake < len(pads):
        return [pads[action.stake]]
    return []


def _entries(
    game: str,
    games: Shelf,
    cards: Iterable[str],
    playable: dict[str, dict[str, set[str]]],
) -> list[dict[str, Any]]:
    out = []
    for card in cards:
        info: dict[str, Any] = card_info(game, games, card)
        move = playable.get(card)
        # Discarding needs Select first and takes any card: it alone does not make it playable.
        info["playable"] = move is not None and bool(move["kinds"] - {"discard"})
        info["actions"] = sorted(move["kinds"]) if move else []
        info["pads"] = sorted(move["pads"]) if move else []
        out.append(info)
    return out


def hand(
    game: str, games: Shelf, rules: Any, state: Any, pads: Sequence[str], seat: int
) -> dict[str, Any]:
    """One seat's cards (playable now, or greyed) and, in Arcana, its secrets."""
    playable = moves(game, rules, state, pads).get(seat, {})
    if game == "arcana":
        from engine.arcana import view

        me = view(state, seat)["players"][seat]
        held = list(dict.fromkeys([*me["possession"], *sorted(playable)]))

        def name(card: str) -> str:
            return state.catalog.card_name(card, code())

        face_down = [
            {"stake": i, "pad": _pad(pads, i), "card": card, "name": name(card)}
            for i, stake in enumerate(state.stakes)
            for card, down in stake.agents[seat]
            if down
        ]
        tasks = [{"card": task, "name": name(task)} for task in state.tasks[seat]]
        secret = {"face_down": face_down, "tasks": tasks}
    else:
        from engine.resarcana import Position

        position = Position(state)
        tableau = position.tableau(seat)
        held = list(dict.fromkeys([*tableau, *sorted(playable)]))
        secret = {}
        # Res Arcana keeps no secret at the table (it never sees a hand): the seat's stock
        # of essences and its VP, as the engine counts them, head its page.
        stock = {"essences": position.essences(seat).as_dict(), "vp": position.vp(seat)}
        return {
            "seat": seat,
            "cards": _entries(game, games, held, playable),
            "secret": secret,
            **stock,
        }
    return {"seat": seat, "cards": _entries(game, games, held, playable), "secret": secret}


def _pad(pads: Sequence[str], stake: int) -> str | None:
    return pads[stake] if stake < len(pads) else None


def table_cards(game: str, games: Shelf, rules: Any, state: Any, pads: Sequence[str]) -> list[Any]:
    """Cards the table itself may take now (Arcana: the next market card of a stake)."""
    playable = moves(game, rules, state, pads).get(None, {})
    return _entries(game, games, sorted(playable), playable)


def setup_cards(games: Shelf, chooser: Any) -> list[dict[str, Any]]:
    """The cards the setup screens wait for, once the game is chosen: Res Arcana's mages;
    Arcana's guild bases, then the stakes' first market cards, then (advanced) the tasks.
    Cards already used are greyed, except tasks: which ones were kept stays secret."""
    inner = getattr(chooser, "inner", None)
    if inner is None:
        return []
    pads = tuple(getattr(inner, "pads", ()))
    if isinstance(getattr(inner, "mages", None), dict):  # Res Arcana: a mage takes a seat
        from engine.resarcana import CARDS

        mages = sorted(card for card, found in CARDS.items() if found.kind == "mage")
        # seats fill in pad order: the taken seats (to change a mage) and the next one
        free = next(seat for seat in range(len(pads) + 1) if seat not in inner.mages)
        seats = pads[: free + 1]
        return _setup_entries("res-arcana", games, mages, set(inner.mages.values()), "seat", seats)
    catalog = games.catalog
    phase = getattr(inner, "phase", None)
    if phase == "seats":
        bases = [catalog.base_of(guild) for guild in sorted(catalog.guilds)]
        seated = {catalog.base_of(guild) for guild in inner.guilds}
        return _setup_entries("arcana", games, bases, seated, "seat", pads)  # any pad
    if phase == "stakes":
        market = sorted(catalog.market)
        stakes = pads[: len(inner.stakes)]
        return _setup_entries("arcana", games, market, set(inner.stakes), "stake", stakes)
    if phase == "tasks":
        return _setup_entries("arcana", games, sorted(catalog.tasks), set(), "task", pads)
    return []


def _setup_entries(
    game: str, games: Shelf, cards: list[str], used: set[Any], kind: str, pads: Sequence[str]
) -> list[dict[str, Any]]:
    out = []
    for card in cards:
        info: dict[str, Any] = card_info(game, games, card)
        info["playable"] = card not in used
        info["actions"] = [kind]
        info["pads"] = list(pads)
        out.append(info)
    return out
