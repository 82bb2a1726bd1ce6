// The table page: draws the stones of the table's state on the board the page holds
// (numbered from this player's side, with the legal moves listed and what the seat may do
// now, so no rules live here), sends moves through the REST API with the player's cookie,
// and polls the state with its ETag so the opponent's moves appear. The board's layout
// comes from the server (bansugoroku/front/board.py, in #config: where each place's stones
// stack and the area a tap on it hits), as every sentence comes translated from the page
// (#texts).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const BAR = 25;
const OFF = 0;

const read = (id) => JSON.parse(document.getElementById(id).textContent);
const texts = read("texts");
const config = read("config");
let state = read("state");
let selected = null;
let busy = false;

const $ = (selector) => document.querySelector(selector);
const board = document.getElementById("board");
const stonesLayer = board.querySelector("[data-stones]");
const placesLayer = board.querySelector("[data-places]");

function fmt(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function opponent() {
  const seat = state.seats.find((s) => !s.you);
  if (seat.name) return seat.name;
  return seat.cpu ? texts["cpu_" + seat.cpu] : texts.nobody_yet;
}

function myTurn() {
  const game = state.game;
  return Boolean(game && game.turn && game.turn.yours);
}

function legalMoves() {
  return myTurn() ? state.game.turn.legal_moves : [];
}

// Before the first game the board shows the start, as the page hands it over.
function position() {
  return state.game ? state.game.position : config.start;
}

function pointName(point) {
  if (point === BAR) return texts.bar;
  if (point === OFF) return texts.off;
  return config.points[point - 1];
}

function stonesText(mine, theirs) {
  const parts = [];
  if (mine) parts.push(fmt(texts.mine, { count: mine }));
  if (theirs) parts.push(fmt(texts.theirs, { count: theirs }));
  return parts.length ? parts.join(", ") : texts.empty;
}

// A place's stones, stacked as board.py stacks them: from its first stone's centre, each
// next one `step` further along, at most `shown` drawn, the last carrying the count.
function drawStack(place, count, color) {
  const [x, y, step] = config.places[place].stack;
  const shown = config.shown;
  for (let i = 0; i < Math.min(count, shown); i++) {
    element("circle", { cx: x + step * i, cy: y, r: config.radius, class: "stone c" + color }, stonesLayer);
  }
  if (count > shown) {
    const label = element("text", { x: x + step * (shown - 1), y, class: "count" }, stonesLayer);
    label.textContent = String(count);
  }
}

function area(place, group) {
  const [x, y, width, height] = config.places[place].area;
  return element("rect", { x, y, width, height, class: "hit" }, group);
}

function drawPoint(point, mine, theirs, marks) {
  const test = point === BAR ? "point-bar" : point === OFF ? "point-off" : "point-" + point;
  const group = element("g", { "data-test": test, class: "pt", role: "button", tabindex: "0" });
  group.dataset.point = String(point);
  area(point, group);
  if (marks.sources.has(point)) group.setAttribute("data-movable", "");
  if (selected === point) group.setAttribute("data-selected", "");
  if (marks.targets.has(point)) group.setAttribute("data-legal", "");
  if (marks.touched.has(point)) group.classList.add("last");
  group.setAttribute(
    "aria-label",
    fmt(texts.point, { name: pointName(point), stones: stonesText(mine, theirs) })
  );
  group.addEventListener("click", () => choose(point));
  group.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(point);
    }
  });
  placesLayer.appendChild(group);
}

// The points the opponent's last play touched, while it is this player's turn to answer
// (their moves run upward in this numbering: 0 is their bar and 25 their stones off).
function lastPlayed() {
  const play = state.game && state.game.last_play;
  if (!play || !myTurn()) return new Set();
  return new Set(play.moves.flat().filter((point) => point >= 1 && point <= 24));
}

function drawTheirs(place, count, label) {
  const group = element("g", { class: "theirs", role: "img" }, placesLayer);
  area(place, group);
  group.setAttribute("aria-label", label + ": " + stonesText(0, count));
}

function drawBoard() {
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.test
    : null;
  stonesLayer.replaceChildren();
  placesLayer.replaceChildren();
  board.dataset.version = String(state.version);
  const pos = position();
  const moves = legalMoves();
  const marks = {
    sources: new Set(moves.map((m) => m[0])),
    targets: new Set(moves.filter((m) => m[0] === selected).map((m) => m[1])),
    touched: lastPlayed(),
  };
  const mine = state.you.color === "black" ? 0 : 1;
  for (let point = 1; point <= 24; point++) {
    const n = pos.points[point - 1];
    if (n) drawStack(point, Math.abs(n), n > 0 ? mine : 1 - mine);
    drawPoint(point, Math.max(n, 0), Math.max(-n, 0), marks);
  }
  drawStack(BAR, pos.bar[0], mine);
  drawStack("their_bar", pos.bar[1], 1 - mine);
  drawStack(OFF, pos.off[0], mine);
  drawStack("their_off", pos.off[1], 1 - mine);
  drawTheirs("their_bar", pos.bar[1], texts.their_bar);
  drawPoint(BAR, pos.bar[0], 0, marks);
  drawTheirs("their_off", pos.off[1], texts.their_off);
  drawPoint(OFF, pos.off[0], 0, marks);
  if (focused) {
    const again = board.querySelector(`[data-test="${focused}"]`);
    if (again) again.focus();
  }
}

