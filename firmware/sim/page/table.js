// The simulator's page: draws the table from GET /api/state, taps and presses through the
// API, and refreshes whenever the server's event stream says the table changed.
// No build step and no libraries: plain DOM, textContent only (card names are data).
// Every word of the page is looked up by its key (page/words.js), in the screens' language.
"use strict";

const token = new URLSearchParams(location.search).get("token");
const seatPicker = document.getElementById("seat");
let selected = null; // the card id picked for the next tap
let current = null; // the last state drawn
// The seat is kept per tab (two players, two tabs): a reload keeps this tab's own seat.
let seat = sessionStorage.getItem("arcana-table-seat") || "";
let drawing = Promise.resolve();

function withToken(url) {
  if (!token) return url;
  return url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token);
}

async function api(method, url, body) {
  const options = { method, headers: {} };
  if (token) options.headers.Authorization = "Bearer " + token;
  if (method !== "GET") {
    // The server refuses a change without this type: a page elsewhere cannot send it unasked.
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body === undefined ? {} : body);
  }
  const response = await fetch(url, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  return { status: response.status, data };
}

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

function say(text, kind) {
  const message = document.getElementById("message");
  message.textContent = text || "";
  message.className = kind || "";
}

// -- drawing -----------------------------------------------------------------------------
function oled(role) {
  const image = element("img", {
    class: "oled",
    "data-display": role,
    alt: word("sim.oled", { role }),
    width: "256",
    height: "128",
  });
  return image;
}

function buildTable(table) {
  const pads = document.getElementById("pads");
  pads.replaceChildren();
  for (const role of table.pads) {
    const figure = element("figure", { class: "pad-place", "data-place": role });
    if (table.displays.includes(role)) figure.append(oled(role));
    const pad = element("button", { class: "pad", type: "button", "data-pad": role });
    pad.append(element("span", { class: "pad-name" }, role));
    pad.append(element("span", { class: "pad-role" }));
    pad.append(element("span", { class: "pad-caption" }));
    pad.addEventListener("click", () => tapOn(role));
    figure.append(pad);
    pads.append(figure);
  }
  const slot = document.getElementById("status-slot");
  slot.replaceChildren();
  for (const role of table.displays) {
    if (!table.pads.includes(role)) {
      const figure = element("figure", { class: "screen-place" });
      figure.append(oled(role), element("figcaption", {}, role));
      slot.append(figure);
    }
  }
  const buttons = document.getElementById("buttons");
  buttons.replaceChildren();
  for (const name of table.buttons) {
    const button = element("button", { type: "button", "data-button": name }, name);
    button.addEventListener("click", () => press(name, false));
    buttons.append(button);
    const holds = {
      undo: [word("sim.hold_undo"), word("sim.hold_undo_title")],
      select: [word("sim.hold_select"), word("sim.hold_select_title")],
    };
    if (holds[name] && (name !== "select" || table.focus)) {
      const [label, title] = holds[name];
      const hold = element("button", { type: "button", "data-button": name, "data-held": "true", title }, label);
      hold.addEventListener("click", () => press(name, true));
      buttons.append(hold);
    }
  }
}

function drawScreens(state) {
  for (const image of document.querySelectorAll("img.oled")) {
    const role = image.dataset.display;
    const hash = state.screens[role];
    if (image.dataset.hash !== hash) {
      image.dataset.hash = hash;
      image.src = withToken(`api/screens/${encodeURIComponent(role)}.png?scale=2&h=${hash}`);
    }
  }
}

// A card's kind and what a tap of it can do, in the page's language (the id if unknown).
const kindWord = (kind) => word("sim.kind_" + kind);
const actionWord = (action) => word("sim.action_" + action);
const effectWord = (effect) => word("catalog.effect_" + effect); // a location's, as the builder's

