// towerlab's browser game. The server decides: this page shows the state it
// sends and answers the question it asks with an option's index, the
// question's token and the seat's key. Bots' turns are played one step
// (one of their decisions) a request at a time, each step named in words,
// with a pause between steps or a "next step" control. A game has its own address (/game/ID): the page
// keeps the keys of the seats it plays in the browser's storage, so a
// reload comes back to the same game and seats; a seat's link carries its
// key in the fragment (#seat=N&key=…), which the server never sees. A
// page that plays one seat asks for the game's words said to that seat
// ("you place…", "your meeple"); a key the server refuses (its seat was
// given a new link) is said so at once, and the page only watches.
import { el, api } from "/shared.js";

const $ = (sel) => document.querySelector(sel);
/**
 * The form control `sel` finds, in `root` (the page by default).
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {HTMLInputElement}
 */
const field = (sel, root = document) => root.querySelector(sel);
/**
 * Every form control `sel` finds.
 * @param {string} sel
 * @returns {HTMLInputElement[]}
 */
const fields = (sel) => [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(sel))];
/**
 * Every element `sel` finds.
 * @param {string} sel
 * @returns {HTMLElement[]}
 */
const all = (sel) => [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(sel))];
const params = new URLSearchParams(location.search);
// Milliseconds between the steps of bots' turns (?delay=… changes it).
const BOT_DELAY = Number(params.get("delay") ?? 700);
// Milliseconds between two looks at a game that waits for others (?poll=…).
const POLL = Number(params.get("poll") ?? 1000);

let catalog = null;
let game = null;     // the last state the server sent
let request = null;  // the new game's request (and its id), for "same deal"
let chosen = null;   // the placement option shown, while placing
// The board's scale and offset; `fitted`: framed by the page (until the
// person pans or zooms), `whole`: the whole board shows.
let view = { scale: 1, x: 0, y: 0, fitted: true, whole: true };
let botTimer = null;
let pollTimer = null;
// What happened since the person at this screen last acted: one step per
// state that brought new events, each with the seat that acted.
let steps = [];
let seenEvents = null; // { id, count }: the events already taken as steps
let restartSteps = false; // the person acted: the next step starts a new list
let paused = false;    // bots' steps wait for "next step"
// The keys this browser holds for the game shown: `here`, the seats played
// at this screen; `away`, those its maker gave away (kept to show their
// links again). By seat.
let seats = { here: {}, away: {} };
// Why this page only watches although it was given a seat's link: the
// server's refusal of the key, kept with the keys.
let refused = null;

// ---- the seats this browser plays ---------------------------------------

function storageKey(id) {
  return `towerlab.game.${id}`;
}

// Kept with the keys: the ransoms already asked about (see ransomSeen), so
// that a reload does not ask again.
function loadSeats(id) {
  forgetRansoms();
  try {
    const kept = JSON.parse(localStorage.getItem(storageKey(id)) ?? "null");
    seats = { here: kept?.here ?? {}, away: kept?.away ?? {}, maker: kept?.maker };
    refused = kept?.refused ?? null;
    for (const k of kept?.ransoms?.seen ?? []) ransomSeen.add(String(k));
    for (const p of kept?.ransoms?.wanted ?? []) wantRansom.add(Number(p));
  } catch {
    seats = { here: {}, away: {} };
    refused = null;
  }
}

function saveSeats(id) {
  try {
    const ransoms = { seen: [...ransomSeen], wanted: [...wantRansom] };
    localStorage.setItem(storageKey(id), JSON.stringify({ ...seats, ransoms, refused }));
  } catch {
    // No storage (a private window): the keys last as long as the page.
  }
}

// A seat's link opened here: its key is kept, and taken out of the address.
function takeLinkedSeat(id) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const seat = fragment.get("seat");
  const key = fragment.get("key");
  if (seat === null || !key) return;
  seats.here[Number(seat) - 1] = key;
  delete seats.away[Number(seat) - 1];
  refused = null;
  saveSeats(id);
  history.replaceState(null, "", location.pathname + location.search);
}

function myKey(seat) {
  return seats.here[seat];
}

// Any key of a seat played here (a bot's turn needs one), or none.
function anyKey() {
  return Object.values(seats.here)[0];
}

// The seat this page speaks to as "you": the one seat played here (none
// for a watcher, or for several seats sharing one screen).
function viewer() {
  const here = Object.keys(seats.here);
  return here.length === 1 ? Number(here[0]) : undefined;
}

// The game's state as this page shows it: said to its seat's person when
// it plays one seat (which checks the seat's key), else as anyone reads it.
async function fetchState(id) {
  const you = viewer();
  if (you === undefined) return api("GET", `/api/games/${id}`);
  return api("POST", `/api/games/${id}/view`, { key: seats.here[you] });
}

// The seats' keys of this page that the server refuses (their seats were
// given new links) are dropped, and the refusal kept to be said: each key
// asked about with the state it opens.
async function checkKeys(id) {
  for (const [seat, key] of Object.entries(seats.here)) {
    try {
      await api("POST", `/api/games/${id}/view`, { key });
    } catch (e) {
      if (e.status !== 403) throw e;
      delete seats.here[seat];
      refused = e.message;
      saveSeats(id);
    }
  }
}

function gameAddress(id) {
  return `/game/${id}${location.search}`;
}

// ---- the new-game form -------------------------------------------------

async function loadCatalog() {
  catalog = await api("GET", "/api/catalog");
  const variant = $("#variant");
  for (const v of catalog.variants) variant.append(el("option", { value: v }, v));
  if (catalog.variants.includes("tower")) variant.value = "tower";
  for (const p of catalog.packs) $("#packs").append(packRow(p));
  const players = $("#player-count");
  for (let n = catalog.players.min; n <= catalog.players.max; n++) {
    players.append(el("option", { value: n }, String(n)));
  }
  players.addEventListener("change", () => seatRows(Number(players.value)));
  seatRows(catalog.players.min);
  paramRows();
  for (const e of document.querySelectorAll("input[name=rules], #variant, #packs")) e.addEventListener("change", showParams);
  showParams();
}

