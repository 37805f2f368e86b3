// The page: set up a table, play from your seat, replay records.  Boards are drawn by boards.js.
// A table has its own address, /t/<id>#<seat secret>: reload, Back and a second tab come back to it.
// Other seats' moves arrive as frames (the board after each move) and are shown one at a time.
"use strict";

const state = {
  games: [], byEnv: {}, table: null, replay: null, busy: false, key: null, shown: 0, animating: false,
  skip: false, rulesMode: false, links: {},
};
const $ = (sel) => document.querySelector(sel);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const PACES = { slow: 1500, normal: 850, fast: 350, instant: 0 };
const settings = {
  get auto() { return localStorage.getItem("bidbluff-auto") !== "0"; },
  get pace() { return PACES[localStorage.getItem("bidbluff-pace") || "normal"] ?? 850; },
};

async function api(method, url, body) {
  const init = { method, headers: {} };
  if (state.key && url.startsWith("/api/tables/")) init.headers["X-Seat-Key"] = state.key;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  let data;
  try {
    data = await response.json();
  } catch (error) {
    throw new Error(`${response.status} ${response.statusText}`);
  }
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function show(panel) {
  for (const section of document.querySelectorAll(".panel")) section.hidden = section.id !== panel;
  for (const tab of document.querySelectorAll(".tab")) {
    tab.classList.toggle("active", tab.dataset.panel === panel || (panel === "replay" && tab.id === "tab-replay"));
  }
}

function say(where, message) {
  const box = $(where);
  box.textContent = message || "";
  box.hidden = !message;
}

function seatWord(view, s) {
  if (s === view.seat) return `P${s} (you)`;
  return `P${s} (${view.labels[s]})`;
}

// -- setup ---------------------------------------------------------------------------------------------
function currentGame() { return state.byEnv[$("#game").value]; }

function fillSeats() {
  const game = currentGame();
  const n = Number($("#players").value) || game.default_players;
  const seat = $("#seat");
  const keep = Math.min(Number(seat.value) || 0, n - 1);
  seat.innerHTML = Array.from({ length: n }, (_, s) => `<option value="${s}">P${s}</option>`).join("");
  seat.value = String(keep);
  const box = $("#opponents");
  const before = Array.from(box.querySelectorAll("select")).map((el) => el.value);
  const typed = Array.from(box.querySelectorAll("input")).map((el) => el.value);
  box.innerHTML = "<legend>Other seats</legend>";
  const kinds = game.opponents.map((k) => [k, k]).concat([["human", "another player (a link of its own)"]],
    game.checkpoints.map((c) => [c, `checkpoint ${c}`]), [["other", "other agent…"]]);
  for (let s = 0, k = 0; s < n; s++) {
    if (s === keep) continue;
    const picked = before[k] || game.default_opponent;
    box.insertAdjacentHTML("beforeend", `<div class="opponent" data-seat="${s}"><span>P${s}</span>
      <select class="opponent-kind" name="opponent-${s}" aria-label="seat P${s}">${kinds.map(([value, text]) =>
        `<option value="${esc(value)}" ${value === picked ? "selected" : ""}>${esc(text)}</option>`).join("")}</select>
      <input class="opponent-path" name="opponent-path-${s}" placeholder="ismcts:400,1000ms or runs/x/final.zip"
        value="${esc(typed[k] || "")}" ${picked === "other" ? "" : "hidden"}></div>`);
    k++;
  }
  for (const select of box.querySelectorAll("select")) {
    select.addEventListener("change", () => {
      select.nextElementSibling.hidden = select.value !== "other";
    });
  }
}

function fillOptions() {
  const game = currentGame();
  const box = $("#options");
  box.innerHTML = "<legend>Options</legend>";
  if (!game.options.length) box.insertAdjacentHTML("beforeend", "<p class=\"quiet\">This game has no setup options.</p>");
  for (const o of game.options) {
    const id = `option-${o.name}`;
    let input;
    if (o.kind === "bool") {
      input = `<input type="checkbox" id="${id}" ${o.default ? "checked" : ""}>`;
    } else if (o.kind === "int") {
      input = `<input type="number" id="${id}" min="${o.choices[0]}" max="${o.choices[1]}" value="${o.default}">`;
    } else if (o.kind === "multi") {
      input = `<span class="multi" id="${id}">${o.choices.map((c) =>
        `<label class="check"><input type="checkbox" value="${esc(c)}"> ${esc(c)}</label>`).join("")}</span>`;
    } else {
      input = `<select id="${id}">${o.choices.map((c) =>
        `<option value="${c === null ? "" : esc(c)}" ${c === o.default ? "selected" : ""}>${c === null ? "none" : esc(c)}</option>`).join("")}</select>`;
    }
    box.insertAdjacentHTML("beforeend", `<div class="option"><label for="${id}">${esc(o.name)}</label> ${input}
      <span class="quiet">${esc(o.help)}</span></div>`);
  }
}

function readOptions() {
  const out = {};
  for (const o of currentGame().options) {
    const el = document.getElementById(`option-${o.name}`);
    if (o.kind === "bool") out[o.name] = el.checked;
    else if (o.kind === "int") out[o.name] = Number(el.value);
    else if (o.kind === "multi") out[o.name] = Array.from(el.querySelectorAll("input:checked")).map((x) => x.value);
    else out[o.name] = el.value === "" ? null : el.value;
  }
  return out;
}

function readSeats() {
  const n = Number($("#players").value);
  const mine = Number($("#seat").value);
  const seats = Array.from({ length: n }, () => "human");
  for (const row of document.querySelectorAll("#opponents .opponent")) {
    const kind = row.querySelector("select").value;
    seats[Number(row.dataset.seat)] = kind === "other" ? row.querySelector("input").value.trim() : kind;
  }
  seats[mine] = "human";
  return seats;
}

function pickGame() {
  const game = currentGame();
  const players = $("#players");
  players.min = game.min_players;
  players.max = game.max_players;
  players.value = game.default_players;
  fillSeats();
  fillOptions();
}

async function startGame(event) {
  event.preventDefault();
  if (state.busy) return;
  state.busy = true;
  say("#error", "");
  try {
    const body = { env: $("#game").value, seats: readSeats(), options: readOptions() };
    if ($("#seed").value !== "") body.seed = Number($("#seed").value);
    const view = await api("POST", "/api/tables", body);
    const mine = `/t/${view.id}#${view.key}`;
    state.links[view.id] = view.links;
    localStorage.setItem(`bidbluff-links-${view.id}`, JSON.stringify(view.links));
    history.pushState({ table: view.id }, "", mine);
    enterTable(view.id, view.key);
    alertSetup("");
    await receive(view);
  } catch (error) {
    show("setup");
    alertSetup(error.message);
  } finally {
    state.busy = false;
  }
}

function alertSetup(message) {
  let box = $("#setup-error");
  if (!box) {
    $("#setup-form").insertAdjacentHTML("afterbegin", "<div id=\"setup-error\" role=\"alert\"></div>");
    box = $("#setup-error");
  }
  box.textContent = message;
  drawn();
}

// -- the table's address --------------------------------------------------------------------------------
function enterTable(id, key) {
  state.key = key;
  state.shown = 0;
  state.markFrom = 0;
  state.table = null;
  state.epoch = (state.epoch || 0) + 1;
  localStorage.setItem(`bidbluff-seat-${id}`, key);
  state.links[id] = state.links[id] || JSON.parse(localStorage.getItem(`bidbluff-links-${id}`) || "null");
  $("#tab-table").hidden = false;
  $("#tab-table").dataset.href = `/t/${id}#${key}`;
  show("play");
}

// Open the page's address: a table (/t/<id>#<key>) resumes from that seat's view; anything else is the setup.
async function route() {
  const found = location.pathname.match(/^\/t\/([0-9a-f]{16})$/);
  if (!found) {
    state.epoch = (state.epoch || 0) + 1;
    state.table = null;
    show("setup");
    drawn();
    return;
  }
  const id = found[1];
  const key = location.hash.slice(1) || localStorage.getItem(`bidbluff-seat-${id}`);
  enterTable(id, key);
  try {
    const view = await api("GET", `/api/tables/${id}`);
    state.shown = view.move_count;
    state.markFrom = view.move_count;
    await receive(view);
  } catch (error) {
    $("#play-title").textContent = "This table";
    say("#error", `${error.message}${key ? "" : " (open it with the link its seat was given)"}`);
    document.body.dataset.waiting = "0";
    drawn();
  }
}

// -- the table -----------------------------------------------------------------------------------------
// A view from the server: first each new move of another seat, on the board after it, at the page's pace;
// then the table as it stands.  While an agent thinks (or another human is to move) the page asks again.
async function receive(view) {
  const epoch = state.epoch;
  const markFrom = state.markFrom ?? state.shown;  // new since the player's own last move
  const fresh = (view.frames || []).filter((f) => f.n > state.shown && f.seat !== view.seat);
  document.body.dataset.waiting = "1";
  if (fresh.length && settings.pace > 0) {
    state.animating = true;
    state.skip = false;
    for (const frame of fresh) {
      if (state.skip || epoch !== state.epoch) break;
      drawFrame(view, frame);
      await sleep(settings.pace);
    }
    state.animating = false;
  }
  if (epoch !== state.epoch) return;
  state.shown = view.move_count;
  drawTable(view, markFrom);
  if (view.over) return;
  if (view.to_act !== view.seat) {
    follow(view, epoch);
  } else if (settings.auto && view.moves.length === 1 && !state.busy) {
    document.body.dataset.waiting = "1";  // the only move is about to be played: nothing to click meanwhile
    $("#prompt").innerHTML = `<b class="your-move">Your only move</b>: ${esc(view.moves[0].text)} (played for you)`;
    await sleep(Math.min(400, settings.pace));
    if (epoch === state.epoch && state.table === view) sendMove(view.moves[0].id);
  }
}

async function follow(view, epoch) {
  try {
    const next = await api("GET", `/api/tables/${view.id}?since=${view.move_count}&wait=1`);
    if (epoch === state.epoch) await receive(next);
  } catch (error) {
    if (epoch !== state.epoch) return;
    say("#error", `${error.message} — trying again`);
    drawn();
    await sleep(2000);
    if (epoch === state.epoch) follow(view, epoch);
  }
}

function context(view) {
  return { glossary: state.byEnv[view.env].glossary, labels: view.labels, seat: view.seat, you: view.seat };
}

function drawFrame(view, frame) {
  const board = $("#board");
  const before = Array.from(board.querySelectorAll("svg.die")).map((d) => d.dataset.face);
  board.innerHTML = Boards.draw(view.env, frame.board, context(view));
  board.classList.add("inactive", "frame");
  markRolled(board, before);
  $("#status").innerHTML = `${esc(frame.board.status)}`;
  $("#prompt").innerHTML = `<div class="just-now"><b>${esc(seatWord(view, frame.seat))}</b>: ${esc(frame.text)}</div>
    <button id="skip" type="button" class="skip">Skip ▸▸</button>`;
  $("#moves").innerHTML = "";
  $("#notes").innerHTML = "";
  $("#skip").addEventListener("click", () => { state.skip = true; });
  document.body.dataset.frame = String(frame.n);
  drawn();
}

// A die that shows another face than before (by its place on the board) rolls.
function markRolled(board, before) {
  board.querySelectorAll("svg.die").forEach((d, k) => {
    if (d.dataset.face !== "hidden" && before[k] !== undefined && before[k] !== d.dataset.face) d.classList.add("rolling");
  });
}

function drawTable(view, markFrom = view.move_count) {
  const first = state.table === null || state.table.id !== view.id;
  state.table = view;
  document.body.dataset.waiting = view.to_act !== null && view.to_act !== view.seat ? "1" : "0";
  delete document.body.dataset.frame;
  $("#play-title").textContent = `${view.title} — ${view.num_players} players, you are P${view.seat}`;
  $("#status").innerHTML = `${esc(view.board.status)}${view.board.decision ? ` · <b>${esc(view.board.decision)}</b>` : ""}`
    + ` <span class="quiet">${view.seed === null ? "" : `seed ${view.seed}`}${Object.keys(view.options).length ? ` options ${esc(optionsText(view.options))}` : ""}</span>`;
  const board = $("#board");
  const before = first ? [] : Array.from(board.querySelectorAll("svg.die")).map((d) => d.dataset.face);
  board.innerHTML = Boards.draw(view.env, view.board, context(view));
  board.classList.remove("frame");
  board.classList.toggle("inactive", view.to_act !== view.seat);
  markRolled(board, before);
  drawLinks(view);
  drawMoves(view);
  drawLog("#log", view.log, view.labels, markFrom, view.seat);
  const result = $("#result");
  if (view.over) {
    result.hidden = false;
    result.innerHTML = `<b>${esc(view.result)}</b>${view.truncated ? " (stopped after too many moves, scored as it stood)" : ""}
      <span>Scores: ${view.scores.map((sc, s) => `P${s}${s === view.seat ? " (you)" : ""} ${sc}`).join(", ")}</span>
      ${view.saved ? `<span class="quiet">saved as ${esc(view.saved)}</span>` : ""}
      <a id="download" href="#" download="${esc(view.saved || `${view.env}-${view.seed}.json`)}">Download the record</a>
      <button id="replay-this" type="button">Replay this game</button>
      <button id="again" type="button">New game</button>${breakdownHtml(view.breakdown)}`;
    $("#download").addEventListener("click", async (event) => {  // the record is asked for with the seat's key
      const link = event.currentTarget;
      if (link.href.startsWith("blob:")) return;
      event.preventDefault();
      const record = await api("GET", `/api/tables/${view.id}/record`);
      link.href = URL.createObjectURL(new Blob([JSON.stringify(record)], { type: "application/json" }));
      link.click();
    });
    $("#replay-this").addEventListener("click", async () => {
      const record = await api("GET", `/api/tables/${view.id}/record`);
      openReplay({ record, name: view.saved || "this game" });
    });
    $("#again").addEventListener("click", () => { history.pushState(null, "", "/"); route(); });
  } else {
    result.hidden = true;
  }
  drawn();
}

// Counts what was drawn, so that a test (or a screen reader) can tell a new picture from the last one.
function drawn() {
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
}

function optionsText(options) {
  return Object.entries(options).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(", ") || "none" : v ?? "none"}`).join("; ");
}

// How the scores came about: a table per part of the game (the server's "breakdown").
function breakdownHtml(parts) {
  if (!parts || !parts.length) return "";
  return `<div class="breakdown">${parts.map((p) => `<div class="part"><h3>${esc(p.title)}</h3>
    ${p.text ? `<p>${esc(p.text)}</p>` : ""}
    ${p.rows && p.rows.length ? `<table><thead><tr>${p.head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead>
      <tbody>${p.rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("")}</tbody></table>` : ""}
    ${p.board ? p.board : ""}</div>`).join("")}</div>`;
}

// The creator of a table with other human seats hands each one its own link.
function drawLinks(view) {
  const links = state.links[view.id];
  const box = $("#links");
  const others = links ? Object.entries(links).filter(([s]) => Number(s) !== view.seat) : [];
  box.hidden = !others.length;
  box.innerHTML = others.length ? `<b>Links of the other players' seats</b> (each shows only that seat): ${others.map(([s, link]) =>
    `<span class="link">P${s}: <input readonly value="${esc(location.origin + link)}" data-seat-link="${s}" aria-label="link of P${s}"></span>`).join(" ")}` : "";
}

function drawMoves(view) {
  const box = $("#moves");
  const prompt = $("#prompt");
  $("#notes").innerHTML = (view.notes || []).map((n) => `<li>${esc(n)}</li>`).join("");
  if (view.over) {
    prompt.textContent = "The game is over.";
    box.innerHTML = "";
    return;
  }
  if (view.to_act !== view.seat) {
    const who = seatWord(view, view.to_act);
    prompt.innerHTML = view.thinking !== null
      ? `<div class="thinking" role="status"><span class="spinner"></span> ${esc(who)} is thinking…</div>`
      : `<div class="thinking" role="status">Waiting for ${esc(who)} to move…</div>`;
    box.innerHTML = "";
    return;
  }
  const onBoard = view.moves.filter((m) => m.target);
  prompt.innerHTML = `<b class="your-move">Your move</b>${onBoard.length ? " — tap a highlighted piece on the board, or a button" : ""}:`;
  box.innerHTML = Boards.moveButtons(view.env, view.moves.filter((m) => !m.target), state.byEnv[view.env].glossary);
  for (const move of onBoard) {
    const el = document.querySelector(`#board [data-key="${move.target}"]`);
    if (!el) {
      box.insertAdjacentHTML("beforeend", `<button class="move" data-action="${move.id}" title="${esc(move.text)}">${esc(move.text)}</button>`);
      continue;
    }
    el.classList.add("legal");
    el.dataset.action = move.id;
    el.title = `${move.text} — ${el.title || ""}`;
  }
}

