// The phone's page: the table as this device's role may see it, live by the event stream.
"use strict";
const $ = (id) => document.getElementById(id);
let me = null;

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body || {});
  }
  const answer = await fetch(path, options);
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || `HTTP ${answer.status}`);
  return data;
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
  $("players").replaceChildren(...state.players.map((p) => item(`${p.name}: ${p.vp} VP`)));
  const hand = state.hand;
  $("hand-area").hidden = !hand;
  if (!hand) return;
  $("hand").replaceChildren(...hand.cards.map((card) => {
    const shown = item(card.playable ? `${card.name} (playable)` : card.name, "card");
    if (!card.playable) shown.classList.add("greyed");
    return shown;
  }));
  const secret = hand.secret || {};
  const lines = [
    ...(secret.face_down || []).map((a) => `Face down at stake ${a.stake + 1}: ${a.name}`),
    ...(secret.tasks || []).map((t) => `Task kept: ${t.name}`),
  ];
  $("secret").replaceChildren(...(lines.length ? lines : ["Nothing hidden"]).map((l) => item(l, "card")));
}

async function showDevices() {
  const data = await call("GET", "/api/devices");
  $("devices").replaceChildren(...data.devices.map((device) => {
    const row = item(`${device.name} (${device.role.label}) `);
    if (device.id !== me.id) {
      const revoke = document.createElement("button");
      revoke.textContent = "Revoke";
      revoke.addEventListener("click", () => act("/api/revoke", { id: device.id }));
      row.append(revoke);
    }
    return row;
  }));
  $("offer").textContent = data.offer ? `Waiting for ${data.offer.role.label} to scan…` : "";
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
    showState(state);
    if (me.role.kind === "owner") await showDevices();
    document.dispatchEvent(new Event("table-version")); // catalog.js listens
  } catch (err) {
    $("message").textContent = err.message;
  }
}

async function start() {
  try {
    const data = await call("GET", "/api/me");
    me = data.device;
    $("role").textContent = me.role.label;
    if (me.role.kind === "owner") {
      $("owner-area").hidden = false;
      setInterval(showDevices, 3000); // a phone paired or gone changes no screen: ask anew
      const buttons = [1, 2, 3, 4].map((seat) => [`Pair seat ${seat}`, { seat }]);
      if (data.spectators) buttons.push(["Pair a spectator", { spectator: true }]);
      const cancel = document.createElement("button");
      cancel.textContent = "Cancel pairing";
      cancel.addEventListener("click", () => act("/api/offers/withdraw", {}));
      $("offers").replaceChildren(...buttons.map(([label, body]) => {
        const button = document.createElement("button");
        button.textContent = label;
        button.addEventListener("click", () => act("/api/offers", body));
        return button;
      }), cancel);
    }
  } catch (err) {
    $("role").textContent = "not paired";
    $("message").textContent = err.message;
    return;
  }
  $("forget").addEventListener("click", async () => {
    await act("/api/revoke", { id: me.id });
    location.reload();
  });
  const events = new EventSource("/api/events");
  events.addEventListener("version", refresh);
  events.onopen = () => { $("connection").textContent = "live"; };
  events.onerror = () => { $("connection").textContent = "offline"; };
  refresh();
}

start();