// A row per parameter a pack declares: an input of its type, its default
// greyed in it, its meaning in the title.
function paramRows() {
  const box = $("#params");
  for (const p of catalog.params) {
    const kind = typeof p.default === "boolean" ? "bool" : typeof p.default === "number" ? (Number.isInteger(p.default) ? "int" : "float") : "text";
    let input;
    if (kind === "bool") {
      input = el("select");
      for (const [v, t] of [["", `default (${p.default})`], ["true", "true"], ["false", "false"]]) input.append(el("option", { value: v }, t));
    } else {
      input = el("input", { inputmode: kind === "text" ? "text" : "decimal", placeholder: String(p.default), size: "8" });
    }
    Object.assign(input.dataset, { pack: p.pack, name: p.name, kind });
    input.setAttribute("aria-label", `${p.pack}: ${p.name}`);
    const row = el("label", { class: "param", "data-pack": p.pack, title: p.description });
    row.append(`${p.pack}: ${p.name} `, input, el("small", {}, " " + p.description));
    box.append(row);
  }
}

// The packs of the rules chosen: the variant's, or the ticked ones.
function chosenPacks() {
  if (field("input[name=rules]:checked").value === "packs") {
    return fields("#packs input:checked").map((c) => c.value);
  }
  return catalog.variant_packs[$("#variant").value] ?? [];
}

// Only the settings of the rules chosen show.
function showParams() {
  const packs = chosenPacks();
  let any = false;
  for (const row of all("#params .param")) {
    row.hidden = !packs.includes(row.dataset.pack);
    any ||= !row.hidden;
  }
  $("#params-box").hidden = !any;
}

// The settings given (shown and not empty), by pack and name. A number is
// sent as a number; anything else as typed, for the server to say what is
// wrong with it.
function formParams() {
  const params = {};
  for (const input of fields("#params .param:not([hidden]) [data-pack]")) {
    const raw = input.value.trim();
    if (raw === "") continue;
    const { pack, name, kind } = input.dataset;
    /** @type {string | number | boolean} */
    let value = raw;
    if (kind === "bool") value = raw === "true";
    else if (kind !== "text" && raw !== "" && !Number.isNaN(Number(raw))) value = Number(raw);
    (params[pack] ??= {})[name] = value;
  }
  return Object.keys(params).length ? params : undefined;
}

// A pack of the chooser: ticked or not, moved up or down the list, whose
// order (of the ticked ones) is the order sent. The server puts a pack's
// requirements before it.
function packRow(name) {
  const li = el("li", { "data-pack": name });
  const label = el("label");
  const box = el("input", { type: "checkbox", value: name });
  box.addEventListener("change", () => { field("input[name=rules][value=packs]").checked = true; });
  label.append(box, " " + name);
  const up = el("button", { type: "button", class: "up", title: `move ${name} up` }, "↑");
  const down = el("button", { type: "button", class: "down", title: `move ${name} down` }, "↓");
  up.addEventListener("click", () => li.previousElementSibling?.before(li));
  down.addEventListener("click", () => li.nextElementSibling?.after(li));
  li.append(label, " ", up, down);
  return li;
}

// A row per seat: who plays it, a name, and (for a person) whether the
// seat is played here or from another device.
function seatRows(n) {
  const list = $("#seats");
  const old = [...list.querySelectorAll("li")].map((li) => ({
    seat: li.querySelector("select").value,
    name: field("input.name", li).value,
    here: field("input.here", li).checked,
  }));
  list.replaceChildren();
  for (let i = 0; i < n; i++) {
    const select = /** @type {HTMLSelectElement} */ (el("select", { name: "seat" + i }));
    for (const s of catalog.seats) select.append(el("option", { value: s }, s));
    select.value = old[i]?.seat ?? (i === 0 ? "person" : catalog.bots.includes("greedy") ? "greedy" : catalog.bots[0]);
    const name = /** @type {HTMLInputElement} */ (el("input", { class: "name", maxlength: "32", placeholder: `player ${i + 1}`, "aria-label": `player ${i + 1}'s name` }));
    name.value = old[i]?.name ?? "";
    const here = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", class: "here" }));
    here.checked = old[i]?.here ?? true;
    const hereLabel = el("label", { class: "here-label" });
    hereLabel.append(here, " here");
    const person = () => { hereLabel.hidden = select.value !== "person"; };
    select.addEventListener("change", person);
    person();
    const li = el("li");
    li.append("player " + (i + 1) + " ", select, " ", name, " ", hereLabel);
    list.append(li);
  }
}

function formRequest() {
  const req = { seats: fields("#seats select").map((s) => s.value) };
  req.names = fields("#seats input.name").map((n) => n.value.trim());
  req.hints = $("#hints").checked;
  if (field("input[name=rules]:checked").value === "packs") {
    req.packs = fields("#packs input:checked").map((c) => c.value);
    if (req.packs.length === 0) throw new Error("tick at least one pack, or choose a variant");
  } else {
    req.variant = $("#variant").value;
  }
  const params = formParams();
  if (params) req.params = params;
  const seed = $("#seed").value.trim();
  if (seed !== "") {
    if (!/^\d+$/.test(seed) || !Number.isSafeInteger(Number(seed))) {
      throw new Error("a seed is a whole number below 2^53");
    }
    req.seed = Number(seed);
  }
  return req;
}

async function startGame(event) {
  event.preventDefault();
  $("#new-error").textContent = "";
  $("#new-hint").textContent = "";
  try {
    request = formRequest();
    const here = fields("#seats input.here").map((h) => h.checked);
    const state = await api("POST", "/api/games", request);
    request.id = state.id;
    seats = { here: {}, away: {}, maker: state.maker_key };
    refused = null;
    forgetRansoms();
    for (const k of state.keys ?? []) (here[k.seat] ? seats.here : seats.away)[k.seat] = k.key;
    saveSeats(state.id);
    history.pushState(null, "", gameAddress(state.id));
    // Said to the seat played here, if one is.
    openGame(viewer() === undefined ? state : await fetchState(state.id));
  } catch (e) {
    $("#new-error").textContent = e.message;
    $("#new-error").scrollIntoView({ block: "nearest" });
  }
}

// ---- the game ----------------------------------------------------------

function openGame(state) {
  view.fitted = true;
  $("#new").hidden = true;
  $("#game").hidden = false;
  showLinks(state);
  show(state);
}