async function sendMove(action) {
  if (state.busy || !state.table || state.animating) return;
  state.busy = true;
  say("#error", "");
  const epoch = state.epoch;
  document.body.dataset.waiting = "1";
  $("#board").classList.add("inactive");
  $("#moves").innerHTML = "";
  let view = null;
  try {
    view = await api("POST", `/api/tables/${state.table.id}/move`, { action });
    state.markFrom = state.table.move_count;
  } catch (error) {
    say("#error", error.message);
    document.body.dataset.waiting = "0";
    drawTable(state.table);
  } finally {
    state.busy = false;
  }
  if (view && epoch === state.epoch) {
    state.shown = Math.max(state.shown, view.move_count - view.frames.filter((f) => f.seat !== view.seat).length);
    await receive(view);
  }
}

// The rules of whatever is tapped: its title (a die's <title>), in the box beside the moves.
function showRules(el) {
  const text = el.getAttribute("title") || (el.querySelector("title") && el.querySelector("title").textContent) || "";
  const box = $("#rules");
  box.hidden = !text;
  box.textContent = text;
}

function drawLog(where, lines, labels, markFrom = Infinity, you = null) {
  const log = $(where);
  log.innerHTML = lines.map((line) => {
    const fresh = line.n > markFrom ? " new" : "";
    if (line.kind === "move") {
      const who = line.seat === you ? `P${line.seat} (you)` : `P${line.seat} (${esc(line.who)})`;
      return `<li class="move${/Liar!|exactly/.test(line.text) ? " call" : ""}${fresh}"><b>${who}</b>: ${esc(line.text)}</li>`;
    }
    return `<li class="${line.kind === "note" ? "note" : "engine"}${fresh}">${esc(line.text)}</li>`;
  }).join("");
  log.scrollTop = log.scrollHeight;
}

