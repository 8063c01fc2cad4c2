// The owner's catalog page: progress, import and export, Res Arcana enrollment.
"use strict";
const $ = (id) => document.getElementById(id);
let lastTap = null;
const MAX_UPLOAD = 47 * 1024; // firmware/web/catalog_transfer.py's MAX_UPLOAD

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body || {});
  }
  const answer = await fetch(path, options);
  const data = await answer.json();
  if (!answer.ok) {
    const error = new Error(data.error || `HTTP ${answer.status}`);
    error.status = answer.status;
    throw error;
  }
  return data;
}

function li(text) {
  const element = document.createElement("li");
  element.textContent = text;
  return element;
}

function row(...cells) {
  const tr = document.createElement("tr");
  tr.append(...cells.map((text) => {
    const td = document.createElement("td");
    td.textContent = text;
    return td;
  }));
  return tr;
}

function shown(count) {
  return `${count.entered} / ${count.expected}` + (count.extra ? ` (${count.extra} too many)` : "");
}

function showProgress(p) {
  $("summary").textContent = `${p.name || "(no name)"}: ${p.entered} of ${p.expected} cards entered, ` +
    `${p.missing} missing` + (p.exists ? "" : " (no catalog file yet)");
  const rows = [row("", "", "entered / box")];
  for (const guild of p.guilds) {
    for (const [kind, count] of Object.entries(guild.kinds)) rows.push(row(guild.name, kind, shown(count)));
  }
  const kinds = Object.entries(p.market.kinds).map(([k, n]) => `${n} ${k}`).join(", ");
  rows.push(row("Market", kinds, shown(p.market)));
  for (const [kind, count] of Object.entries(p.others)) rows.push(row("", kind, shown(count)));
  $("counts").replaceChildren(...rows);
  const dupes = p.duplicates.map((d) => li(`${d.id}: cards ${d.cards.join(", ")}`));
  $("duplicates").replaceChildren(...(dupes.length ? dupes : [li("none")]));
  const tags = [li(`${p.tags.bound} tags bound`)];
  for (const t of p.tags.not_in_catalog) tags.push(li(`tag ${t.uid} is bound to ${t.card}, not in the catalog`));
  for (const t of p.tags.bound_twice) tags.push(li(`${t.card} has tags ${t.tags.join(", ")}`));
  if (p.tags.without_tag.length) tags.push(li(`no tag yet: ${p.tags.without_tag.join(", ")}`));
  $("tags").replaceChildren(...tags);
  const said = [...p.check.problems, ...p.check.lacking].map(li);
  $("problems").replaceChildren(...(said.length ? said : [li("ok: the catalog can be played")]));
}

function showEnrollment(data) {
  lastTap = data.tap;
  $("tap").textContent = data.tap
    ? `Tag ${data.tap.uid} on ${data.tap.pad}` + (data.tap.card ? ` (bound to ${data.tap.card})` : " (not bound)")
    : "No tag tapped yet";
  $("enrolled").textContent = `${data.bound} cards bound, ${data.unbound} without a tag`;
  $("res-cards").replaceChildren(...data.cards.map((card) => {
    const button = document.createElement("button");
    button.textContent = `${card.name}` + (card.tags.length ? " ✓" : "");
    button.className = card.tags.length ? "card" : "card greyed";
    button.title = card.tags.join(", ");
    button.addEventListener("click", () => bind(card.id, false));
    return button;
  }));
}

async function bind(card, rebind) {
  if (!lastTap) { $("message").textContent = "Tap a tag first"; return; }
  try {
    const done = await call("POST", "/api/enroll/res-arcana", { tap: lastTap.seq, card, rebind });
    $("message").textContent = `${done.bound.uid} → ${done.bound.card}`;
  } catch (err) {
    if (err.status === 409 && err.message.includes("re-bind") && confirm(err.message)) return bind(card, true);
    $("message").textContent = err.message;
  }
  refresh();
}

function base64(buffer) {
  let text = "";
  const bytes = new Uint8Array(buffer);
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

async function upload(input, path, body) {
  const file = input.files[0];
  if (!file) return;
  if (file.size > MAX_UPLOAD) {
    $("message").textContent = `${file.name} has ${file.size} bytes; the table takes at most ${MAX_UPLOAD}`;
    input.value = "";
    return;
  }
  try {
    const data = base64(await file.arrayBuffer());
    const done = await call("POST", path, { ...body(file), data, rebind: $("rebind").checked });
    $("message").textContent = done.imported
      ? `Imported ${done.imported.cards} cards` + (done.imported.lacking.length ? "; not complete yet" : "")
      : `Imported` + (done.warnings.length ? `: ${done.warnings.join("; ")}` : "");
  } catch (err) {
    $("message").textContent = err.message;
  }
  input.value = "";
  refresh();
}

async function refresh() {
  try {
    showProgress(await call("GET", "/api/catalog/progress"));
    showEnrollment(await call("GET", "/api/enroll/res-arcana"));
  } catch (err) {
    $("message").textContent = err.message;
  }
}

$("catalog-file").addEventListener("change", (event) => upload(event.target, "/api/catalog/import",
  (file) => ({ format: file.name.toLowerCase().endsWith(".csv") ? "csv" : "toml" })));
$("tags-file").addEventListener("change", (event) => upload(event.target, "/api/bindings/import",
  () => ({ game: $("tags-game").value })));
const events = new EventSource("/api/events");
events.addEventListener("version", refresh);
setInterval(refresh, 3000); // a tap on a bound tag may change no screen: ask anew
refresh();