// The game at this page's address (/game/ID): its seats' keys from the
// browser's storage (and from a seat's link), its state from the server.
async function resume(id) {
  loadSeats(id);
  takeLinkedSeat(id);
  try {
    await checkKeys(id);
    openGame(await fetchState(id));
  } catch (e) {
    backToForm(false, false);
    $("#new-error").textContent = e.message;
  }
}

// The links of the seats given away, and the watcher's link.
function showLinks(state) {
  const list = $("#friend-links");
  list.replaceChildren();
  // The address other devices reach the server at, when it listens on
  // the network; else this page's own.
  const origin = catalog?.network ? catalog.network.replace(/\/$/, "") : location.origin;
  const base = `${origin}/game/${state.id}`;
  const link = (text, href, cls) => {
    const li = el("li", { class: cls });
    li.append(text + " ", el("input", { readonly: "", value: href, "aria-label": text, size: "28" }));
    list.append(li);
  };
  for (const [seat, key] of Object.entries(seats.away)) {
    link(`${seatName(state, Number(seat))}:`, `${base}#seat=${Number(seat) + 1}&key=${key}`, "seat-link");
    // The maker takes a link back: the seat gets a new key, the old link
    // stops working (asked first, as it cannot be undone); not once the
    // game has ended.
    if (seats.maker && !ended(state)) {
      const again = el("button", { type: "button", class: "reissue", "data-seat": seat, title: "the old link stops working" }, "new link");
      again.addEventListener("click", () => askReissue(state, Number(seat), again));
      list.lastElementChild.append(" ", again);
    }
  }
  link("watch:", base, "watch-link");
  if (!catalog?.network) {
    list.append(el("li", { class: "local-only" }, "this server listens on this machine only: other devices reach it when it is started with --host 0.0.0.0"));
  }
  $("#friends").hidden = false;
  $("#friends").open = Object.keys(seats.away).length > 0;
}

// "New link" asks first: the old link stops working at once.
function askReissue(state, seat, button) {
  const li = button.closest("li");
  li.querySelector(".reissue-ask")?.remove();
  const ask = el("span", { class: "reissue-ask" }, `Give ${seatName(state, seat)} a new link? The old one stops working at once. `);
  const yes = el("button", { type: "button", class: "reissue-yes" }, "Give a new link");
  const no = el("button", { type: "button", class: "reissue-no" }, "Keep this link");
  yes.addEventListener("click", () => reissue(state, seat));
  no.addEventListener("click", () => { ask.remove(); button.hidden = false; });
  ask.append(yes, " ", no);
  button.hidden = true;
  li.append(ask);
}

async function reissue(state, seat) {
  try {
    const given = await api("POST", `/api/games/${state.id}/reissue`, { seat, key: seats.maker });
    seats.away[given.seat] = given.key;
    saveSeats(state.id);
    showLinks(state);
    $("#friends").open = true;
    $("#error").textContent = "";
    $("#friend-links").append(el("li", { class: "reissued" }, `${seatName(state, seat)} has a new link: the old one no longer works`));
  } catch (e) {
    $("#error").textContent = e.message;
  }
}

// The game waits for nothing more.
function ended(state) {
  return state.status === "over" || state.status === "failed";
}

function show(state, own = false) {
  // A new question for the person here: the board frames it afresh, and
  // the panel shows it from its top.
  if (mine(state) && (!game || game.token !== state.token || game.id !== state.id)) {
    view.fitted = true;
    $("#side").scrollTop = 0;
  }
  const wasEnded = game && game.id === state.id && ended(game);
  takeSteps(state, own);
  game = state;
  if (ended(state) && !wasEnded) showLinks(state);
  chosen = null;
  clearTimeout(pollTimer);
  document.body.dataset.status = state.status;
  const deal = dealOf(state);
  $("#title").textContent = `${state.variant} (${state.packs.join(" + ")}) · ` +
    (deal === undefined ? "the deal is told when the game ends" : `seed ${deal}`);
  // The log names the seed: it is given once the game has ended.
  $("#log").hidden = state.seed === null;
  $("#again").hidden = deal === undefined;
  $("#board").innerHTML = state.board.svg;
  splitLegend();
  $("#log").href = `/api/games/${state.id}/log`;
  $("#log").download = `towerlab-${state.id}.jsonl`;
  showWho(state);
  showPlayers(state);
  showEvents(state);
  showQuestion(state);
  markLastTiles(state);
  showRansomButton(state);
  applyView();
  showHintButton(state);
  showSteps(state);
  clearTimeout(botTimer);
  if (stepsBots(state)) {
    if (!paused) botTimer = setTimeout(botTurn, BOT_DELAY);
  } else if (!ended(state) && !mine(state)) {
    pollTimer = setTimeout(poll, POLL);
  }
}

// Who this page is for: the seat's person ("You are Bo, seat 2"), the
// seats sharing this screen, or a watcher; a refused link said so.
function showWho(state) {
  const who = $("#whoami");
  who.replaceChildren();
  who.className = "";
  const here = Object.keys(seats.here).map(Number).sort((a, b) => a - b);
  const swatch = (p) => el("span", { class: "swatch", style: `background:${state.players[p]?.colour ?? "#888"}` });
  if (state.you !== null && state.you !== undefined) {
    who.append(swatch(state.you), ` You are ${state.names[state.you]}, seat ${state.you + 1}`);
    who.dataset.seat = state.you;
  } else if (here.length > 1) {
    who.append("Played at this screen: " + here.map((p) => seatName(state, p)).join(", "));
    delete who.dataset.seat;
  } else {
    delete who.dataset.seat;
    if (refused) {
      who.className = "refused";
      who.append(`${capital(refused)}. Meanwhile you can watch the game.`);
    } else {
      who.append("You are watching this game: only its players act.");
    }
  }
  $("#friends").hidden = !!refused && here.length === 0;
}

// This page steps the bots' turns: it plays a seat (or the game has no
// person), and a bot is to play.
function stepsBots(state) {
  return state.status === "bot" && (anyKey() !== undefined || !state.seats.includes("person"));
}