// -- replays -------------------------------------------------------------------------------------------
async function listSaved() {
  const files = await api("GET", "/api/records");
  $("#saved").innerHTML = files.length
    ? files.map((f) => `<li><button type="button" class="saved" data-name="${esc(f.name)}">${esc(f.name)}</button></li>`).join("")
    : "<li class=\"quiet\">none yet: finished games appear here</li>";
  for (const button of document.querySelectorAll("#saved button")) {
    button.addEventListener("click", () => openReplay({ saved: button.dataset.name }));
  }
}

async function openReplay(body) {
  say("#replay-error", "");
  try {
    const view = await api("POST", "/api/replays", body);
    const select = $("#replay-view");
    select.innerHTML = `<option value="all">everything</option>` + view.labels.map((label, s) =>
      `<option value="${s}">P${s} (${esc(label)})</option>`).join("");
    show("replay");
    drawReplay(view);
  } catch (error) {
    replaysError(error.message);
  }
}

function replaysError(message) {
  show("replays");
  let box = $("#replays-error");
  if (!box) {
    $("#replays .opener").insertAdjacentHTML("afterend", "<div id=\"replays-error\" role=\"alert\"></div>");
    box = $("#replays-error");
  }
  box.textContent = message;
  drawn();
}

function drawReplay(view) {
  state.replay = view;
  const game = state.byEnv[view.env];
  $("#replay-title").textContent = `Replay: ${view.title}, ${view.num_players} players`;
  $("#replay-status").innerHTML = `${esc(view.board.status)} <span class="quiet">${esc(view.source)}, seed ${view.seed}</span>`;
  $("#replay-step").textContent = `move ${view.step} of ${view.steps}`;
  $("#replay-coming").textContent = view.next ? `next: ${view.next}` : "final position";
  const ctx = { glossary: game.glossary, labels: view.labels, seat: view.viewer, you: null };
  $("#replay-board").innerHTML = Boards.draw(view.env, view.board, ctx);
  drawLog("#replay-log", view.log, view.labels);
  const result = $("#replay-result");
  result.hidden = !view.scores;
  if (view.scores) {
    result.innerHTML = `<b>${esc(view.result)}</b> Scores: ${view.scores.map((sc, s) => `P${s} ${sc}`).join(", ")}
      ${breakdownHtml(view.breakdown)}`;
  }
  $("#replay-first").disabled = $("#replay-prev").disabled = view.step === 0;
  $("#replay-next").disabled = $("#replay-last").disabled = view.step === view.steps;
  drawn();
}