function drawDie(value, used) {
  const die = element("svg", { viewBox: "0 0 40 40", class: used ? "die used" : "die" });
  element("rect", { x: 1, y: 1, width: 38, height: 38, rx: 7, class: "face" }, die);
  const spots = {
    1: [[20, 20]],
    2: [[11, 11], [29, 29]],
    3: [[11, 11], [20, 20], [29, 29]],
    4: [[11, 11], [29, 11], [11, 29], [29, 29]],
    5: [[11, 11], [29, 11], [20, 20], [11, 29], [29, 29]],
    6: [[11, 10], [29, 10], [11, 20], [29, 20], [11, 30], [29, 30]],
  };
  for (const [cx, cy] of spots[value]) {
    element("circle", { cx, cy, r: 4, class: value === 1 ? "pip red" : "pip" }, die);
  }
  return die;
}

function drawDice() {
  const dice = $("#dice");
  const name = $("#dice-name");
  dice.replaceChildren();
  name.textContent = "";
  const turn = state.game && state.game.turn;
  $("#dice-row").hidden = !turn;
  if (!turn) {
    dice.removeAttribute("aria-label");
    return;
  }
  const left = turn.yours ? [...turn.remaining_dice] : [...turn.dice];
  for (const value of turn.dice) {
    const at = left.indexOf(value);
    if (at >= 0) left.splice(at, 1);
    dice.appendChild(drawDie(value, at < 0));
  }
  const roll = turn.dice_name;
  name.replaceChildren();
  const kanji = document.createElement("span");
  kanji.lang = "ja";
  kanji.className = "kanji";
  kanji.textContent = roll.kanji;
  name.append(kanji, " " + roll.reading);
  dice.setAttribute("role", "img");
  dice.setAttribute(
    "aria-label",
    fmt(texts.dice, { a: turn.dice[0], b: turn.dice[1], kanji: roll.kanji, reading: roll.reading })
  );
}

function resultText(result) {
  const name = opponent();
  if (result.kind === "resigned") {
    return fmt(result.you_won ? texts.they_resigned : texts.you_resigned, { name });
  }
  if (result.kind !== "won") {
    return state.closed_reason === "left" ? texts.abandoned_left : texts.abandoned;
  }
  // The engine says which kind of win it was; the page only names it.
  const values = { name, how: texts["win_" + result.win_kind], points: result.points };
  return fmt(result.you_won ? texts.you_won : texts.they_won, values);
}

function statusText() {
  const game = state.game;
  if (state.state === "closed") {
    return state.closed_reason === "left" ? texts.closed_left : texts.closed;
  }
  if (state.state === "waiting") return texts.waiting;
  if (state.state === "ready") {
    return state.you.is_host ? texts.ready_host : fmt(texts.ready_guest, { name: opponent() });
  }
  if (game && game.result) {
    return resultText(game.result) + " " + texts.play_again_hint;
  }
  if (!myTurn()) return fmt(texts.their_turn, { name: opponent() });
  if (selected !== null) {
    return texts.your_turn + " " + fmt(texts.choose_point, { point: pointName(selected) });
  }
  return texts.your_turn + " " + texts.choose_stone;
}

function newsText() {
  const game = state.game;
  if (!game) return "";
  const name = opponent();
  const lines = [];
  const opening = game.opening_rolls[game.opening_rolls.length - 1];
  if (opening && game.turn && game.turn.number === 1) {
    const [you, them] = state.you.seat === 0 ? opening : [opening[1], opening[0]];
    lines.push(fmt(texts.opening, { you, them, name }));
  }
  const play = game.last_play;
  if (play) {
    lines.push(fmt(texts.they_played, { name, notation: play.notation }));
    if (play.hit) lines.push(fmt(texts.they_hit, { name }));
  }
  for (const pass of game.passes_since) {
    const dice = pass.dice.join("-");
    const yours = pass.seat === state.you.seat;
    lines.push(fmt(yours ? texts.you_passed : texts.they_passed, { name, dice }));
  }
  return lines.join(" ");
}

function render() {
  drawBoard();
  drawDice();
  $("#status").textContent = statusText();
  $("#news").textContent = newsText();
  const game = state.game;
  const turn = game && game.turn;
  $('[data-test="start"]').hidden = !state.can_start;
  $('[data-test="undo"]').hidden = !(myTurn() && turn.can_undo);
  $('[data-test="play-again"]').hidden = !state.can_play_again;
  $('[data-test="resign"]').hidden = !state.can_resign;
  $('[data-test="leave"]').hidden = state.state === "closed";
  $("#invite").hidden = !state.seats.some((s) => s.free);
  $("#score").hidden = !game;
  $("#score").textContent = fmt(texts.score, {
    you: state.score.you,
    them: state.score.opponent,
    name: opponent(),
  });
}