// The events `state` brings that the page has not shown, as one step of
// the seat that was to play; none for the page's own answers (`own`),
// after which the next step starts a new list.
function takeSteps(state, own) {
  const before = game;
  if (!seenEvents || seenEvents.id !== state.id || state.events.length < seenEvents.count) {
    seenEvents = { id: state.id, count: state.events.length };
    steps = [];
    return;
  }
  const fresh = state.events.slice(seenEvents.count);
  seenEvents.count = state.events.length;
  // The steps stay shown through the person's own turn; the next step
  // after it starts the list again.
  if (own) {
    restartSteps = true;
    return;
  }
  // A step without events (a pass, a decline) is told by the option taken.
  const lines = fresh.length ? fresh.map((e) => e.text) : state.last ? [state.last.label.toLowerCase()] : [];
  if (lines.length === 0 || (before && before.token === state.token)) return;
  const seat = state.last ? state.last.seat : before?.current ?? state.current;
  if (restartSteps) steps = [];
  restartSteps = false;
  steps.push({ seat, lines });
}

// The last step named in words, the earlier ones in a list, and the
// controls of bots' steps: pause, next.
function showSteps(state) {
  const box = $("#steps");
  box.hidden = steps.length === 0 && !stepsBots(state);
  const last = steps[steps.length - 1];
  const line = $("#step-line");
  line.replaceChildren();
  if (last) {
    line.append(el("span", { class: "swatch", style: `background:${state.players[last.seat]?.colour ?? "#888"}` }), " " + stepWords(state, last));
    line.dataset.seat = last.seat;
  }
  line.dataset.steps = steps.length;
  const list = $("#step-list");
  list.replaceChildren();
  for (const step of steps.slice(0, -1).reverse().slice(0, 20)) list.append(el("li", {}, stepWords(state, step)));
  $("#step-more").hidden = steps.length < 2;
  $("#step-controls").hidden = !stepsBots(state);
  $("#step-pause").textContent = paused ? "Play on" : "Pause";
  $("#step-next").disabled = !paused;
}

