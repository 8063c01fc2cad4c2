"""The owner's history pages: the journalled games, a game's record, a finished game's rounds.

    listing(state_dir)          # {"games": [...], "set_aside": [...], "problem": None}
    record(state_dir, 3)        # the bytes `arcana-table export 3 -o FILE` writes
    rounds(state_dir, 3)        # per round: what was played, the evaluations, the scores

Everything is read from the state directory's journal opened read-only (as `history` and
`export` do, so it is safe while the table plays, and never on the table loop's thread).
What leaves for a phone follows docs/records.md, "Hidden cards": an Arcana game still in
progress (or abandoned) names its face-down agents and kept tasks, so neither its record nor
its rounds are served, only its players and the VP the table's screens show; a finished
game's every card was turned up for the scoring, so its record and rounds are served whole.
A game the journal cannot read is listed with its reason; the others still are.
An abandoned game never changes, so its replayed VP are kept (`_ABANDONED`): a journal of
many abandoned games is replayed once, not on every request for the list.
A game's rounds are in its own language (its setup's `language`, as the table showed it),
in the words of the table's undo notices (`undo.*`) and screens (`stake.label`, `arcanum.*`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.protocol import Rejection
from engine.records import RecordError, load, parse_header, parse_line, rules_for, split
from firmware.journal import GameEntry, Journal, JournalError, SetAside
from firmware.journal_file import set_aside_files
from firmware.language import code, codes, res_arcana_name, text, using
from firmware.web.sentences import from_error, said

BUSY_S = 2.0  # the table writes in short transactions: a reader waits this long at most
ABANDONED_KEPT = 256  # abandoned games whose replayed scores are kept (the oldest go first)
# (journal file, game id, started, finished) -> the entry's replayed part
_KEEPING = threading.Lock()  # the web app's handlers may list from several threads
_ABANDONED: OrderedDict[tuple[str, int, float, float | None], dict[str, Any]] = OrderedDict()


class HistoryRefused(JournalError):
    """A history request that cannot be answered: `status` (HTTP) and a sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@contextmanager
def _journal(state_dir: Path) -> Iterator[Journal]:
    try:
        journal = Journal.open(state_dir, read_only=True, busy_s=BUSY_S)
    except JournalError as err:
        raise HistoryRefused(503, from_error(err)) from None
    with journal:
        yield journal


# -- the list ---------------------------------------------------------------------------------
def listing(state_dir: Path) -> dict[str, Any]:
    """Every readable game (oldest first) and whatever the journal set aside, with reasons.
    A journal that cannot be opened at all is `problem` (a sentence); its set-aside files
    are still listed."""
    try:
        with _journal(state_dir) as journal:
            games = journal.games()
            asides = journal.set_aside()
            entries = [_entry(journal, game) for game in games]
    except HistoryRefused as err:
        asides = set_aside_files(Path(state_dir) / "journal.sqlite3")
        return {"games": [], "set_aside": [_aside(a) for a in asides], "problem": err.message}
    return {"games": entries, "set_aside": [_aside(a) for a in asides], "problem": None}


def _status(entry: GameEntry) -> str:
    if entry.result is None:
        return "in progress"
    return "abandoned" if "abandoned" in entry.result else "finished"


def _entry(journal: Journal, entry: GameEntry) -> dict[str, Any]:
    status = _status(entry)
    out: dict[str, Any] = {
        "id": entry.id,
        "game": entry.game,
        "started": entry.started,
        "finished": entry.finished,
        "status": status,
        "record": _may_download(entry),
        "rounds": status == "finished",
    }
    if status == "finished":
        assert entry.result is not None
        return {**out, **_scores(entry.result), "problem": None}
    if entry.result is None:
        return {**out, **_replayed(journal, entry, None)[0]}
    key = (str(journal.path), entry.id, entry.started, entry.finished)
    with _KEEPING:
        kept = _ABANDONED.get(key)
        if kept is not None:
            _ABANDONED.move_to_end(key)
            return {**out, **kept}
    abandoned = said("game_abandoned_because", reason=entry.result["abandoned"])
    replayed, ok = _replayed(journal, entry, abandoned)
    if ok:  # a failed replay (a busy journal, say) is tried again next time
        with _KEEPING:
            _ABANDONED[key] = replayed
            while len(_ABANDONED) > ABANDONED_KEPT:
                _ABANDONED.popitem(last=False)
    return {**out, **replayed}