async function replayStep(step) {
  if (!state.replay || state.busy) return;
  state.busy = true;
  try {
    const view = $("#replay-view").value;
    drawReplay(await api("GET", `/api/replays/${state.replay.id}?step=${step}&view=${view}`));
  } catch (error) {
    say("#replay-error", error.message);
  } finally {
    state.busy = false;
  }
}

// -- wiring --------------------------------------------------------------------------------------------
async function boot() {
  state.games = await api("GET", "/api/games");
  for (const game of state.games) state.byEnv[game.env] = game;
  $("#game").innerHTML = state.games.map((g) => `<option value="${g.env}">${esc(g.title)} (${g.env})</option>`).join("");
  $("#game").addEventListener("change", pickGame);
  $("#players").addEventListener("change", fillSeats);
  $("#seat").addEventListener("change", fillSeats);
  $("#setup-form").addEventListener("submit", startGame);
  pickGame();
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => {
      if (tab.id === "tab-table" && tab.dataset.href && location.pathname + location.hash !== tab.dataset.href) {
        history.pushState(null, "", tab.dataset.href);
        route();
        return;
      }
      show(tab.dataset.panel);
      if (tab.dataset.panel === "replays") listSaved();
    });
  }
  $("#auto").checked = settings.auto;
  $("#auto").addEventListener("change", () => localStorage.setItem("bidbluff-auto", $("#auto").checked ? "1" : "0"));
  $("#pace").value = localStorage.getItem("bidbluff-pace") || "normal";
  $("#pace").addEventListener("change", () => localStorage.setItem("bidbluff-pace", $("#pace").value));
  $("#rules-mode").addEventListener("click", () => {
    state.rulesMode = !state.rulesMode;
    $("#rules-mode").setAttribute("aria-pressed", String(state.rulesMode));
  });
  document.addEventListener("click", (event) => {
    if (!event.target.closest("#play, #replay")) return;
    const move = event.target.closest("[data-action]");
    if (move && move.closest("#play") && !state.rulesMode) {
      sendMove(Number(move.dataset.action));
      return;
    }
    const piece = event.target.closest("[title], svg.die, .move");
    if (piece && piece.closest("#board, #moves, #replay-board, #result")) showRules(piece);
  });
  $("#record-file").addEventListener("change", async () => {
    const file = $("#record-file").files[0];
    if (!file) return;
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch (error) {
      replaysError(`${file.name} is not a game record (not JSON)`);
      return;
    }
    openReplay({ record, name: file.name });
  });
  $("#open-path").addEventListener("click", () => openReplay({ path: $("#record-path").value }));
  $("#replay-first").addEventListener("click", () => replayStep(0));
  $("#replay-prev").addEventListener("click", () => replayStep(state.replay.step - 1));
  $("#replay-next").addEventListener("click", () => replayStep(state.replay.step + 1));
  $("#replay-last").addEventListener("click", () => replayStep(state.replay.steps));
  $("#replay-view").addEventListener("change", () => replayStep(state.replay.step));
  document.addEventListener("keydown", (event) => {
    if ($("#replay").hidden || event.target.closest("input, select")) return;
    if (event.key === "ArrowRight" && state.replay.step < state.replay.steps) replayStep(state.replay.step + 1);
    if (event.key === "ArrowLeft" && state.replay.step > 0) replayStep(state.replay.step - 1);
  });
  window.addEventListener("popstate", route);
  window.addEventListener("hashchange", route);
  await route();
  document.body.dataset.ready = "1";
}

// the tests and the console can send a move by id, as a click does
window.bidbluff = { sendMove, state };
boot().catch((error) => alertSetup(error.message));