// A step in words: who, then what happened, the seat's name at the start
// of its events left out where it is the seat named ("Bo (greedy): places
// a city cap with a straight road at 1,0"); a step of this page's own
// seat says "you".
function stepWords(state, step) {
  if (state.you === step.seat) return capital(step.lines.join("; "));
  const own = `${state.names[step.seat]} `;
  const lines = step.lines.map((l) => (l.startsWith(own) ? l.slice(own.length) : l));
  return `${seatName(state, step.seat)}: ${lines.join("; ")}`;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function pauseSteps() {
  paused = !paused;
  if (!game) return;
  showSteps(game);
  clearTimeout(botTimer);
  if (!paused && stepsBots(game)) botTimer = setTimeout(botTurn, BOT_DELAY);
}

// The person to decide plays at this screen.
function mine(state) {
  return state.question !== null && myKey(state.current) !== undefined;
}

// Follow a game that waits for others: a cheap look at what it waits for,
// the whole state when that changed. A lost connection is tried again.
async function poll() {
  if (!game) return;
  const id = game.id;
  try {
    const now = await api("GET", `/api/games/${id}/poll`);
    if (!game || game.id !== id) return;
    if (now.token !== game.token || now.status !== game.status) {
      show(await fetchState(id));
      return;
    }
    $("#error").textContent = "";
  } catch (e) {
    if (!game || game.id !== id) return;
    // The seat's link was taken back meanwhile: said, and watched.
    if (e.status === 403) return resume(id);
    $("#error").textContent = `${e.message}: trying again…`;
    if (e.status === 404) return;
  }
  clearTimeout(pollTimer);
  pollTimer = setTimeout(poll, POLL);
}

function seatName(state, p) {
  return state.seats[p] === "person"
    ? `${state.names[p]} (seat ${p + 1})`
    : `${state.names[p]} (${state.seats[p]})`;
}

// Seat `p` for this page: "you", or by name.
function whom(state, p) {
  return state.you === p ? "you" : seatName(state, p);
}

function showPlayers(state) {
  const table = $("#players");
  table.replaceChildren();
  const head = el("tr");
  for (const h of ["", "score", "meeples", "floors", "prisoners"]) head.append(el("th", {}, h));
  head.lastElementChild.setAttribute("title", "the meeples of others a player holds, and how many of its own others hold");
  table.append(head);
  for (const p of state.players) {
    const row = el("tr", { "data-seat": p.seat });
    if (p.seat === state.current && state.question !== undefined && state.status !== "over") row.className = "current";
    const who = el("td");
    who.append(el("span", { class: "swatch", style: `background:${p.colour}` }), " " + seatName(state, p.seat));
    row.append(who, el("td", { class: "score" }, String(p.score)), el("td", {}, String(p.meeples)));
    // Each count beside its own swatch, a pair never split by a line's end.
    const floors = el("td", { class: "floors" });
    for (const f of p.floors) {
      const count = el("span", { class: "count", title: `${f.count} ${f.name} floor${f.count === 1 ? "" : "s"}` });
      count.append(el("span", { class: "swatch", style: `background:${f.colour}` }), ` ${f.count}`);
      floors.append(count, " ");
    }
    row.append(floors, prisonersCell(state, p));
    table.append(row);
  }
  $("#tiles-left").textContent = `turn ${state.turn} · ${state.tiles_left} tiles left to draw`;
}

// The prisoners a player holds, by whose they are, and how many of its own
// others hold: "holds 1 of Bo's · lost 2".
function prisonersCell(state, p) {
  const cell = el("td", { class: "prisoners" });
  const held = p.prisoners.map((q) => `${q.count} of ${state.you === q.owner ? "yours" : `${state.names[q.owner]}'s`}`);
  const lost = state.players.reduce((n, o) => n + o.prisoners.filter((q) => q.owner === p.seat).reduce((m, q) => m + q.count, 0), 0);
  if (held.length) cell.append(el("span", { class: "held" }, `holds ${held.join(", ")}`));
  if (lost) cell.append(held.length ? " · " : "", el("span", { class: "lost" }, `lost ${lost}`));
  if (!held.length && !lost) cell.append("–");
  return cell;
}

function showEvents(state) {
  const list = $("#events");
  list.replaceChildren();
  for (const e of [...state.events].reverse()) {
    const li = el("li", { title: `turn ${e.turn}` });
    li.append(el("span", { class: "rule" }, e.rule), e.text);
    list.append(li);
  }
}

function showQuestion(state) {
  const status = $("#status");
  const options = $("#options");
  options.replaceChildren();
  $("#marks").replaceChildren();
  $("#drawn").replaceChildren();
  $("#place-buttons").hidden = true;
  $("#floor-confirm").hidden = true;
  $("#final").hidden = true;
  $("#error").textContent = "";
  const q = state.question;
  const who = seatName(state, state.current);
  // The question put: to "you" on the seat's own page, else to the seat.
  const asked = state.you === state.current ? "Your turn" : who;
  if (state.status === "over") {
    status.textContent = "Game over: final scoring done";
    showFinal(state);
  } else if (state.status === "failed") {
    status.textContent = "The rules failed: " + state.error;
  } else if (state.status === "bot") {
    status.textContent = `${who} is playing…`;
  } else if (!mine(state)) {
    status.textContent = `waiting for ${who}`;
  } else if (q.kind === "placement") {
    status.textContent = `${asked}: place ${q.tile_words} (tap a marked cell, rotate, then place)`;
    askPlacement(q);
  } else if (q.kind === "ransom" && skipRansom(state)) {
    status.textContent = `${asked}: no ransom this turn`;
    answer(0);
  } else {
    if (q.kind === "ransom") {
      ransomSeen.add(ransomKey(state));
      wantRansom.delete(state.current);
      saveSeats(state.id);
    }
    const asks = {
      ransom: "pay a ransom? (T11)",
      action: "one action: a meeple, a floor, a meeple on a tower, or pass (T3)",
      capture: "take a prisoner in the tower's range? (T5, T6)",
    };
    status.textContent = `${asked}: ${asks[q.kind]}`;
    askOptions(q);
  }
}

// A ransom (T11) is asked once for each state of a person's captured
// meeples: declined, it is declined by itself on later turns until the
// prisoners change or the person asks for it with "Pay a ransom".
const ransomSeen = new Set(); // seats and prisoners already asked about
const wantRansom = new Set(); // seats that asked for the question again

function forgetRansoms() {
  ransomSeen.clear();
  wantRansom.clear();
}

function ransomKey(state) {
  const held = state.players.map((p) => p.prisoners.filter((q) => q.owner === state.current).map((q) => q.count).join("") || "0");
  return `${state.current}:${held.join(",")}`;
}

function skipRansom(state) {
  return ransomSeen.has(ransomKey(state)) && !wantRansom.has(state.current);
}

// The "Pay a ransom" button: shown to a person whose meeples someone holds.
function showRansomButton(state) {
  const button = $("#ransom");
  const p = state.current;
  const held = state.players.some((q) => q.prisoners.some((x) => x.owner === p));
  button.hidden = state.seats[p] !== "person" || !mine(state) || !held || state.status === "over" || !ransomSeen.has(ransomKey(state)) ||
    state.question.kind === "ransom";
  button.disabled = wantRansom.has(p);
  button.textContent = wantRansom.has(p) ? "A ransom will be offered at your next turn" : "Pay a ransom at my next turn (T11)";
}

// The final ranking: the winner (or those who tie) named, then every
// player by score with where the points came from.
function showFinal(state) {
  const box = $("#final");
  const ranked = [...state.players].sort((a, b) => b.score - a.score || a.seat - b.seat);
  const best = ranked[0].score;
  const winners = ranked.filter((p) => p.score === best).map((p) => p.seat);
  const named = winners.map((p) => whom(state, p));
  const headline = winners.length > 1
    ? `${capital(named.join(" and "))} tie for the win with ${best} points`
    : winners[0] === state.you ? `You win with ${best} points` : `${named[0]} wins with ${best} points`;
  box.replaceChildren(el("h3", { id: "winner" }, headline));
  const list = el("ol");
  for (const p of ranked) {
    const li = el("li", { "data-score": p.score, "data-seat": p.seat });
    li.append(el("strong", {}, `${state.you === p.seat ? `You (${seatName(state, p.seat)})` : seatName(state, p.seat)}: ${p.score}`));
    const parts = p.breakdown.map((b) => `${b.source} ${b.points < 0 ? "−" + -b.points : b.points}`);
    li.append(el("div", { class: "breakdown" }, parts.join(" · ") || "no points"));
    list.append(li);
  }
  box.append(list);
  box.hidden = false;
}

// Each player's last tile, outlined in the player's colour.
function markLastTiles(state) {
  const size = state.board.cell;
  for (const p of state.players) {
    if (!p.last_tile) continue;
    const mark = el("div", { class: "last", "data-seat": p.seat, title: state.you === p.seat ? "your last tile" : `${seatName(state, p.seat)}'s last tile` });
    mark.style.left = p.last_tile[0] + "px";
    mark.style.top = p.last_tile[1] + "px";
    mark.style.width = mark.style.height = size + "px";
    mark.style.borderColor = p.colour;
    // The tile of the step just shown stands out.
    if (steps.length && steps[steps.length - 1].seat === p.seat) mark.classList.add("fresh");
    $("#marks").append(mark);
  }
}

function placeMark(cell, size) {
  const mark = el("div", { class: "place" });
  mark.style.left = cell[0] + "px";
  mark.style.top = cell[1] + "px";
  mark.style.width = mark.style.height = size + "px";
  return mark;
}

function askPlacement(q) {
  const size = game.board.cell;
  const cells = new Map();
  for (const o of q.options) {
    const key = `${o.x},${o.y}`;
    if (!cells.has(key)) cells.set(key, []);
    cells.get(key).push(o);
  }
  for (const [key, opts] of cells) {
    const mark = placeMark(opts[0].cell, size);
    mark.dataset.cell = key;
    mark.title = `${q.tile_words} at ${key}`;
    mark.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (chosen && `${chosen.x},${chosen.y}` === key) rotate();
      else choosePlacement(opts[0]);
    });
    $("#marks").append(mark);
  }
  $("#place-buttons").hidden = false;
  $("#confirm").disabled = true;
  $("#confirm").textContent = "Choose a cell first";
  drawTile(q, q.tiles[0].rot);
}

function drawTile(q, rot) {
  const tile = q.tiles.find((t) => t.rot === rot) ?? q.tiles[0];
  $("#drawn").innerHTML = tile.svg;
  return tile;
}