def _replayed(
    journal: Journal, entry: GameEntry, problem: str | None
) -> tuple[dict[str, Any], bool]:
    """A game not over replayed for the VP the table's screens show everyone (the result's
    VP names no card; its winners are none yet), and whether it replayed."""
    try:
        rules, state, _ = load(journal.record(entry.id))
    except (JournalError, RecordError) as err:
        names = _setup_names(journal, entry.id)
        error = from_error(err) if isinstance(err, JournalError) else str(err)
        problem = said("game_does_not_replay", game=entry.id, error=error)
        return {"players": names, "scores": None, "winners": [], "round": None,
                "problem": problem}, False  # fmt: skip
    return {**_scores(rules.result(state)), "winners": [], "problem": problem}, True


def _scores(result: dict[str, Any]) -> dict[str, Any]:
    """The players, their VP, the winners and the round of a replay result."""
    players = result["players"]
    return {
        "players": [p["name"] for p in players],
        "scores": [{"name": p["name"], "vp": p["vp"]} for p in players],
        "winners": list(result.get("winners", [])),
        "round": result.get("round"),
    }


def _setup_names(journal: Journal, game_id: int) -> list[str]:
    """The players a setup names (Arcana's {"name", "guild"}, Res Arcana's names)."""
    try:
        _, setup = journal.setup(game_id)
    except (JournalError, KeyError):
        return []
    players = setup.get("players")
    if not isinstance(players, list):
        return []
    names = [p.get("name") if isinstance(p, dict) else p for p in players]
    return [name for name in names if isinstance(name, str)]


def _may_download(entry: GameEntry) -> bool:
    """An Arcana record names the face-down agents and kept tasks until the game is over."""
    return entry.game != "arcana" or _status(entry) == "finished"


def _aside(aside: SetAside) -> dict[str, Any]:
    return {"what": aside.what, "reason": aside.reason, "at": aside.at}


# -- one game ---------------------------------------------------------------------------------
def _find(journal: Journal, game_id: int) -> GameEntry:
    for entry in journal.games():
        if entry.id == game_id:
            return entry
    for aside in journal.set_aside():
        if aside.what == f"game {game_id}":
            raise HistoryRefused(409, said("game_set_aside", game=game_id, reason=aside.reason))
    raise HistoryRefused(404, said("no_game", game=game_id))


def record(state_dir: Path, game_id: int) -> bytes:
    """The game's record, byte for byte what `arcana-table export GAME -o FILE` writes."""
    with _journal(state_dir) as journal:
        entry = _find(journal, game_id)
        if not _may_download(entry):
            raise HistoryRefused(403, said("game_not_over", game=game_id))
        return journal.record(game_id).encode("utf-8")


def rounds(state_dir: Path, game_id: int) -> dict[str, Any]:
    """A finished game round by round: each line played (who, what), the evaluations and
    bribes, and every player's VP once the round is over."""
    with _journal(state_dir) as journal:
        entry = _find(journal, game_id)
        if _status(entry) != "finished":
            key = "rounds_in_progress" if entry.result is None else "rounds_abandoned"
            raise HistoryRefused(409, said(key, game=game_id))
        lines = [line for line in split(journal.record(game_id)) if line.strip()]
    try:
        return {"id": game_id, "game": entry.game, **_replay_rounds(entry.game, lines)}
    except RecordError as err:
        raise HistoryRefused(422, said("no_longer_replays", game=game_id, error=str(err))) from None