function cardButton(card, where) {
  const attributes = {
    type: "button",
    class: "card" + (card.playable === false ? " greyed" : ""),
    "data-card": card.id,
    "data-kind": card.kind,
    title: `${card.id} (${kindWord(card.kind)})` + (card.pads && card.pads.length ? " → " + card.pads.join(", ") : ""),
  };
  if (card.id === selected) attributes.class += " selected";
  const button = element("button", attributes);
  button.append(element("span", { class: "card-name" }, card.name));
  if (card.face) button.append(cardFace(card.face));
  const detail = card.actions && card.actions.length ? card.actions.map(actionWord).join(word("sim.separator")) : kindWord(card.kind);
  button.append(element("span", { class: "card-kind" }, detail));
  button.addEventListener("click", () => pick(card, where));
  return button;
}

// -- card faces and icons: the OLEDs' own icons, drawn from the legend's rows -----------
const ARCANA = ["military", "political", "spiritual", "financial"];
const ESSENCES = ["fire", "life", "calm", "death", "gold"];

function iconCanvas(name) {
  const entry = current && current.legend ? current.legend.find((e) => e.icon === name) : null;
  const canvas = element("canvas", { class: "icon", "data-icon": name, title: entry ? entry.means : name });
  if (!entry) return canvas;
  const rows = entry.rows;
  canvas.width = rows[0].length;
  canvas.height = rows.length;
  const context = canvas.getContext("2d");
  context.fillStyle = "#20180f";
  rows.forEach((row, y) => {
    [...row].forEach((pixel, x) => {
      if (pixel === "#") context.fillRect(x, y, 1, 1);
    });
  });
  return canvas;
}

function valued(name, value) {
  const item = element("span", { class: "value", "data-value": name });
  item.append(iconCanvas(name), document.createTextNode(String(value)));
  return item;
}

function essences(label, stock) {
  const line = element("span", { class: "face-line" });
  line.append(element("span", { class: "face-label" }, label));
  for (const essence of ESSENCES) if (stock && stock[essence]) line.append(valued(essence, stock[essence]));
  return line;
}

function cardFace(face) {
  // What the physical card prints: arcana values, main arcanum and threshold, VP (Arcana);
  // cost, production, power and VP (Res Arcana).
  const box = element("span", { class: "card-face" });
  if (face.arcana) {
    const line = element("span", { class: "face-line arcana" });
    for (const arcanum of ARCANA) line.append(valued(arcanum, face.arcana[arcanum]));
    box.append(line);
  }
  if (face.main) {
    const line = element("span", { class: "face-line main" });
    line.append(element("span", { class: "face-label" }, word("sim.needs")), valued(face.main, face.threshold));
    box.append(line);
  }
  if (face.cost && Object.keys(face.cost).length) box.append(essences(word("sim.cost"), face.cost));
  if (face.produces && Object.keys(face.produces).length) box.append(essences(word("sim.makes"), face.produces));
  if (face.power) {
    const power = essences(word("sim.power"), face.power.cost);
    const gains = Object.entries(face.power.gain || {}).map(([k, v]) => `+${v} ${word("essence." + k)}`);
    if (face.power.vp) gains.push(word("sim.gain_vp", { vp: face.power.vp }));
    if (gains.length) power.append(document.createTextNode(" → " + gains.join(", ")));
    box.append(power);
  }
  if (face.effect && face.effect !== "none") box.append(element("span", { class: "face-line" }, effectWord(face.effect)));
  if (face.vp) box.append(element("span", { class: "face-line vp" }, word("sim.vp", { vp: face.vp })));
  return box;
}

function drawLegend(state) {
  const list = document.getElementById("legend");
  if (list.dataset.drawn === words.language || !state.legend) return;
  list.dataset.drawn = words.language;
  list.replaceChildren(
    ...state.legend.map((entry) => {
      const item = element("li", { "data-icon": entry.icon });
      item.append(iconCanvas(entry.icon), document.createTextNode(" " + entry.means));
      return item;
    })
  );
}