function choosePlacement(option) {
  chosen = option;
  const q = game.question;
  for (const m of all(".place")) {
    m.classList.toggle("chosen", m.dataset.cell === `${option.x},${option.y}`);
    if (m.dataset.cell !== `${option.x},${option.y}`) m.replaceChildren();
  }
  const mark = document.querySelector(`.place[data-cell="${option.x},${option.y}"]`);
  mark.innerHTML = drawTile(q, option.rot).svg;
  const svg = mark.querySelector("svg");
  svg.setAttribute("width", "100%");
  svg.setAttribute("height", "100%");
  $("#confirm").disabled = false;
  $("#confirm").textContent = `Place at ${option.x},${option.y} turned ${option.rot}°`;
}

function rotate() {
  const q = game.question;
  if (!chosen) return;
  const here = q.options.filter((o) => o.x === chosen.x && o.y === chosen.y);
  const next = here[(here.indexOf(chosen) + 1) % here.length];
  choosePlacement(next);
}

function askOptions(q) {
  const counts = new Map();
  for (const o of q.options) if (o.at) counts.set(String(o.at), (counts.get(String(o.at)) ?? 0) + 1);
  for (const o of q.options) {
    const button = el("button", { "data-index": o.index, "data-kind": o.kind ?? q.kind }, o.label);
    button.addEventListener("click", () => pick(o));
    $("#options").append(button);
    if (!o.at) continue;
    const shared = counts.get(String(o.at)) > 1;
    const spot = el("div", { class: "spot" + (q.kind === "capture" ? " capture" : "") + (shared ? " shared" : ""), title: o.label, "data-for": o.index });
    // The button and its spot light up together.
    const light = (on) => { spot.classList.toggle("lit", on); button.classList.toggle("lit", on); };
    for (const e of [button, spot]) {
      e.addEventListener("pointerenter", () => light(true));
      e.addEventListener("pointerleave", () => light(false));
    }
    spot.style.left = o.at[0] + "px";
    spot.style.top = o.at[1] + "px";
    if (!shared) {
      spot.dataset.index = o.index;
      spot.addEventListener("click", (ev) => { ev.stopPropagation(); pick(o); });
    }
    $("#marks").append(spot);
  }
}

// An option chosen: a floor is previewed first, and built on confirmation;
// anything else is answered at once.
function pick(o) {
  if (o.preview) previewFloor(o);
  else answer(o.index);
}

// What a floor would do, as the server's rules answered it: the cells its
// tower would capture from at the new height, hatched, those it reaches
// where the rules let it take nothing (past a gap under no-gaps), dotted,
// and the meeples it could capture, ringed; "Build this floor" commits it,
// "Cancel" chooses again.
function previewFloor(o) {
  clearPreview();
  const size = game.board.cell;
  const nothing = o.preview.takes_nothing ?? [];
  for (const [cells, kind] of [[o.preview.range, "reach"], [nothing, "reach takes-nothing"]]) {
    for (const cell of cells) {
      const mark = el("div", { class: kind });
      mark.style.left = cell[0] + "px";
      mark.style.top = cell[1] + "px";
      mark.style.width = mark.style.height = size + "px";
      $("#marks").append(mark);
    }
  }
  for (const c of o.preview.captures) {
    if (!c.at) continue;
    const ring = el("div", { class: "threat", title: meepleOf(game, c.owner) });
    ring.style.left = c.at[0] + "px";
    ring.style.top = c.at[1] + "px";
    $("#marks").append(ring);
  }
  const n = o.preview.range.length;
  const prey = o.preview.captures.map((c) => meepleOf(game, c.owner));
  // A meeple in range that a rule spares is said so, with the rule's pack.
  const spared = (o.preview.spared ?? []).map((s) => ` ${s.says[0].toUpperCase()}${s.says.slice(1)}.`).join("");
  const high = `the tower would be ${o.preview.height} floor${o.preview.height === 1 ? "" : "s"} high`;
  const cells = (k) => `${k} cell${k === 1 ? "" : "s"}`;
  const dotted = nothing.length
    ? ` It ${n === 0 ? "" : "also "}reaches ${cells(nothing.length)} (dotted) where the rules let it take nothing.`
    : "";
  $("#floor-text").textContent = (n === 0
    ? `${o.label}: ${high}, and this floor ${nothing.length ? "captures on" : "reaches"} no cell: it can capture nothing.`
    : `${o.label}: ${high} and reach ${cells(n)} (hatched); ` +
      (prey.length ? `it could capture ${prey.join(", ")} (ringed).` : "no meeple it could capture stands there.")) +
    dotted + spared;
  $("#floor-confirm").hidden = false;
  $("#floor-place").onclick = () => answer(o.index);
  for (const b of all("#options button")) b.classList.toggle("chosen", b.dataset.index === String(o.index));
}

// Seat `p`'s meeple, for this page: "your meeple", "Bo (seat 2)'s meeple".
function meepleOf(state, p) {
  return state.you === p ? "your meeple" : `${seatName(state, p)}'s meeple`;
}

function clearPreview() {
  for (const m of document.querySelectorAll("#marks .reach, #marks .threat")) m.remove();
  for (const b of document.querySelectorAll("#options button.chosen")) b.classList.remove("chosen");
  $("#floor-confirm").hidden = true;
}

async function answer(index) {
  const q = game.question;
  try {
    show(await api("POST", `/api/games/${game.id}/choose`, { decision: q.kind, token: game.token, option: index, key: myKey(game.current), you: viewer() !== undefined }), true);
  } catch (e) {
    if (e.status === 403) return resume(game.id);
    $("#error").textContent = e.message;
  }
}

async function botTurn() {
  if (!game || game.status !== "bot") return;
  try {
    show(await api("POST", `/api/games/${game.id}/advance`, { token: game.token, key: anyKey(), step: true, you: viewer() !== undefined }));
  } catch (e) {
    // Another device stepped this turn first: show where the game is.
    if (e.status === 409) show(await fetchState(game.id).catch(() => game));
    else if (e.status === 403) resume(game.id);
    else $("#error").textContent = e.message;
  }
}

// ---- hints -------------------------------------------------------------

function showHintButton(state) {
  $("#hint-box").hidden = !state.hints || !mine(state);
  $("#hint").disabled = false;
  $("#hint-line").textContent = "";
}

