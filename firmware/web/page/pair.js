// The pairing page: the code is the last part of this address (/pair/CODE); POST it once.
"use strict";
const code = decodeURIComponent(location.pathname.split("/").pop() || "");
const message = document.getElementById("message");
useWords("/api/words").catch((err) => { message.textContent = err.message; }); // the table's language
document.getElementById("pair").addEventListener("click", async () => {
  const name = document.getElementById("name").value;
  const answer = await fetch("/api/pair", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, name }),
  });
  const body = await answer.json();
  if (!answer.ok) {
    message.textContent = body.error;
    return;
  }
  history.replaceState(null, "", "/"); // the used code leaves the address bar
  location.replace("/");
});
