// The owner's catalog builder (firmware/web/catalog_form.py): a card tapped on any pad opens
// its form here; each field is checked as it is typed, with `catalog check`'s sentences.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const form = $("card-form");
  const NUMBERS = new Set(["vp", "count", "arcana.military", "arcana.political",
    "arcana.spiritual", "arcana.financial"]);
  let building = false;
  let shown = null; // {tap, form} on screen
  let checking = null;
  const CHECK_MS = 150;
  // What the status line says, as a function that words it, so that it is said again in a
  // new language (page/words.js's "words" event); null: the intro of phone.html.
  let status = null;

  function say(wording) {
    status = wording;
    showStatus();
  }

  function showStatus() {
    if (status) $("catalog-status").textContent = status();
  }

  function showTag() {
    if (!shown) return;
    const tag = shown.tap;
    $("card-tag").textContent = shown.form.known
      ? word("catalog.tag_known", { uid: tag.uid, pad: tag.pad, card: shown.form.replaces })
      : word("catalog.tag_new", { uid: tag.uid, pad: tag.pad });
  }

  function field(name) { return form.elements.namedItem(name); }

  function showKind() {
    const kind = field("kind").value;
    for (const part of form.querySelectorAll("[data-kinds]")) {
      part.hidden = !part.dataset.kinds.split(" ").includes(kind);
    }
    // A fief is printed on market cards and tasks: a guild card's form has none to type.
    const fief = field("fief").closest("[data-kinds]");
    fief.hidden = fief.hidden || (kind !== "task" && !field("main").value);
  }

  function visible(input) { return !input.closest("[hidden]"); }

  // The draft as the catalog object has it: blank fields left out, whole numbers as numbers
  // (anything else as typed, so the checker names it).
  function draft() {
    const entry = {};
    for (const input of form.querySelectorAll("input:not([type=checkbox]), select")) {
      const value = input.value.trim();
      if (!value || !visible(input)) continue;
      const typed = NUMBERS.has(input.name) && /^\d+$/.test(value) ? Number(value) : value;
      if (input.name.startsWith("arcana.")) {
        entry.arcana = entry.arcana || {};
        entry.arcana[input.name.slice(7)] = typed;
      } else {
        entry[input.name] = typed;
      }
    }
    return entry;
  }

  function showProblems(problems) {
    const places = new Map([...form.querySelectorAll(".problem")].map((p) => [p.dataset.for, p]));
    for (const place of places.values()) place.textContent = "";
    for (const [key, sentences] of Object.entries(problems || {})) {
      const place = places.get(key) || places.get(key.split(".")[0]) || places.get("");
      place.textContent = [place.textContent, ...sentences].filter(Boolean).join(" ");
    }
  }

  function fill(answer) {
    const entry = answer.form.entry;
    const guild = field("guild");
    guild.replaceChildren(guild.options[0], ...answer.guilds.map((g) => new Option(g, g)));
    for (const input of form.querySelectorAll("input:not([type=checkbox]), select")) {
      const [key, sub] = input.name.split(".");
      const value = sub ? (entry.arcana || {})[sub] : entry[key];
      input.value = value === undefined || value === null ? "" : String(value);
    }
    if (!entry.kind) field("kind").value = "agent";
    field("rebind").checked = false;
    $("rebind-line").hidden = true;
    showTag();
    form.hidden = false;
    showKind();
    showProblems({});
    // The cursor where typing starts: the first empty field shown (the values, mostly).
    const empty = [...form.querySelectorAll("input:not([type=checkbox])")]
      .find((input) => visible(input) && !input.value);
    (empty || field("id")).focus();
    check();
  }

  let inFlight = 0;
  let timer = null;
  function soon() { // one check once typing pauses, not one a keystroke
    form.dataset.checking = "typing";
    clearTimeout(timer);
    timer = setTimeout(() => { timer = null; check(); }, CHECK_MS);
  }

  async function check() {
    const mine = checking = draft();
    const replaces = shown && shown.form.replaces;
    form.dataset.checking = String(++inFlight); // the page's tests wait for the answers
    try {
      const answer = await ask("POST", "/api/catalog/check", { entry: mine, replaces });
      if (mine === checking && answer.ok) showProblems(answer.data.problems);
    } finally {
      // Done once no answer is awaited and no check is due (typed while this one was asked).
      if (--inFlight === 0 && timer === null) delete form.dataset.checking;
    }
  }

  async function look() {
    const answer = await ask("GET", "/api/catalog/tap");
    if (!answer.ok) return;
    setBuilding(answer.data.building);
    const data = answer.data;
    if (!building || !data.tap || (shown && shown.tap.seq === data.tap.seq)) return;
    shown = data;
    fill(data);
  }

  function setBuilding(on) {
    building = on;
    $("build").hidden = on;
    $("build-done").hidden = !on;
    if (!on) form.hidden = true;
    if (on && !shown) say(() => word("catalog.tap_card"));
  }

  async function save(event) {
    event.preventDefault();
    const tap = shown.tap;
    const answer = await ask("POST", "/api/catalog/save", {
      entry: draft(),
      replaces: shown.form.replaces,
      uid: tap.uid,
      pad: tap.pad,
      write: field("write").checked,
      rebind: field("rebind").checked,
    });
    if (!answer.ok) {
      showProblems({ "": [answer.data.error], ...answer.data.problems });
      if (answer.data.rebind) $("rebind-line").hidden = false;
      return;
    }
    const done = answer.data;
    say(() => {
      const more = done.warnings.length ? word("catalog.warnings", { warnings: done.warnings.join("; ") }) : "";
      const written = done.written ? word("catalog.written") : "";
      return word("catalog.saved", { card: done.saved, number: done.number, written, more });
    });
    form.hidden = true;
  }

  async function stop() {
    const answer = await ask("POST", "/api/catalog/building", { on: false });
    setBuilding(false);
    shown = null;
    const data = answer.data;
    if (!answer.ok) {
      say(() => data.error); // the server's sentence, in the language it was asked in
    } else if (data.check.ok) {
      say(() => word("catalog.ready", { name: data.playing, cards: data.check.cards }));
    } else {
      say(() => {
        const more = data.check.more ? word("catalog.and_more", { n: data.check.more }) : "";
        return word("catalog.still_to_do", { problems: data.check.problems.join("; "), more, name: data.playing });
      });
    }
  }

  async function start() {
    const me = await ask("GET", "/api/me");
    if (!me.ok || me.data.device.role.kind !== "owner") return;
    $("catalog-area").hidden = false;
    $("build").addEventListener("click", async () => {
      const answer = await ask("POST", "/api/catalog/building", { on: true });
      if (!answer.ok) { say(() => answer.data.error); return; }
      setBuilding(true);
      look();
    });
    $("build-done").addEventListener("click", stop);
    field("kind").addEventListener("change", showKind);
    field("main").addEventListener("change", showKind);
    form.addEventListener("input", soon);
    form.addEventListener("submit", save);
    document.addEventListener("table-version", () => { if (building) look(); });
    document.addEventListener("words", () => { showStatus(); showTag(); });
    look();
  }

  start();
})();