// What a bot would play here: marked on the board (the tile shown at its
// cell, or the option's spot and button lit) with its reason in one line.
async function askHint() {
  const asked = game;
  $("#hint").disabled = true;
  $("#hint-line").textContent = "thinking…";
  try {
    const hint = await api("POST", `/api/games/${asked.id}/hint`, { token: asked.token, key: myKey(asked.current), you: viewer() !== undefined });
    if (game !== asked) return;
    $("#hint-line").textContent = `${hint.label}: ${hint.reason}`;
    const q = asked.question;
    if (q.kind === "placement") {
      choosePlacement(q.options[hint.option]);
      document.querySelector(".place.chosen")?.classList.add("hinted");
    } else {
      for (const e of document.querySelectorAll(`#options button[data-index="${hint.option}"], #marks .spot[data-for="${hint.option}"]`)) {
        e.classList.add("hinted");
      }
    }
  } catch (e) {
    if (game === asked) $("#hint-line").textContent = e.message;
  } finally {
    $("#hint").disabled = false;
  }
}

// ---- the legend ----------------------------------------------------------

// The renderer draws its legend (captions, players, colours) beside the
// board, in the same picture. The page moves it into the side panel, drawn
// at its own size, so that zooming scales the board only and a narrow
// screen gives the board its whole width; the board's picture is then cut
// to the board's own frame (the grid and its coordinates), so that fitting
// it frames the game, not the room the legend took.
function splitLegend() {
  const svg = $("#board svg");
  const panel = svg && svg.querySelector("g.panel");
  if (!panel) return;
  const box = panel.getBBox();
  const left = Math.max(0, Math.floor(box.x) - 8);
  const width = Number(svg.getAttribute("width"));
  const legend = svg.cloneNode(false);
  legend.removeAttribute("id");
  const defs = svg.querySelector("defs");
  if (defs) legend.append(defs.cloneNode(true));
  legend.append(panel);
  const legendHeight = Math.ceil(box.y + box.height + 8);
  legend.setAttribute("viewBox", `${left} 0 ${width - left} ${legendHeight}`);
  legend.setAttribute("width", width - left);
  legend.setAttribute("height", legendHeight);
  $("#legend-art").replaceChildren(legend);
  const grid = svg.querySelector("g.grid rect");
  const height = grid
    ? Math.ceil(2 * Number(grid.getAttribute("y")) + Number(grid.getAttribute("height")))
    : Number(svg.getAttribute("height"));
  svg.setAttribute("viewBox", `0 0 ${left} ${height}`);
  svg.setAttribute("width", left);
  svg.setAttribute("height", height);
}

// ---- pan and zoom ------------------------------------------------------

// What a finger taps is at least this many CSS px each way (WCAG 2.5.5): a
// spot, and a cell while cells are chosen (with a little to spare).
const TARGET = 44;
const CELL_TARGET = 48;
// The most the board is enlarged to frame the game, and to part spots.
const MOST_FIT = 3;
const MOST_FOCUS = 6;

function applyView() {
  const svg = $("#board svg");
  if (!svg) return;
  const w = Number(svg.getAttribute("width"));
  const h = Number(svg.getAttribute("height"));
  $("#marks").style.width = w + "px";
  $("#marks").style.height = h + "px";
  if (view.fitted) fitView($("#stage"), w, h);
  $("#canvas").style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
  $("#marks").style.setProperty("--scale", view.scale);
}

// The board fitted: whole, as large as the stage allows (up to MOST_FIT),
// when what the person may tap is then large enough apart; else at the
// scale its targets need, framing them — or, when they do not fit, where
// the question is (the tile being decided on, the cell nearest the last
// tile placed) — the board kept within the stage (`view.whole` false).
function fitView(stage, w, h) {
  const W = stage.clientWidth, H = stage.clientHeight;
  const whole = Math.min(MOST_FIT, W / w, H / h);
  const targets = game && mine(game) ? targetsOf(game) : null;
  const need = targets ? targets.scale : 0;
  view.whole = whole >= need;
  if (view.whole) {
    view.scale = whole;
    view.x = (W - w * whole) / 2;
    view.y = (H - h * whole) / 2;
    return;
  }
  view.scale = need;
  const box = targets.box ?? [0, 0, w, h];
  const fits = (box[2] - box[0]) * need <= W && (box[3] - box[1]) * need <= H;
  const [cx, cy] = fits || !targets.anchor ? [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2] : targets.anchor;
  const within = (offset, room, size) => (size <= room ? (room - size) / 2 : Math.min(0, Math.max(room - size, offset)));
  view.x = within(W / 2 - cx * need, W, w * need);
  view.y = within(H / 2 - cy * need, H, h * need);
}

// What the question waiting lets the person tap on the board: the scale at
// which its targets are large enough and apart (cells at least a finger's
// width, whatever the question, so that the board stays readable: a
// tower's floors countable), the box they span and the point the
// question is about (board units; null where the board has no target).
function targetsOf(state) {
  const q = state.question;
  const cell = state.board.cell;
  const last = lastPlaced(state);
  let scale = CELL_TARGET / cell;
  let points;
  if (q.kind === "placement") {
    points = q.options.map((o) => [o.cell[0] + cell / 2, o.cell[1] + cell / 2]);
    // The legal cell nearest the tile placed last first: where the game is.
    if (last) points.sort((a, b) => dist(a, last) - dist(b, last));
  } else {
    points = unique(q.options.filter((o) => o.at).map((o) => o.at));
    let closest = Infinity;
    for (let i = 0; i < points.length; i++) {
      for (let j = i + 1; j < points.length; j++) closest = Math.min(closest, dist(points[i], points[j]));
    }
    if (closest < Infinity) scale = Math.max(scale, Math.min(MOST_FOCUS, (TARGET + 2) / Math.max(closest, 1)));
  }
  if (!points.length && last) points = [last];
  if (!points.length) return { scale, box: null, anchor: null };
  const span = spanOf(points, 0);
  const pad = cell / 2;
  return { scale, box: [span[0] - pad, span[1] - pad, span[2] + pad, span[3] + pad], anchor: points[0] };
}

// The middle of the cell of the tile placed last (by the seat before the
// one to play, or by this one, whose tile a meeple or floor question is
// about).
function lastPlaced(state) {
  const n = state.players.length;
  const cell = state.board.cell;
  const seat = state.question && state.question.kind !== "placement" ? state.current : (state.current + n - 1) % n;
  const at = state.players[seat]?.last_tile;
  return at ? [at[0] + cell / 2, at[1] + cell / 2] : null;
}

