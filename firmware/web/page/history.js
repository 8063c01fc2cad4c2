// The owner's history: the journalled games, a record to download, a finished game's rounds.
// Only the owner's phone shows it (the API refuses any other role).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const line = (text, tag = "li") => {
    const element = document.createElement(tag);
    element.textContent = text;
    return element;
  };

  async function get(path) {
    const answer = await fetch(path);
    const data = await answer.json();
    if (!answer.ok) throw new Error(data.error || `HTTP ${answer.status}`);
    return data;
  }

  function when(seconds) {
    const date = new Date(seconds * 1000);
    return `${date.toLocaleDateString()} ${date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
  }

  const GAMES = { arcana: "choice.arcana", "res-arcana": "choice.res_arcana" };
  const STATUSES = {
    finished: "history.status_finished",
    abandoned: "history.status_abandoned",
    "in progress": "history.status_in_progress",
  };

  function outcome(game) {
    const scores = (game.scores || []).map((s) => `${s.name} ${s.vp}`).join(", ");
    if (game.status === "finished") {
      return word("history.won", { winners: game.winners.join(" & "), scores, round: game.round });
    }
    const round = game.round ? word("history.in_round", { round: game.round }) : "";
    const players = scores ? word("history.scores_vp", { scores }) : game.players.join(", ");
    const status = game.status in STATUSES ? word(STATUSES[game.status]) : game.status;
    return `${status}${round}${players ? `: ${players}` : ""}`;
  }

  async function showRounds(game, where) {
    try {
      const data = await get(`/api/history/${game.id}/rounds`);
      where.replaceChildren(...data.rounds.map((round) => {
        const block = document.createElement("div");
        block.className = "card";
        const scores = round.scores.map((s) => `${s.name} ${s.vp}`).join(", ");
        block.append(line(word("history.round", { round: round.round, scores }), "h3"));
        const plays = document.createElement("ol");
        for (const play of round.plays) {
          plays.append(line(`${play.player || word("history.the_table")} ${play.said}`));
          for (const event of play.events) plays.append(line(event, "p"));
        }
        block.append(plays);
        return block;
      }));
    } catch (err) {
      where.replaceChildren(line(err.message, "p"));
    }
  }

  function gameRow(game) {
    const row = document.createElement("li");
    row.className = "card";
    row.dataset.game = game.id;
    const name = game.game in GAMES ? word(GAMES[game.game]) : game.game;
    row.append(line(word("history.game", { id: game.id, when: when(game.started), name }), "strong"));
    row.append(line(outcome(game), "div"));
    if (game.problem) row.append(line(game.problem, "div"));
    const rounds = document.createElement("div");
    if (game.record) {
      const link = document.createElement("a");
      link.href = `/api/history/${game.id}/record`;
      link.download = `arcana-table-game-${game.id}.jsonl`;
      link.textContent = word("history.download");
      link.className = "button";
      row.append(link);
    }
    if (game.rounds) {
      const button = line(word("history.rounds"), "button");
      button.type = "button";
      button.addEventListener("click", () => showRounds(game, rounds));
      row.append(button);
    }
    row.append(rounds);
    return row;
  }

  async function showHistory() {
    try {
      const data = await get("/api/history");
      $("history-problem").textContent = data.problem || "";
      const games = data.games.slice().reverse(); // the newest first
      $("games").replaceChildren(...(games.length ? games.map(gameRow) : [line(word("history.no_games"))]));
      $("set-aside").replaceChildren(
        ...data.set_aside.map((aside) => line(word("history.set_aside", { what: aside.what, reason: aside.reason }))),
      );
    } catch (err) {
      $("history-problem").textContent = err.message;
    }
  }

  async function start() {
    try {
      const me = (await get("/api/me")).device;
      if (me.role.kind !== "owner") return;
    } catch {
      return; // not paired: phone.js says so
    }
    $("history-area").hidden = false;
    $("history-refresh").addEventListener("click", showHistory);
    showHistory();
  }

  start();
})();
