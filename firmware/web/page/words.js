// The page's words in the table's language (GET api/words, firmware/web/words.py), shared by
// the simulator's page and the phone's pages. `word` (a key, its params) fills a sentence
// as firmware.language.text does; the HTML's own words carry their key in `data-word`
// (text), `data-word-placeholder`, `data-word-title` or `data-word-aria-label`, and keep
// their English text until the words arrive.
"use strict";

const words = { language: null, texts: {} };

function word(key, params = {}) {
  const template = key in words.texts ? words.texts[key] : key;
  return template.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
}

const WORD_ATTRIBUTES = { placeholder: "data-word-placeholder", title: "data-word-title", "aria-label": "data-word-aria-label" };

function wordsOnPage() {
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = word(node.dataset.word);
  for (const [attribute, source] of Object.entries(WORD_ATTRIBUTES)) {
    for (const node of document.querySelectorAll(`[${source}]`)) node.setAttribute(attribute, word(node.getAttribute(source)));
  }
}

// Fetch the words of `url` (api/words?language=..) once per language, then put them on the
// page, set <html lang dir> (right to left for Persian) and tell the page's scripts ("words"
// on the document: what they wrote themselves with `word`, they write again).
async function useWords(url, language) {
  if (language && language === words.language) return;
  const answer = await fetch(url);
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || `HTTP ${answer.status}`);
  words.language = data.language;
  words.texts = data.words;
  document.documentElement.lang = data.language;
  document.documentElement.dir = data.direction;
  wordsOnPage();
  document.dispatchEvent(new Event("words"));
}
