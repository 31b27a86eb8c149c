// What both pages use (the game's and the studio's): an element made in
// one call, and a request to the server whose refusal, always JSON, is
// thrown as an error with its message and status. A module, which both
// pages' modules import.

/**
 * An element with its attributes and text.
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * A request to the server; its answer's JSON, or its refusal thrown.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) {
    throw Object.assign(new Error(data.error || res.statusText), { status: res.status });
  }
  return data;
}
