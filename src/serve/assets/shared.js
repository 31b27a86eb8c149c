// What both pages use (the game's and the studio's): an element made in
// one call, and a request to the server whose refusal, always JSON, is
// thrown as an error with its message and status.
"use strict";

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) {
    const e = new Error(data.error || res.statusText);
    e.status = res.status;
    throw e;
  }
  return data;
}
