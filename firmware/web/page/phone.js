// The phone's page: the table as this device's role may see it, live by the event stream,
// in the table's language (page/words.js looks each word up by its key).
"use strict";
const $ = (id) => document.getElementById(id);
let me = null;

// A pairing role ({kind, seat, label}) in the page's language: "Owner", "Seat 2", "Spectator".
function roleName(role) {
  return role.kind === "seat" ? word("role.seat", { n: role.seat }) : word("role." + role.kind);
}

function item(text, className) {
  const element = document.createElement(className === "card" ? "div" : "li");
  element.textContent = text;
  if (className) element.className = className;
  return element;
}

function showState(state) {
  $("prompt").textContent = state.prompt || "";
  $("players-area").hidden = !state.players.length;
  $("players").replaceChildren(...state.players.map((p) => item(word("phone.player_vp", { name: p.shown, vp: p.vp }))));
  const hand = state.hand;
  $("hand-area").hidden = !hand;
  if (!hand) return;
  // Res Arcana: the seat's stock of essences and its VP
  $("stock").hidden = !hand.essences;
  if (hand.essences) {
    const counts = Object.entries(hand.essences).map(([k, count]) => `${word("essence." + k)} ${count}`);
    const essences = counts.join(", ");
    $("stock").textContent = word("phone.stock", { essences, vp: hand.vp });
  }
  $("hand").replaceChildren(...hand.cards.map((card) => {
    const shown = item(card.playable ? word("phone.playable", { name: card.name }) : card.name, "card");
    if (!card.playable) shown.classList.add("greyed");
    return shown;
  }));
  const secret = hand.secret || {};
  const lines = [
    ...(secret.face_down || []).map((a) => word("phone.face_down", { n: a.stake + 1, name: a.name })),
    ...(secret.tasks || []).map((t) => word("phone.task", { name: t.name })),
  ];
  const hidden = lines.length ? lines : [word("phone.nothing_hidden")];
  $("secret").replaceChildren(...hidden.map((l) => item(l, "card")));
}

async function showDevices() {
  const data = await call("GET", "/api/devices");
  $("devices").replaceChildren(...data.devices.map((device) => {
    const row = item(`${device.name} (${roleName(device.role)}) `);
    if (device.id !== me.id) {
      const revoke = document.createElement("button");
      revoke.textContent = word("phone.revoke");
      revoke.addEventListener("click", () => act("/api/revoke", { id: device.id }));
      row.append(revoke);
    }
    return row;
  }));
  $("offer").textContent = data.offer ? word("phone.waiting", { role: roleName(data.offer.role) }) : "";
}

async function act(path, body) {
  try {
    await call("POST", path, body);
    $("message").textContent = "";
  } catch (err) {
    $("message").textContent = err.message;
  }
  refresh();
}

async function refresh() {
  try {
    const state = await call("GET", "/api/state");
    const language = state.table.language;
    await useWords(`/api/words?language=${encodeURIComponent(language)}`, language);
    showState(state);
    offerButtons();
    if (me.role.kind === "owner") await showDevices();
    document.dispatchEvent(new Event("table-version")); // catalog.js listens
  } catch (err) {
    $("message").textContent = err.message;
  }
}

let spectators = false;
let connected = "phone.connecting";

// The owner's pairing buttons, drawn again in the words of the table's language.
function offerButtons() {
  if (!me || me.role.kind !== "owner" || $("offers").dataset.language === words.language) return;
  $("offers").dataset.language = words.language;
  $("connection").textContent = word(connected);
  const buttons = [1, 2, 3, 4].map((seat) => [word("phone.pair_seat", { n: seat }), { seat }]);
  if (spectators) buttons.push([word("phone.pair_spectator"), { spectator: true }]);
  const cancel = document.createElement("button");
  cancel.textContent = word("phone.cancel_pairing");
  cancel.addEventListener("click", () => act("/api/offers/withdraw", {}));
  $("offers").replaceChildren(...buttons.map(([label, body]) => {
    const button = document.createElement("button");
    button.textContent = label;
    button.addEventListener("click", () => act("/api/offers", body));
    return button;
  }), cancel);
}

async function start() {
  try {
    await useWords("/api/words"); // the table's language, before any word is shown
    const data = await call("GET", "/api/me");
    me = data.device;
    $("role").textContent = roleName(me.role);
    if (me.role.kind === "owner") {
      $("owner-area").hidden = false;
      setInterval(showDevices, 3000); // a phone paired or gone changes no screen: ask anew
      spectators = data.spectators;
    }
  } catch (err) {
    $("role").textContent = word("phone.not_paired");
    $("message").textContent = err.message;
    return;
  }
  $("forget").addEventListener("click", async () => {
    await act("/api/revoke", { id: me.id });
    location.reload();
  });
  const events = new EventSource("/api/events");
  events.addEventListener("version", refresh);
  events.onopen = () => { connected = "phone.live"; $("connection").textContent = word(connected); };
  events.onerror = () => { connected = "phone.offline"; $("connection").textContent = word(connected); };
  refresh();
}

start();
