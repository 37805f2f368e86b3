// Per-game boards: each draws the JSON board of one seat's view as HTML/SVG.  An element a move can be taken
// on carries data-key (the server's move "target"); app.js makes it clickable when it is legal.  ctx holds the
// glossary (rules text), the seat labels, seat (whose pieces are framed as one's own) and you (the human's
// seat; null in a replay).
"use strict";

function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]);
}

const Boards = (() => {
  const PIPS = {
    1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[28, 28], [50, 50], [72, 72]],
    4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
    6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
  };
  const DIE_CLASS = ["crew", "king", "mermaid", "cursed", "ghost", "mayor"];
  const SEAT_COLOURS = ["#e0b400", "#c0392b", "#2e6fd1", "#2f9e44", "#333", "#888"];

  // A die as SVG: face null is a hidden die, 0 blank, 1-6 pips, 7 coin, 8 bomb.
  function markedDie(d, glossary) {
    const mark = d.mark ? ` ${d.mark}` : "";
    const svg = die(d.face, d.kind, glossary);
    return mark ? svg.replace("class=\"die ", `class="die${mark} `).replace("<title>", `<title>${d.mark === "wild" ? "wild, counted: " : "counted: "}`) : svg;
  }

  function die(face, kind = 0, glossary = null, extra = "") {
    const info = glossary && glossary.dice ? glossary.dice[String(kind)] : null;
    const title = info ? `${info.text}${face === null || face === undefined ? " (hidden)" : ""}` : "";
    let inner;
    if (face === null || face === undefined) inner = "<text x=\"50\" y=\"66\" text-anchor=\"middle\" font-size=\"48\">?</text>";
    else if (face === 7) inner = "<circle cx=\"50\" cy=\"50\" r=\"24\" class=\"coin\"/>";
    else if (face === 8) inner = "<circle cx=\"48\" cy=\"58\" r=\"22\"/><path d=\"M60 38 L72 24\" class=\"fuse\"/>";
    else inner = (PIPS[face] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join("");
    const label = face === null || face === undefined ? "hidden" : face;
    return `<svg class="die ${DIE_CLASS[kind] || "crew"}" viewBox="0 0 100 100" data-face="${label}" ${extra}>
      <title>${esc(title)}</title><rect x="4" y="4" width="92" height="92" rx="16"/>${inner}</svg>`;
  }

  function seatName(ctx, s) {
    const label = ctx.labels[s];
    return `P${s}${s === ctx.you ? " (you)" : ` (${esc(label)})`}`;
  }

  function bidList(bids, name) {
    if (!bids.length) return "<p class=\"quiet\">no bet yet</p>";
    return `<ol class="bids">${bids.map((b) => `<li>${name(b.seat)}: <b>${b.quantity}×</b>${die(b.face)}</li>`).join("")}</ol>`;
  }

  // -- Liar's dice --------------------------------------------------------------------------------------
  function liarsDice(b, ctx) {
    const name = (s) => seatName(ctx, s);
    const cups = b.cups.map((c) => `<div class="cup ${c.seat === ctx.seat ? "own" : ""}" data-key="cup-${c.seat}">
      <div class="who">${name(c.seat)}</div><div class="dice">${c.dice.map((d) => markedDie(d, ctx.glossary)).join("")}</div></div>`).join("");
    return `<div class="liars-dice">
      <p class="quiet">${b.wild ? `1s are wild; ` : ""}bets on faces ${b.faces.join(", ")}</p>
      <div class="cups">${cups}</div>
      <h3>Bets</h3>${bidList(b.bids, name)}
      ${b.reveal ? `<p class="outcome"><b>${esc(b.reveal)}</b> <span class="small">Dice framed green counted; dashed orange: wild.</span></p>` : ""}</div>`;
  }

  // -- Libertalia ---------------------------------------------------------------------------------------
  function character(rank, seat, ctx, key, extra = "") {
    const info = ctx.glossary.characters[String(rank)];
    return `<div class="character" style="--seat:${SEAT_COLOURS[seat]}" ${key ? `data-key="${key}"` : ""}
      title="${esc(`${rank} ${info.name}: ${info.text}`)}" ${extra}><span class="rank">${rank}</span><span class="name">${esc(info.name)}</span></div>`;
  }

  function booty(t, count, ctx, key) {
    const info = ctx.glossary.booty[t];
    return `<span class="token booty-${t}" ${key ? `data-key="${key}"` : ""} title="${esc(`${info.name}: ${info.text}`)}">
      ${esc(info.name)}${count > 1 ? ` ×${count}` : ""}</span>`;
  }

  function bootyRow(counts, ctx, keyOf) {
    const tokens = counts.map((c, t) => (c ? booty(t, c, ctx, keyOf ? keyOf(t) : "") : "")).join("");
    return tokens || "<span class=\"quiet\">-</span>";
  }

  function libertalia(b, ctx) {
    const ship = b.ship.length ? b.ship.map((c) => character(c.rank, c.seat, ctx, "")).join("") : "<p class=\"quiet\">the ship is empty</p>";
    const days = b.days.map((d) => `<div class="day ${d.today ? "today" : ""}"><span class="label">${d.today ? "today" : `day ${d.day}`}</span>
      ${bootyRow(d.booty, ctx, d.today ? (t) => `today-${t}` : null)}</div>`).join("");
    const seats = b.seats.map((s) => {
      const mine = s.hand !== null;
      const hand = mine
        ? `<div class="pile"><span class="label">hand</span>${s.hand.map((r) => character(r, s.seat, ctx, `hand-${r}`)).join("") || "-"}</div>`
        : `<div class="pile"><span class="label">may hold</span><span class="small" title="${esc(s.may_hold.map((r) => `${r} ${ctx.glossary.characters[String(r)].name}`).join(", "))}">${s.may_hold.join(", ") || "-"}${s.unseen ? ` (+${s.unseen} unseen)` : ""}</span></div>`;
      return `<div class="seat ${s.seat === ctx.seat ? "own" : ""}" style="--seat:${SEAT_COLOURS[s.seat]}">
        <div class="who">${seatName(ctx, s.seat)} — ${esc(s.colour)} <span class="stat">doubloons ${s.doubloons}</span>
          <span class="stat">score ${s.score}</span>${s.has_chosen ? " <span class=\"stat\">has chosen</span>" : ""}</div>
        ${s.chosen ? `<div class="pile"><span class="label">chosen</span>${character(s.chosen, s.seat, ctx, "")}</div>` : ""}
        ${hand}
        <div class="pile"><span class="label">den</span>${s.den.map((r) => character(r, s.seat, ctx, `den-${s.seat}-${r}`)).join("") || "-"}</div>
        <div class="pile"><span class="label">booty</span>${bootyRow(s.den_booty, ctx, (t) => `denbooty-${s.seat}-${t}`)}</div>
        <div class="pile"><span class="label">discard</span>${s.discard.map((r) => character(r, s.seat, ctx, `discard-${s.seat}-${r}`)).join("") || "-"}</div>
      </div>`;
    }).join("");
    return `<div class="libertalia"><h3>The ship</h3><div class="ship">${ship}</div>
      <h3>Booty</h3><div class="days">${days}</div><div class="seats">${seats}</div></div>`;
  }

  // -- Spytails -----------------------------------------------------------------------------------------
  function spyCard(c, ctx, key, note = "") {
    if (c === null) return `<div class="spy-card ghost" title="ghost token: no card this operation">ghost</div>`;
    const info = ctx.glossary.cards[c];
    const face = info.suit < 0 ? `<span class="name">${esc(info.name)}</span>`
      : `<span class="rank">${{ 11: "J", 12: "Q", 13: "K", 14: "A" }[info.rank] || info.rank}</span>
         <span class="name">${esc(ctx.glossary.suits[info.suit])}</span>`;
    return `<div class="spy-card suit-${info.suit}" ${key ? `data-key="${key}"` : ""} title="${esc(info.text)}">${face}${note}</div>`;
  }

  function spytails(b, ctx) {
    const g = ctx.glossary;
    const row = b.row.map((r) => `<div class="row-card ${g.row[r.card].mission ? "mission" : "event"}" title="${esc(g.row[r.card].text)}">
      <span class="reward">${r.reward}</span><b>${esc(g.row[r.card].name)}</b><span class="small">${esc(g.row[r.card].text)}</span></div>`).join("");
    const trick = b.trick.map((p) => `<div class="play"><span class="who">P${p.seat}</span>${spyCard(p.card, ctx, "",
      `${p.low ? " (low)" : ""}${p.mimic ? " (as intimidation)" : ""}`)}</div>`).join("");
    const seats = b.seats.map((s) => {
      const ch = s.character >= 0 ? g.characters[s.character] : null;
      const forecast = !s.forecast ? "no forecast yet" : s.bid === null ? "forecast hidden" : `forecast ${s.bid}, stake ${s.stake}`;
      const used = Object.entries(s.used).filter(([, v]) => v).map(([k]) => k).join(", ") || "none";
      return `<div class="seat ${s.seat === ctx.seat ? "own" : ""}">
        <div class="who">${seatName(ctx, s.seat)} ${ch ? `<span class="character-name" title="${esc(`${ch.name}: ${ch.text}`)}">${esc(ch.name)}</span>` : ""}
          ${s.team ? `<span class="stat">team ${s.team}</span>` : ""}${s.start ? " <span class=\"stat\">start token</span>" : ""}</div>
        <div><span class="stat">influence ${s.influence}</span> <span class="stat">leverage ${s.leverage}</span>
          <span class="stat">${forecast}</span> <span class="stat">won ${s.won}</span> <span class="stat">tokens used: ${used}</span>
          <span class="stat">hand ${s.hand_size}, deck ${s.deck_size}</span></div>
        ${s.hand !== null ? `<div class="pile"><span class="label">hand</span>${s.hand.map((c) => spyCard(c, ctx, `hand-${c}`,
          s.selection.includes(c) ? " ✓" : "")).join("") || "-"}</div>` : ""}
        ${s.known.length ? `<div class="pile"><span class="label">known in hand</span>${s.known.map((c) => spyCard(c, ctx, "")).join("")}</div>` : ""}
        <div class="pile"><span class="label">discard</span>${s.discard.map((c) => spyCard(c, ctx, `discard-${s.seat}-${c}`)).join("") || "-"}</div>
      </div>`;
    }).join("");
    return `<div class="spytails"><h3>Missions and events</h3><div class="row">${row}</div>
      <h3>Operation${b.led_suit ? ` — led suit ${esc(b.led_suit)}` : ""}</h3><div class="trick">${trick || "<p class=\"quiet\">no card played</p>"}</div>
      <h3>Reinforcements</h3><div class="pile">${b.display.map((c) => spyCard(c, ctx, `display-${c}`)).join("")}
        <div class="spy-card deck" data-key="special-deck" title="the special deck: its top card is taken unseen">special deck (${b.special_deck})</div>
        <span class="stat">leverage tokens in supply: ${b.leverage_supply}</span></div>
      <div class="seats">${seats}</div></div>`;
  }

  // -- Lying Pirates ------------------------------------------------------------------------------------
  function pirateCard(k, ctx, key) {
    const info = ctx.glossary.cards[k];
    return `<div class="pirate-card ${info.metal}" ${key ? `data-key="${key}"` : ""} title="${esc(`${info.name}: ${info.text}`)}">
      <span class="icon">${esc(info.icon)}</span>${esc(info.name)}</div>`;
  }

  function lyingPirates(b, ctx) {
    const g = ctx.glossary;
    const cname = (c) => (b.captains[c].phantom ? "Phantom" : `P${c}${c === ctx.you ? " (you)" : ""}`);
    const n = b.slots.length;
    const tiles = b.slots.map((s) => {
      const angle = (2 * Math.PI * s.slot) / n - Math.PI / 2;
      const left = 50 + 42 * Math.cos(angle);
      const top = 50 + 42 * Math.sin(angle);
      const tile = s.tile >= 0 ? g.tiles[s.tile] : null;
      const ships = s.ships.map((c) => `<span class="boat" style="--seat:${SEAT_COLOURS[c]}" title="ship of ${esc(cname(c))}">${esc(cname(c).split(" ")[0])}</span>`).join("");
      return `<div class="tile ${tile ? tile.water : "empty"}" style="left:${left}%;top:${top}%" data-key="slot-${s.slot}"
        title="${esc(tile ? `${tile.name}: ${tile.text}` : "not placed yet")}"><span class="slot">${s.slot}</span>
        <span class="tile-name">${esc(tile ? tile.name : "(empty)")}</span>
        ${s.town >= 0 ? `<span class="town">${esc(g.towns[s.town])}</span>` : ""}${s.merchant ? "<span class=\"marker\">Merchant</span>" : ""}
        ${s.navy ? "<span class=\"marker\">Navy</span>" : ""}<span class="ships">${ships}</span></div>`;
    }).join("");
    const dice = [];
    if (b.sail_die) dice.push(`<div class="rolled"><span class="label">sail die</span>${die(b.sail_die)}</div>`);
    if (b.pt) dice.push(`<div class="rolled"><span class="label">${b.pt.die === "P" ? "Pirate" : "Treasure"} die of ${esc(cname(b.pt.roller))}</span>
      <span class="pt ${b.pt.face === "O" ? "good" : "bad"}">${esc(b.pt.face)}</span></div>`);
    if (b.rolls) {
      dice.push(`<div class="rolled"><span class="label">battle rolls</span>${b.rolls.rolling.map((c) =>
        `<span class="battle">${esc(cname(c))}: ${b.rolls.rolls[c] >= 0 ? b.rolls.rolls[c] : "…"}${b.rolls.crew ? ` (crew ${b.rolls.crew[c]})` : ""}</span>`).join(" ")}</div>`);
    }
    if (b.encounter) {
      dice.push(`<div class="rolled"><span class="label">${esc(b.encounter.ship)} ship met</span>
        ${b.encounter.roll >= 0 ? `<span class="battle">battle die ${b.encounter.roll}</span>` : ""}</div>`);
    }
    if (b.reroll) dice.push(`<div class="rolled"><span class="label">reroll?</span> the ${esc(b.reroll.die)} die</div>`);
    const captains = b.captains.map((c) => {
      const coaster = c.coaster >= 0 ? g.captains[c.coaster] : null;
      const flags = [c.token ? "Starting Captain" : "", c.excluded ? "out of this betting" : "", c.sunk ? "sunk" : "",
        c.finished ? "home" : "", c.town >= 0 ? `town ${g.towns[c.town]}` : ""].filter(Boolean);
      return `<div class="captain ${c.captain === ctx.seat ? "own" : ""}" style="--seat:${SEAT_COLOURS[c.captain]}" data-key="captain-${c.captain}">
        <div class="who">${esc(cname(c.captain))}${coaster ? ` <span class="character-name" title="${esc(coaster.text)}">${esc(coaster.name)}</span>` : ""}</div>
        <div class="track" title="tiles sailed: ${c.progress} of ${c.lap}"><div style="width:${Math.min(100, (100 * c.progress) / c.lap)}%"></div></div>
        <span class="stat">coins ${c.coins}</span> <span class="stat">crew ${c.crew}</span> <span class="stat">cards ${c.cards}</span>
        ${c.specials.map((k) => die(null, k, g).replace("?", "★")).join("")}
        ${flags.map((f) => `<span class="stat">${esc(f)}</span>`).join(" ")}
        ${c.known_cards.length ? `<div class="small">known cards: ${c.known_cards.map((k) => esc(g.cards[k].name)).join(", ")}</div>` : ""}
      </div>`;
    }).join("");
    let betting = "";
    if (b.betting) {
      betting = `<h3>Betting — ${b.betting.dice_in_play} dice in play</h3>${bidList(b.betting.bids, cname)}
        ${b.betting.cups.map((c) => `<div class="cup own"><div class="who">cup of ${esc(cname(c.seat))}</div>
          <div class="dice">${c.dice.map((d) => die(d.face, d.kind, g)).join("")}</div></div>`).join("")}`;
    } else if (b.reveal) {
      betting = `<h3>Last reveal</h3>${b.reveal.cups.map((c) => `<div class="cup"><div class="who">${esc(cname(c.seat))}</div>
        <div class="dice">${c.dice.map((d) => markedDie(d, g)).join("")}</div></div>`).join("")}
        <p class="outcome"><b>${esc(b.reveal.text)}</b> <span class="small">Dice framed green counted; dashed orange: wild.</span></p>`;
    }
    const hands = b.hands.map((h) => `<div class="pile"><span class="label">hand of ${esc(cname(h.captain))}</span>
      ${h.cards.map((k) => pirateCard(k, ctx, `hand-${k}`)).join("") || "-"}
      ${h.influence.map((k) => `<span class="token" title="${esc(g.influence[k].text)}">${esc(g.influence[k].name)}</span>`).join("")}</div>`).join("");
    const effect = b.effect ? `<p class="effect">Resolving for ${esc(cname(b.effect.actor))}: ${esc(b.effect.text)}</p>` : "";
    const played = b.played.length ? `<div class="pile"><span class="label">played this round</span>${b.played.map((p) =>
      `<span class="small">${esc(cname(p.captain))}:</span>${pirateCard(p.card, ctx, "")}`).join("")}</div>` : "";
    const variants = b.variants.length ? `<p class="small">Variant cards: ${b.variants.map((v) => `<span title="${esc(g.variants[v])}">${esc(v)}</span>`).join(", ")}</p>` : "";
    return `<div class="lying-pirates"><div class="sea"><div class="ring">${tiles}</div>
      <div class="centre"><span class="small">sailing ${esc(b.direction)}</span>${dice.join("")}
        <span class="small">deck ${b.deck}, discard ${b.discard}</span></div></div>
      ${effect}<div class="captains">${captains}</div>${betting}${hands}${played}${variants}
      ${b.winners.length ? `<p class="outcome"><b>Winner: ${b.winners.map(cname).join(", ")}</b></p>` : ""}</div>`;
  }

  const DRAW = { liars_dice_v0: liarsDice, libertalia_v0: libertalia, spytails_v0: spytails, lying_pirates_v0: lyingPirates };

  function draw(env, board, ctx) {
    return DRAW[env](board, ctx);
  }

  // The move panel: bets as a quantity x face grid, every other kind as a row of buttons.
  function moveButtons(env, moves, glossary) {
    const groups = new Map();
    for (const m of moves) {
      if (!groups.has(m.kind)) groups.set(m.kind, []);
      groups.get(m.kind).push(m);
    }
    const out = [];
    for (const [kind, list] of groups) {
      if (glossary.calls && (kind === "bid" || kind === "exact") && list.length > 1) {  // a bet: quantity x face
        const rows = new Map();
        for (const m of list) {
          if (!rows.has(m.args[0])) rows.set(m.args[0], []);
          rows.get(m.args[0]).push(m);
        }
        const title = kind === "bid" ? "Bet: at least q dice show" : "Call “exactly”";
        const faces = [...new Set(list.map((m) => m.args[1]))].sort((a, b) => a - b);  // one column per face
        out.push(`<div class="group ${kind}"><div class="label" title="${esc(glossary.calls[kind])}">${title}</div><table class="grid">${[...rows].map(([q, ms]) =>
          `<tr><th>${q}×</th>${faces.map((f) => {
            const m = ms.find((x) => x.args[1] === f);
            return m ? `<td><button class="move" data-action="${m.id}" title="${esc(`${m.text}: ${glossary.calls[kind]}`)}">${die(m.args[1])}</button></td>` : "<td></td>";
          }).join("")}</tr>`).join("")}</table></div>`);
      } else {
        out.push(`<div class="group ${kind}">${list.map((m) => `<button class="move ${kind === "liar" ? "call" : ""}" data-action="${m.id}"
          title="${esc(kind === "liar" ? glossary.calls.liar : moveTitle(env, m, glossary))}">${kind === "liar" ? "Liar!" : esc(m.text)}</button>`).join("")}</div>`);
      }
    }
    return out.join("");
  }

  // Rules text for a button that names a card or tile.
  function moveTitle(env, m, g) {
    if (env === "lying_pirates_v0" && ["pick", "return_card", "drop_card"].includes(m.kind)) return g.cards[m.args[0]].text;
    if (env === "lying_pirates_v0" && m.kind === "captain") return g.captains[m.args[0]].text;
    if (env === "lying_pirates_v0" && m.kind === "place") return `${g.tiles[m.args[0]].name}: ${g.tiles[m.args[0]].text}`;
    if (env === "spytails_v0" && m.kind === "remove") return g.cards[m.args[0]].text;
    if (env === "spytails_v0" && m.kind === "character") return g.characters[m.args[0]].text;
    if (env === "libertalia_v0" && m.kind === "trade") return "the Merchant sells these tokens";
    const help = g.moves && g.moves[m.kind];  // the codec's words for the kind: pass, buy, regroup, power...
    return help ? `${m.text}: ${help}` : m.text;
  }

  return { draw, moveButtons, die };
})();