def _replay_rounds(game: str, lines: list[str]) -> dict[str, Any]:
    rules = rules_for(game)
    _, setup = parse_header(parse_line(lines[0]))
    state = rules.setup(setup)
    result = rules.result(state)
    names = [p["name"] for p in result["players"]]
    out: list[dict[str, Any]] = []
    # In the game's language (its setup's, as the table showed it), whoever asks: the words
    # the table's own undo notices and screens use for its moves, struggles and bribes.
    with using(_language(setup)):
        for number, line_text in enumerate(lines[1:], start=2):
            line = parse_line(line_text)
            played_in = result["round"]
            if not out or out[-1]["round"] != played_in:
                out.append({"round": played_in, "plays": [], "scores": []})
            try:
                action = rules.decode_action(line)
            except RecordError as err:
                raise err.at(number) from None
            outcome = rules.apply(state, action)
            if isinstance(outcome, Rejection):
                raise RecordError(outcome.message, number)
            player = line.get("player")
            out[-1]["plays"].append(
                {
                    "player": names[player] if isinstance(player, int) else None,
                    "said": _said(game, state, line, outcome.events),
                    "events": list(_events(game, state, outcome.events, names)),
                }
            )
            state = outcome.state
            result = rules.result(state)
            out[-1]["scores"] = [{"name": p["name"], "vp": p["vp"]} for p in result["players"]]
    return {"players": names, "winners": result.get("winners", []), "rounds": out}


def _language(setup: dict[str, Any]) -> str | None:
    """The game's language from its setup; one the table has no catalog for (a journal from
    another table) is English."""
    chosen = str(setup.get("language") or "")
    return chosen if chosen in codes() else None


def _card_name(game: str, state: Any, card: str) -> str:
    if game == "arcana":
        return str(state.catalog.card_name(card, code()))
    from engine.resarcana import CARDS

    return res_arcana_name(card) if card in CARDS else card


def _said(game: str, state: Any, line: dict[str, Any], events: tuple[Any, ...]) -> str:
    """ "placed Blades agent 3 on stake 2 (face down)", as the undo notices word it."""
    action = str(line["action"])  # decoded already: every line has its action
    card = _card_name(game, state, str(line["card"])) if "card" in line else ""
    said = text(f"undo.{action}", card=card).strip()  # every action of both games has one
    if isinstance(line.get("stake"), int):
        said = text("undo.on_stake", what=said, n=line["stake"] + 1)
    if any(getattr(event, "face_down", False) for event in events):
        said += text("history.face_down")
    return said


def _events(game: str, state: Any, events: tuple[Any, ...], names: list[str]) -> Iterator[str]:
    """The outcomes a line brought about that the whole table saw: power struggles, bribes,
    the end of the game."""
    if game != "arcana":
        return
    for event in events:
        kind = event.kind
        if kind == "stake_evaluated":
            card = _card_name(game, state, event.market)
            strengths = ", ".join(f"{names[p]} {s}" for p, s in enumerate(event.strengths))
            who = (
                text("history.nobody_wins")
                if event.winner is None
                else text("history.wins", name=names[event.winner])
            )
            yield text(
                "history.struggle",
                stake=text("stake.label", n=event.stake + 1),
                card=card,
                arcanum=text(f"arcanum.{event.arcanum}"),
                threshold=event.threshold,
                who=who,
                strengths=strengths,
            )
        elif kind == "bribed":
            card = _card_name(game, state, event.market)
            yield text(
                "history.bribe_succeeds" if event.success else "history.bribe_fails",
                n=event.stake + 1,
                card=card,
                value=event.bribe_value,
                needed=event.needed,
            )
        elif kind == "game_ended":
            totals = ", ".join(f"{names[p]} {t}" for p, t in enumerate(event.totals))
            yield text("history.game_over", totals=totals)