function dist(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

function unique(points) {
  const seen = new Map(points.map((p) => [String(p), p]));
  return [...seen.values()];
}

// The box [x0, y0, x1, y1] of points, each the corner of a square of side
// `size`.
function spanOf(points, size) {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs) + size, Math.max(...ys) + size];
}

function zoom(factor, cx, cy) {
  factor = Math.min(8, Math.max(0.05, view.scale * factor)) / view.scale;
  view.fitted = false;
  view.x = cx - (cx - view.x) * factor;
  view.y = cy - (cy - view.y) * factor;
  view.scale *= factor;
  applyView();
}

// Mouse and touch alike (pointer events): one pointer drags the board, two
// pinch it (zooming around their middle); the wheel zooms around the
// pointer; a tap on a cell or a spot answers, as a click does.
function setUpStage() {
  const stage = $("#stage");
  const pointers = new Map();
  let last = null; // the pointers' middle and spread at the last move
  const local = (x, y) => {
    const box = stage.getBoundingClientRect();
    return [x - box.left, y - box.top];
  };
  const gesture = () => {
    const ps = [...pointers.values()];
    const mid = local(ps.reduce((a, p) => a + p.x, 0) / ps.length, ps.reduce((a, p) => a + p.y, 0) / ps.length);
    const spread = ps.length > 1 ? Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y) : 0;
    return { mid, spread };
  };
  // A pointer that moves more than a few pixels drags (two pinch), even
  // from a cell or a spot, and the click it would end with is dropped;
  // one that does not is a tap, and the cell or spot under it answers.
  let dragging = false;
  let dropClick = false;
  stage.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, from: [e.clientX, e.clientY] });
    if (pointers.size === 1) dragging = false;
    last = gesture();
  });
  stage.addEventListener("pointermove", (e) => {
    const p = pointers.get(e.pointerId);
    if (!p) return;
    p.x = e.clientX;
    p.y = e.clientY;
    if (!dragging && pointers.size === 1 && Math.hypot(p.x - p.from[0], p.y - p.from[1]) < 6) return;
    if (!dragging) {
      dragging = true;
      for (const id of pointers.keys()) stage.setPointerCapture?.(id);
      stage.classList.add("dragging");
    }
    const now = gesture();
    view.fitted = false;
    view.x += now.mid[0] - last.mid[0];
    view.y += now.mid[1] - last.mid[1];
    if (now.spread > 0 && last.spread > 0) zoom(now.spread / last.spread, now.mid[0], now.mid[1]);
    else applyView();
    last = now;
  });
  const lift = (e) => {
    if (!pointers.delete(e.pointerId)) return;
    last = pointers.size ? gesture() : null;
    if (!pointers.size) {
      stage.classList.remove("dragging");
      if (dragging) {
        dropClick = true;
        setTimeout(() => { dropClick = false; }, 0);
      }
    }
  };
  stage.addEventListener("click", (e) => {
    if (!dropClick) return;
    e.stopPropagation();
    e.preventDefault();
  }, true);
  stage.addEventListener("pointerup", lift);
  stage.addEventListener("pointercancel", lift);
  stage.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [x, y] = local(e.clientX, e.clientY);
    zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, x, y);
  }, { passive: false });
  for (const b of all("#zoom button")) {
    b.addEventListener("click", () => {
      const kind = b.dataset.zoom;
      if (kind === "fit") { view.fitted = true; applyView(); return; }
      zoom(kind === "in" ? 1.25 : 0.8, stage.clientWidth / 2, stage.clientHeight / 2);
    });
  }
  window.addEventListener("resize", applyView);
}

// ---- start -------------------------------------------------------------

// The game's deal, when this page knows it: the server tells it once the
// game has ended; the game's maker knows a seed they typed.
function dealOf(state) {
  if (state.seed !== null) return state.seed;
  return request && request.id === state.id ? request.seed : undefined;
}

function backToForm(sameDeal, leave = true) {
  const deal = game ? dealOf(game) : undefined;
  clearTimeout(botTimer);
  clearTimeout(pollTimer);
  if (leave && location.pathname !== "/") history.pushState(null, "", "/" + location.search);
  game = null;
  document.body.dataset.status = "new";
  $("#game").hidden = true;
  $("#new").hidden = false;
  $("#seed").value = sameDeal && deal !== undefined ? String(deal) : "";
  $("#new-error").textContent = "";
  $("#new-hint").textContent = sameDeal ? "The same deal: pick other rules and start." : "";
}

$("#new-form").addEventListener("submit", startGame);
$("#confirm").addEventListener("click", () => chosen && answer(chosen.index));
$("#rotate").addEventListener("click", rotate);
$("#again").addEventListener("click", () => backToForm(true));
$("#ransom").addEventListener("click", () => {
  if (game) {
    wantRansom.add(game.current);
    saveSeats(game.id);
    showRansomButton(game);
  }
});
$("#restart").addEventListener("click", () => backToForm(false));
$("#hint").addEventListener("click", askHint);
$("#step-pause").addEventListener("click", pauseSteps);
$("#floor-cancel").addEventListener("click", clearPreview);
$("#step-next").addEventListener("click", () => { if (game && stepsBots(game)) botTurn(); });
setUpStage();

// The page's address names what it shows: a game (/game/ID), or the form.
function route() {
  const at = location.pathname.match(/^\/game\/([0-9a-f]+)$/);
  if (at) resume(at[1]);
  else if (game) backToForm(false, false);
}

window.addEventListener("popstate", route);
loadCatalog().catch((e) => { $("#new-error").textContent = e.message; }).then(route);

// What a test or a console reads of the page, read-only: the state shown,
// the board's view, the seats played here, the steps shown, the new game's
// request, and whether a state is this screen's to answer; and a floor's
// preview drawn from a preview given (and cleared), as the server's would
// be. Nothing else of the module is global.
Object.defineProperties(window, {
  game: { get: () => game },
  view: { get: () => view },
  seats: { get: () => seats },
  steps: { get: () => steps },
  request: { get: () => request },
  mine: { value: mine },
  previewFloor: { value: previewFloor },
  clearPreview: { value: clearPreview },
});
