// The table's JSON API for the phone's pages (firmware/web/app.py): one request, its answer.
// `ask` answers {ok, status, data} whatever the status; `call` answers the data, or throws an
// Error whose message is the refusal's sentence (in the game's language: firmware/web/
// sentences.py), with `status` and the refusal's `data` (its fields: "rebind", "problems").
"use strict";

async function ask(method, path, body) {
  const options = { method, headers: {} };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body || {});
  }
  const answer = await fetch(path, options);
  return { ok: answer.ok, status: answer.status, data: await answer.json() };
}

async function call(method, path, body) {
  const answer = await ask(method, path, body);
  if (!answer.ok) {
    const error = new Error(answer.data.error || `HTTP ${answer.status}`);
    error.status = answer.status;
    error.data = answer.data;
    throw error;
  }
  return answer.data;
}