function drawCards(containerId, cards, where) {
  const container = document.getElementById(containerId);
  container.replaceChildren(...cards.map((card) => cardButton(card, where)));
}

// The table's cards: grouped by kind, sorted by name, filtered by what is typed.
function drawTableCards(state) {
  const filter = document.getElementById("table-search").value.trim().toLowerCase();
  const cards = state.table_cards
    .filter((card) => !filter || card.id.includes(filter) || card.name.toLowerCase().includes(filter))
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name, undefined, { numeric: true }));
  const container = document.getElementById("table-cards");
  const groups = [];
  for (const card of cards) {
    let group = groups[groups.length - 1];
    if (!group || group.kind !== card.kind) groups.push((group = { kind: card.kind, cards: [] }));
    group.cards.push(card);
  }
  container.replaceChildren(
    ...groups.map((group) => {
      const section = element("div", { class: "card-group", "data-kind": group.kind });
      section.append(element("h3", {}, `${kindWord(group.kind)} (${group.cards.length})`));
      const list = element("div", { class: "cards" });
      list.append(...group.cards.map((card) => cardButton(card, "table")));
      section.append(list);
      return section;
    })
  );
}

function drawBox(state) {
  if (!document.getElementById("box-area").open) return; // drawn when opened
  const filter = document.getElementById("box-search").value.trim().toLowerCase();
  const cards = state.box.filter(
    (card) => !filter || card.id.includes(filter) || card.name.toLowerCase().includes(filter)
  );
  drawCards("box", cards, "box");
}

function drawSeats(state) {
  const wanted = [words.language, ...state.players.map((p) => `${p.seat}:${p.shown}`)].join(",");
  if (seatPicker.dataset.seats !== wanted) {
    seatPicker.dataset.seats = wanted;
    seatPicker.replaceChildren(element("option", { value: "" }, word("sim.nobody")));
    for (const player of state.players) {
      const label = word("sim.seat_option", { n: player.seat + 1, name: player.shown });
      seatPicker.append(element("option", { value: String(player.seat) }, label));
    }
  }
  seatPicker.value = state.seat === null ? "" : String(state.seat);
}

function drawPlayers(state) {
  const area = document.getElementById("players-area");
  area.hidden = state.players.length === 0;
  const over = state.phase === "over";
  document.getElementById("players-title").textContent = over ? word("score.ranking") : word("sim.players");
  const list = document.getElementById("players");
  list.className = over ? "ranking" : "";
  const players = over ? [...state.players].sort((a, b) => a.rank - b.rank) : state.players;
  list.replaceChildren(
    ...players.map((player) => {
      const item = element("li", { "data-seat": String(player.seat) });
      // the list itself is not numbered: the rank is the number (shared ranks repeat it)
      const rank = over ? `${player.rank}. ` : "";
      const line = word("sim.player_vp", { name: player.shown, vp: player.vp });
      item.textContent = rank + line + (player.winner ? word("sim.winner") : "");
      if (player.winner) item.classList.add("winner");
      return item;
    })
  );
}

function drawPads(state) {
  const stakes = state.view && state.view.stakes ? state.view.stakes : [];
  for (const pad of document.querySelectorAll("button.pad")) {
    // A minimal table's one pad stands for one of the game's pads at a time (hold select).
    const role = state.table.focus || pad.dataset.pad;
    const labels = state.pad_labels || {};
    pad.querySelector(".pad-name").textContent = labels[role] || role;
    pad.querySelector(".pad-role").textContent = labels[role] ? word("sim.pad", { role }) : "";
    let caption = state.table.focus ? word("sim.now", { label: labels[role] || role }) : "";
    const sitter = state.players.find((p) => p.pad === role);
    if (sitter) caption += (caption ? " · " : "") + sitter.shown;
    const index = state.table.roles.indexOf(role);
    if (stakes[index] && stakes[index].market_shown) {
      caption += (caption ? " · " : "") + stakes[index].market_shown;
    }
    pad.querySelector(".pad-caption").textContent = caption;
    pad.classList.toggle("target", Boolean(selected && selectedPads().includes(role)));
  }
}

