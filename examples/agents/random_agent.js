#!/usr/bin/env node
// A bidbluff agent in Node.js: the bidbluff-agent protocol, version 1 (docs/program-agents.md).
// It plays a seeded random legal move and answers with the move's name (an id works as well).
// Run it in a tournament:  bidbluff tournament liars_dice_v0 --agents 'cmd:"node examples/agents/random_agent.js"',random
"use strict";
const readline = require("readline");

let state = 1; // mulberry32: a small seeded generator, so a seeded game plays the same every time
function random() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    state = (message.seed ?? 0) + 1;
    console.error(`random_agent.js: ${message.env}, ${message.action_n} actions`); // logs go to stderr
    send({ type: "hello", version: 1, name: "random_agent.js" });
  } else if (message.type === "act") {
    const pick = Math.floor(random() * message.legal.length);
    send({ action: message.legal_names[pick] });
  } // "game" lines need no answer
});
input.on("close", () => process.exit(0)); // bidbluff closes stdin when it is done
