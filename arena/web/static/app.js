// The page: set up a table, play from your seat, replay records. Boards are drawn by boards.js.
"use strict";

const state = { games: [], byEnv: {}, table: null, replay: null, busy: false };
const $ = (sel) => document.querySelector(sel);

async function api(method, url, body) {
  const init = { method, headers: {} };
  if (state.key && url.startsWith("/api/tables/")) init.headers["X-Seat-Key"] = state.key;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const data = await response.json();
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
  const paths = Array.from(box.querySelectorAll("input")).map((el) => el.value);
  box.innerHTML = "<legend>Opponents</legend>";
  for (let s = 0, k = 0; s < n; s++) {
    if (s === keep) continue;
    const kinds = game.opponents.concat(["checkpoint"]);
    const picked = before[k] || game.default_opponent;
    box.insertAdjacentHTML("beforeend", `<div class="opponent" data-seat="${s}"><span>P${s}</span>
      <select class="opponent-kind" name="opponent-${s}">${kinds.map((kind) =>
        `<option value="${kind}" ${kind === picked ? "selected" : ""}>${kind === "checkpoint" ? "checkpoint path…" : kind}</option>`).join("")}</select>
      <input class="opponent-path" name="opponent-path-${s}" placeholder="runs/x/final.zip or ismcts:200"
        value="${esc(paths[k] || "")}" ${picked === "checkpoint" ? "" : "hidden"}></div>`);
    k++;
  }
  for (const select of box.querySelectorAll("select")) {
    select.addEventListener("change", () => {
      select.nextElementSibling.hidden = select.value !== "checkpoint";
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

function readOpponents() {
  return Array.from(document.querySelectorAll("#opponents .opponent")).map((row) => {
    const kind = row.querySelector("select").value;
    return kind === "checkpoint" ? row.querySelector("input").value.trim() : kind;
  });
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
    const body = {
      env: $("#game").value, num_players: Number($("#players").value), seat: Number($("#seat").value),
      opponents: readOpponents(), options: readOptions(),
    };
    if ($("#seed").value !== "") body.seed = Number($("#seed").value);
    const view = await api("POST", "/api/tables", body);
    state.key = view.key;
    $("#tab-table").hidden = false;
    alertSetup("");
    show("play");
    drawTable(view);
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

// -- the table -----------------------------------------------------------------------------------------
function drawTable(view) {
  state.table = view;
  document.body.dataset.waiting = view.thinking === null ? "0" : "1";
  if (view.thinking !== null) setTimeout(() => follow(view), 0);
  const game = state.byEnv[view.env];
  $("#play-title").textContent = `${view.title} — ${view.num_players} players, you are P${view.seat}`;
  $("#status").innerHTML = `${esc(view.board.status)}${view.board.decision ? ` · <b>${esc(view.board.decision)}</b>` : ""}`
    + ` <span class="quiet">${view.seed === null ? "" : `seed ${view.seed}`}${Object.keys(view.options).length ? ` options ${esc(JSON.stringify(view.options))}` : ""}</span>`;
  const ctx = { glossary: game.glossary, labels: view.labels, seat: view.seat, you: view.seat };
  $("#board").innerHTML = Boards.draw(view.env, view.board, ctx);
  drawMoves(view);
  drawLog("#log", view.log, view.labels);
  const result = $("#result");
  if (view.over) {
    result.hidden = false;
    result.innerHTML = `<b>${esc(view.result)}</b>${view.truncated ? " (stopped after too many moves, scored as it stood)" : ""}
      <span>Scores: ${view.scores.map((sc, s) => `P${s}${s === view.seat ? " (you)" : ""} ${sc}`).join(", ")}</span>
      ${view.saved ? `<span class="quiet">saved to ${esc(view.saved)}</span>` : ""}
      <a id="download" href="#" download="${esc(view.saved || `${view.env}-${view.seed}.json`)}">Download the record</a>
      <button id="replay-this" type="button">Replay this game</button>
      <button id="again" type="button">New game</button>`;
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
    $("#again").addEventListener("click", () => show("setup"));
  } else {
    result.hidden = true;
  }
  drawn();
}

// Counts what was drawn, so that a test (or a screen reader) can tell a new picture from the last one.
function drawn() {
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
}

function drawMoves(view) {
  const box = $("#moves");
  const prompt = $("#prompt");
  if (view.over) {
    prompt.textContent = "The game is over.";
    box.innerHTML = "";
    return;
  }
  if (view.to_act !== view.seat) {
    prompt.textContent = `Waiting for P${view.to_act}…`;
    box.innerHTML = "";
    return;
  }
  const onBoard = view.moves.filter((m) => m.target);
  prompt.innerHTML = `<b>Your move</b>${onBoard.length ? " — click a highlighted piece on the board, or a button" : ""}:`;
  box.innerHTML = Boards.moveButtons(view.env, view.moves.filter((m) => !m.target), state.byEnv[view.env].glossary);
  for (const move of onBoard) {
    const el = document.querySelector(`#board [data-key="${move.target}"]`);
    if (!el) {
      box.insertAdjacentHTML("beforeend", `<button class="move" data-action="${move.id}">${esc(move.text)}</button>`);
      continue;
    }
    el.classList.add("legal");
    el.dataset.action = move.id;
    el.title = `${move.text} — ${el.title || ""}`;
  }
}

// While an agent thinks, ask again: the answer comes when it has moved (or after a while, still thinking).
async function follow(view) {
  if (state.table !== view) return;
  try {
    drawTable(await api("GET", `/api/tables/${view.id}?since=${view.move_count}&wait=1`));
  } catch (error) {
    say("#error", error.message);
    drawn();
  }
}

async function sendMove(action) {
  if (state.busy || !state.table) return;
  state.busy = true;
  say("#error", "");
  try {
    drawTable(await api("POST", `/api/tables/${state.table.id}/move`, { action }));
  } catch (error) {
    say("#error", error.message);
    drawn();
  } finally {
    state.busy = false;
  }
}

function drawLog(where, lines, labels) {
  const log = $(where);
  log.innerHTML = lines.map((line) => line.kind === "move"
    ? `<li class="move${/Liar!|exactly/.test(line.text) ? " call" : ""}"><b>P${line.seat} (${esc(line.who)})</b>: ${esc(line.text)}</li>`
    : `<li class="engine">${esc(line.text)}</li>`).join("");
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
  if (view.scores) result.innerHTML = `<b>${esc(view.result)}</b> Scores: ${view.scores.map((sc, s) => `P${s} ${sc}`).join(", ")}`;
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
      show(tab.dataset.panel);
      if (tab.dataset.panel === "replays") listSaved();
    });
  }
  document.addEventListener("click", (event) => {
    const el = event.target.closest("[data-action]");
    if (el && el.closest("#play")) sendMove(Number(el.dataset.action));
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
  document.body.dataset.ready = "1";
}

// the tests and the console can send a move by id, as a click does
window.bidbluff = { sendMove, state };
boot().catch((error) => alertSetup(error.message));