function announce(text) {
  if (text) $("#announce").textContent = text;
}

function showProblem(text) {
  const box = $("#problem");
  box.textContent = text || "";
  box.hidden = !text;
}

function csrfToken() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  if (found) return found.slice("csrftoken=".length);
  const field = document.querySelector('input[name="csrfmiddlewaretoken"]');
  return field ? field.value : "";
}

// Show a new state, announcing what the opponent did since the last one.
function accept(next) {
  const before = state;
  state = next;
  selected = null;
  showProblem("");
  render();
  // next_table.js offers the next table waiting for this player.
  if (before.game && before.game.turn && before.game.turn.yours && !myTurn()) {
    document.dispatchEvent(new CustomEvent("turn-ended"));
  }
  const game = next.game;
  if (!game) return;
  const oldGame = before.game;
  if (game.result && !(oldGame && oldGame.number === game.number && oldGame.result)) {
    announce(resultText(game.result));
  } else if (before.version !== next.version && !(oldGame && oldGame.turn && oldGame.turn.yours)) {
    announce(newsText() + " " + statusText());
  }
}

// The API answers JSON, a problem+json on error; anything else (a proxy's error page)
// becomes a problem named by its status.
function problemOrState(answer) {
  return answer.json().catch(() => ({ title: `${answer.status} ${answer.statusText}` }));
}

async function send(action, body) {
  if (busy) return null;
  busy = true;
  try {
    const answer = await fetch(`${config.api}/${action}`, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrfToken(),
      },
      body: JSON.stringify({ version: state.version, ...body }),
    });
    const content = await problemOrState(answer);
    if (answer.ok) {
      accept(content);
      return content;
    }
    if (content.code === "stale_state") {
      busy = false;
      await refresh();
      showProblem(texts.stale);
    } else {
      showProblem(fmt(texts.failed, { detail: content.detail || content.title }));
    }
  } catch (error) {
    showProblem(texts.unreachable);
  } finally {
    busy = false;
  }
  return null;
}

function entropy() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function choose(point) {
  if (busy || !myTurn()) return;
  const moves = legalMoves();
  if (selected !== null && moves.some((m) => m[0] === selected && m[1] === point)) {
    const from = selected;
    const done = await send("moves", { moves: [[from, point]] });
    if (done) {
      announce(fmt(texts.you_moved, { from: pointName(from), to: pointName(point) }));
    }
    return;
  }
  selected = selected !== point && moves.some((m) => m[0] === point) ? point : null;
  render();
}

async function refresh() {
  if (busy) return;
  try {
    // The browser sends the ETag of the state it has and gets a body-less 304 while the
    // table is unchanged, which it answers from its cache.
    const answer = await fetch(config.api, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      cache: "no-cache",
    });
    if ($("#problem").textContent === texts.unreachable) showProblem("");
    const content = await problemOrState(answer);
    if (!answer.ok) {
      showProblem(fmt(texts.failed, { detail: content.detail || content.title }));
    } else if (!busy && content.version > state.version) {
      // Only a newer table: a poll that crossed one of this page's own moves is older.
      accept(content);
    }
  } catch (error) {
    showProblem(texts.unreachable);
  }
}

function poll() {
  const again = () => setTimeout(poll, config.poll_ms);
  if (document.hidden) again();
  else refresh().finally(again);
}

$('[data-test="start"]').addEventListener("click", () => send("start", { entropy: entropy() }));
$('[data-test="undo"]').addEventListener("click", () => send("undo", {}));
$('[data-test="play-again"]').addEventListener("click", () =>
  send("play-again", { entropy: entropy() })
);
const dialog = $("#resign-dialog");
$('[data-test="resign"]').addEventListener("click", () => dialog.showModal());
dialog.addEventListener("close", () => {
  if (dialog.returnValue === "resign") send("resign", {});
});
const leaving = $("#leave-dialog");
$('[data-test="leave"]').addEventListener("click", () => leaving.showModal());
leaving.addEventListener("close", () => {
  if (leaving.returnValue === "leave") send("leave", {});
});
$('[data-test="copy-link"]').addEventListener("click", async (event) => {
  try {
    await navigator.clipboard.writeText(event.target.dataset.copy);
    announce(texts.copied);
    event.target.textContent = texts.copied;
  } catch (error) {
    getSelection().selectAllChildren($('[data-test="invite-link"]'));
  }
});
// Dragging a stone with a mouse or a pen: press on it, release on a lit point. A press
// and release on the same point is a tap, which the click handler takes.
let dragFrom = null;
board.addEventListener("pointerdown", (event) => {
  const point = event.target.closest(".pt");
  dragFrom = point && point.hasAttribute("data-movable") ? Number(point.dataset.point) : null;
});
board.addEventListener("pointerup", (event) => {
  const from = dragFrom;
  dragFrom = null;
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const point = under && under.closest(".pt");
  if (from === null || !point || Number(point.dataset.point) === from) return;
  selected = from;
  choose(Number(point.dataset.point));
});
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) refresh();
});

render();
setTimeout(poll, config.poll_ms);
