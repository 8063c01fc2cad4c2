// The owner's catalog page: progress, import and export, Res Arcana enrollment.
"use strict";
const $ = (id) => document.getElementById(id);
let lastTap = null;
const MAX_UPLOAD = 47 * 1024; // firmware/web/catalog_transfer.py's MAX_UPLOAD

function li(text) {
  const element = document.createElement("li");
  element.textContent = text;
  return element;
}

function list(names) {
  return names.join(", ");
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
  return word("progress.count", { entered: count.entered, expected: count.expected }) +
    (count.extra ? word("progress.too_many", { n: count.extra }) : "");
}

// A card kind of the catalog ("agent", "game_end"...) in the page's language.
function kindName(kind) {
  return word("catalog.kind_" + kind);
}

function showProgress(p) {
  const name = p.name || word("progress.no_name");
  $("summary").textContent = word("progress.summary", { name, entered: p.entered, expected: p.expected, missing: p.missing }) +
    (p.exists ? "" : word("progress.no_file"));
  const rows = [row("", "", word("progress.entered_box"))];
  for (const guild of p.guilds) {
    const name = (guild.names || {})[words.language] || guild.name; // the catalog's, else the sample's
    for (const [kind, count] of Object.entries(guild.kinds)) rows.push(row(name, kindName(kind), shown(count)));
  }
  const kinds = Object.entries(p.market.kinds).map(([k, n]) => word("progress.market_kind", { n, kind: kindName(k) })).join(", ");
  rows.push(row(word("progress.market"), kinds, shown(p.market)));
  for (const [kind, count] of Object.entries(p.others)) rows.push(row("", kindName(kind), shown(count)));
  $("counts").replaceChildren(...rows);
  const dupes = p.duplicates.map((d) => li(word("progress.duplicate", { id: d.id, cards: list(d.cards) })));
  $("duplicates").replaceChildren(...(dupes.length ? dupes : [li(word("progress.none"))]));
  const tags = [li(word("progress.tags_bound", { n: p.tags.bound }))];
  for (const t of p.tags.not_in_catalog) tags.push(li(word("progress.not_in_catalog", { uid: t.uid, card: t.card })));
  for (const t of p.tags.bound_twice) tags.push(li(word("progress.bound_twice", { card: t.card, tags: list(t.tags) })));
  if (p.tags.without_tag.length) tags.push(li(word("progress.without_tag", { cards: list(p.tags.without_tag) })));
  $("tags").replaceChildren(...tags);
  const said = [...p.check.problems, ...p.check.lacking].map(li);
  $("problems").replaceChildren(...(said.length ? said : [li(word("progress.playable"))]));
}

function showEnrollment(data) {
  lastTap = data.tap;
  $("tap").textContent = data.tap
    ? word("progress.tag_on", { uid: data.tap.uid, pad: data.tap.pad }) +
      (data.tap.card ? word("progress.bound_to", { card: data.tap.shown }) : word("progress.not_bound"))
    : word("progress.no_tap");
  $("enrolled").textContent = word("progress.enrolled", { bound: data.bound, unbound: data.unbound });
  $("res-cards").replaceChildren(...data.cards.map((card) => {
    const button = document.createElement("button");
    button.textContent = card.shown + (card.tags.length ? " ✓" : "");
    button.className = card.tags.length ? "card" : "card greyed";
    button.title = card.tags.join(", ");
    button.addEventListener("click", () => bind(card.id, false));
    return button;
  }));
}

async function bind(card, rebind) {
  if (!lastTap) { $("message").textContent = word("progress.tap_first"); return; }
  try {
    const done = await call("POST", "/api/enroll/res-arcana", { tap: lastTap.seq, card, rebind });
    $("message").textContent = `${done.bound.uid} → ${done.bound.card}`;
  } catch (err) {
    if (err.status === 409 && err.data.rebind && confirm(err.message)) return bind(card, true);
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
    $("message").textContent = word("progress.too_big", { file: file.name, size: file.size, most: MAX_UPLOAD });
    input.value = "";
    return;
  }
  try {
    const data = base64(await file.arrayBuffer());
    const done = await call("POST", path, { ...body(file), data, rebind: $("rebind").checked });
    $("message").textContent = done.imported
      ? word("progress.imported_cards", { n: done.imported.cards }) +
        (done.imported.lacking.length ? word("progress.not_complete") : "")
      : done.warnings.length ? word("progress.imported_with", { warnings: done.warnings.join("; ") }) : word("progress.imported");
  } catch (err) {
    $("message").textContent = err.message;
  }
  input.value = "";
  refresh();
}

async function refresh() {
  try {
    const p = await call("GET", "/api/catalog/progress");
    // The game's language: a change on the table (its game choice) shows here too.
    await useWords(`/api/words?language=${encodeURIComponent(p.language)}`, p.language);
    showProgress(p);
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
// The table's language before any word is shown (English stays if the words cannot come).
useWords("/api/words").catch((err) => { $("message").textContent = err.message; }).finally(refresh);