function selectedPads() {
  if (!current || !selected) return [];
  const hand = current.hand || {};
  const cards = [...(hand.cards || []), ...(hand.on_stakes || []), ...current.table_cards];
  const card = cards.find((c) => c.id === selected);
  return card && card.pads ? card.pads : [];
}

function drawSecret(state) {
  const secret = document.getElementById("secret");
  secret.replaceChildren();
  if (!state.hand || !state.hand.secret) return;
  const faceDown = state.hand.secret.face_down || [];
  const tasks = state.hand.secret.tasks || [];
  const faceUp = state.hand.on_stakes || [];
  const labels = state.pad_labels || {};
  if (faceUp.length) {
    // A location's "move an agent" may take one of these too.
    secret.append(element("h3", {}, word("sim.face_up_title")));
    const list = element("div", { id: "face-up", class: "cards" });
    for (const agent of faceUp) {
      const where = labels[agent.pad] || word("sim.stake", { n: agent.stake + 1 });
      list.append(cardButton({ ...agent, kind: word("sim.face_up_on", { where }) }, "secret"));
    }
    secret.append(list);
  }
  if (faceDown.length) {
    // Clickable like any card: a location's "move an agent" asks for one of these.
    secret.append(element("h3", {}, word("sim.face_down_title")));
    const list = element("div", { id: "face-down", class: "cards" });
    for (const agent of faceDown) {
      const where = labels[agent.pad] || word("sim.stake", { n: agent.stake + 1 });
      const kind = word("sim.face_down_on", { where });
      list.append(cardButton({ id: agent.card, name: agent.name, kind }, "secret"));
    }
    secret.append(list);
  }
  if (tasks.length) {
    secret.append(element("h3", {}, word("sim.tasks_title")));
    const list = element("ul", { id: "tasks" });
    for (const task of tasks) list.append(element("li", { "data-card": task.card }, task.name));
    secret.append(list);
  }
}

function prompt(state) {
  if (state.phase === "setup") {
    if (state.game && state.prompt) return word("sim.setting_up_prompt", { prompt: state.prompt });
    return state.game ? word("sim.setting_up") : word("sim.choose");
  }
  if (state.phase === "over") return word("sim.over");
  if (state.prompt) return state.prompt; // what the status display asks, follow-ups included
  if (state.view && state.view.pending) return state.view.pending.prompt;
  if (state.view && state.view.current !== null && state.view.current !== undefined) {
    const player = state.players[state.view.current];
    const name = player ? player.shown : word("seating.seat", { n: state.view.current + 1 });
    return word("sim.to_act", { name });
  }
  return "";
}

function draw(state) {
  const layout = (table) => JSON.stringify({ ...table, focus: Boolean(table.focus) });
  if (!current || layout(current.table) !== layout(state.table)) buildTable(state.table);
  current = state;
  const game = { arcana: word("choice.arcana"), "res-arcana": word("choice.res_arcana") }[state.game];
  document.getElementById("game").textContent = state.game ? word("sim.game", { game: game || state.game }) : word("sim.choose_game");
  showConnection();
  drawScreens(state);
  drawSeats(state);
  drawPlayers(state);
  document.getElementById("prompt").textContent = prompt(state);
  drawLegend(state);
  const handArea = document.getElementById("hand-area");
  handArea.hidden = !state.hand;
  document.getElementById("seat-hint").hidden = Boolean(state.hand) || state.players.length === 0;
  if (state.hand) {
    const player = state.players[state.hand.seat];
    const title = word("sim.hand_of", { name: player.shown, n: state.hand.seat + 1 });
    document.getElementById("hand-title").textContent = title;
    drawCards("hand", state.hand.cards, "hand");
  }
  drawSecret(state);
  document.getElementById("table-cards-area").hidden = state.table_cards.length === 0;
  document.getElementById("table-cards-title").textContent = state.phase === "setup" ? word("sim.for_the_setup") : word("sim.for_the_table");
  drawTableCards(state);
  drawBox(state);
  drawPads(state);
  document.getElementById("new-game").hidden = state.phase !== "over";
  document.getElementById("record").textContent = state.record.map((line) => JSON.stringify(line)).join("\n");
  document.body.dataset.phase = state.phase;
  document.body.dataset.seat = state.seat === null ? "" : String(state.seat);
  document.body.dataset.version = String(state.version);
}

let queued = false;

async function refresh() {
  // One refresh at a time, in order: the page never draws an older state over a newer one.
  // A refresh that is already waiting its turn will fetch the newest state: join it.
  if (queued) return drawing;
  queued = true;
  drawing = drawing.then(async () => {
    queued = false;
    const url = seat === "" ? "api/state" : `api/state?seat=${encodeURIComponent(seat)}`;
    const { status, data } = await api("GET", url);
    if (status === 400 && seat !== "") {
      seat = ""; // that seat is gone (a new game): back to the table
      return refresh();
    }
    if (status !== 200) {
      say(data.error, "error");
      return;
    }
    // the page follows the language of the screens (its words; right to left for Persian)
    const language = data.table.language;
    await useWords(withToken(`api/words?language=${encodeURIComponent(language)}`), language);
    draw(data);
  }).catch((err) => say(String(err), "error"));
  return drawing;
}

// -- acting --------------------------------------------------------------------------------
function pick(card, where) {
  selected = selected === card.id ? null : card.id;
  if (selected) {
    const pads = card.pads && card.pads.length ? ` (${card.pads.join(", ")})` : "";
    say(word("sim.picked", { card: card.name, pads }), "hint");
  } else {
    say("");
  }
  for (const node of document.querySelectorAll(".card")) {
    node.classList.toggle("selected", node.dataset.card === selected);
  }
  drawPads(current);
}

async function report(result) {
  const { status, data } = result;
  if (status === 200) say(data.notice || "", data.notice ? "notice" : "");
  else say(data.error, "error");
  await refresh();
  // Tests (and curious people) can tell that the page has drawn the answer to an action.
  document.body.dataset.actions = String(Number(document.body.dataset.actions || 0) + 1);
}

async function tapOn(pad) {
  if (!selected) {
    say(word("sim.pick_first"), "hint");
    return;
  }
  const card = selected;
  selected = null;
  await report(await api("POST", "api/tap", { pad, card }));
}

async function press(name, held) {
  await report(await api("POST", "api/button", held ? { name, held } : { name }));
}

document.getElementById("new-game").addEventListener("click", async () => {
  await report(await api("POST", "api/new-game"));
});

seatPicker.addEventListener("change", () => {
  seat = seatPicker.value;
  sessionStorage.setItem("arcana-table-seat", seat);
  selected = null;
  refresh();
});

document.getElementById("box-search").addEventListener("input", () => current && drawBox(current));
document.getElementById("table-search").addEventListener("input", () => current && drawTableCards(current));
document.getElementById("box-area").addEventListener("toggle", () => current && drawBox(current));

let connected = "sim.connecting";

function showConnection() {
  const connection = document.getElementById("connection");
  connection.textContent = word(connected);
  connection.className = connected === "sim.live" ? "online" : "offline";
}

function listen() {
  const events = new EventSource(withToken("api/events"));
  events.addEventListener("version", (event) => {
    connected = "sim.live";
    showConnection();
    if (!current || Number(event.data) !== current.version) refresh();
  });
  events.onerror = () => {
    connected = "sim.reconnecting";
    showConnection();
  };
}

refresh();
listen();
