// The table page: draws the stones of the table's state on the board the page holds
// (numbered from this player's side, with every way to finish the turn listed and what
// the seat may do now, so no rules live here), sends moves through the REST API with the
// player's cookie, and polls the state with its ETag so the opponent's moves appear. The
// board's layout comes from the server (bansugoroku/front/board.py, in #config: where
// each place's stones stack and the area a tap on it hits), as every sentence comes
// translated from the page (#texts).
//
// A turn is a draft: the moves chosen stay on this page, where Undo takes them back,
// until Play sends the whole play in one request; nothing is final before it. The
// "play at once" preference sends each move as it is chosen instead, the last ending
// the turn. It is kept in this browser (localStorage): it is about the device (a
// phone's mistaken tap, a desktop's mouse), needs no account, and other clients of the
// API have their own.
//
// Offline, the service worker answers with the page as last loaded, its state as it was
// then. So every state this page shows is kept in this browser too, and a kept copy of
// the page shows the newest this browser saw of the table (app.js says it may be out of
// date); a page from the network shows its own, the server's latest.
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
let draft = [];

const AT_ONCE = "play-at-once";
let atOnce = stored(AT_ONCE) === "1";

// A storage a browser may refuse (private modes, blocked site data) keeps nothing.
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (error) {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (error) {
    // kept as long as the page: the preference, the state for the offline copy
  }
}

// The states last seen, one a table and seat, each under a key of its own so that a
// change writes its own state alone (a state can be tens of kilobytes), and at most
// KEPT_STATES of them: LAST_SEEN lists their keys, the most recently seen last. The state
// is the seat's own (its numbering, its legal moves), and a seat is one player's for the
// table's life, so a state is never shown to another player using this browser.
const LAST_SEEN = "last-seen-states";
const KEPT_STATES = 20;
const seen = `last-seen/${state.code}/${state.you.seat}`;

function parsed(key) {
  try {
    return JSON.parse(stored(key));
  } catch (error) {
    return null;
  }
}

// Keep `shown` as this seat's last seen state, unless another page of this browser saw
// a newer one.
function remember(shown) {
  const kept = parsed(seen);
  if (kept && kept.version > shown.version) return;
  const listed = parsed(LAST_SEEN);
  const keys = (Array.isArray(listed) ? listed : []).filter((key) => key !== seen);
  keys.push(seen);
  for (const key of keys.splice(0, Math.max(0, keys.length - KEPT_STATES))) {
    try {
      localStorage.removeItem(key);
    } catch (error) {
      // nothing kept to remove
    }
  }
  store(LAST_SEEN, JSON.stringify(keys));
  store(seen, JSON.stringify(shown));
}

// The worker marks a page it answered from its copy because the network failed: only
// there is a kept state shown, and only one newer than the page's. A page from the
// network holds the server's latest, which no kept state overrides.
if (document.documentElement.hasAttribute("data-kept-copy")) {
  const kept = parsed(seen);
  if (kept && kept.version > state.version) state = kept;
} else {
  remember(state);
}

const $ = (selector) => document.querySelector(selector);
const LANGUAGE = document.documentElement.lang;
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

const sameMove = (a, b) => a[0] === b[0] && a[1] === b[1];

// The ways to finish the turn (the state's `plays_left`) that go on from the draft.
function begun() {
  if (!myTurn()) return [];
  return state.game.turn.plays_left.filter((play) =>
    draft.every((move, i) => i < play.moves.length && sameMove(play.moves[i], move))
  );
}

function legalMoves() {
  const next = new Map();
  for (const play of begun()) {
    const move = play.moves[draft.length];
    if (move) next.set(String(move), move);
  }
  return [...next.values()];
}

// The draft is a whole play: Play can send it.
function draftDone() {
  return draft.length > 0 && begun().some((play) => play.moves.length === draft.length);
}

// Before the first game the board shows the start, as the page hands it over; during a
// draft, the state's position with the drafted moves made (a stone landing on a single
// one of theirs sends it to their bar: a legal move never lands on more).
function position() {
  if (!state.game) return config.start;
  const shown = state.game.position;
  const points = [...shown.points];
  const bar = [...shown.bar];
  const off = [...shown.off];
  for (const [from, to] of draft) {
    if (from === BAR) bar[0] -= 1;
    else points[from - 1] -= 1;
    if (to === OFF) {
      off[0] += 1;
      continue;
    }
    if (points[to - 1] < 0) {
      points[to - 1] = 0;
      bar[1] += 1;
    }
    points[to - 1] += 1;
  }
  return { ...shown, points, bar, off };
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
  let label = fmt(texts.point, { name: pointName(point), stones: stonesText(mine, theirs) });
  if (marks.struck.has(point)) {
    group.setAttribute("data-struck", "");
    label += ". " + texts.hit_here;
  }
  group.setAttribute("aria-label", label);
  group.addEventListener("click", () => choose(point));
  group.addEventListener("keydown", (event) => onKey(event, point));
  placesLayer.appendChild(group);
}

// The opponent's latest play since this player's last one, the earlier ones being told
// in words; null when there is none.
function latestPlay() {
  const since = state.game ? state.game.since_your_play : [];
  const plays = since.filter((turn) => !turn.yours && !turn.passed);
  return plays.length ? plays[plays.length - 1] : null;
}

// The points that play touched (their moves run upward in this numbering: 0 is their
// bar and 25 their stones off).
function lastPlayed() {
  const play = latestPlay();
  if (!play) return new Set();
  return new Set(play.moves.flat().filter((point) => point >= 1 && point <= 24));
}

// The points where that play hit a stone of this player's: where its hitting moves went.
function struckPoints() {
  const play = latestPlay();
  if (!play) return new Set();
  return new Set(play.moves.filter((move, i) => play.hits[i]).map((move) => move[1]));
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function centre(point) {
  const [x, y, width, height] = config.places[point].area;
  return [x + width / 2, y + height / 2];
}

// Where an arrow key goes from `point`: the nearest place that way among those worth
// going to (the stones that can move, or once one is chosen, it and where it can go;
// every place while there is nothing to move), straight ahead counting more than aside.
function placeToward(point, key) {
  const [dx, dy] = ARROWS[key];
  const [x0, y0] = centre(point);
  const worth = selected === null ? "[data-movable]" : "[data-selected], [data-legal]";
  const useful = [...placesLayer.querySelectorAll(worth)];
  const places = useful.length ? useful : [...placesLayer.querySelectorAll(".pt")];
  let best = null;
  let bestScore = Infinity;
  for (const place of places) {
    const [x, y] = centre(Number(place.dataset.point));
    const ahead = (x - x0) * dx + (y - y0) * dy;
    const aside = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    const score = ahead + 2 * aside;
    if (ahead > 0 && score < bestScore) [best, bestScore] = [place, score];
  }
  return best;
}

function onKey(event, point) {
  if (event.key in ARROWS) {
    event.preventDefault();
    const next = placeToward(point, event.key);
    if (next) next.focus();
  } else if (event.key === "Enter" && draftDone()) {
    event.preventDefault();
    playDraft();
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    choose(point);
  }
}

// When this player's turn begins, the keys go to the board: to a stone that can move.
function focusBoard() {
  const stone = placesLayer.querySelector("[data-movable]");
  if (stone) stone.focus({ preventScroll: true });
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
    struck: struckPoints(),
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
  let left = turn.yours ? [...turn.remaining_dice] : [...turn.dice];
  if (turn.yours && draft.length) {
    for (const used of begun()[0].dice.slice(0, draft.length)) left.splice(left.indexOf(used), 1);
    if (draftDone()) left = [];
  }
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
  if (result.kind === "timed_out") {
    return fmt(result.you_won ? texts.they_timed_out : texts.you_timed_out, { name });
  }
  if (result.kind === "cancelled") return texts.cancelled;
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
  if (draftDone()) return texts.your_turn + " " + texts.draft_done;
  if (selected !== null) {
    return texts.your_turn + " " + fmt(texts.choose_point, { point: pointName(selected) });
  }
  return texts.your_turn + " " + texts.choose_stone;
}

// The opponent's play as this player's board numbers the points (25 - n: the state's
// notation is in the mover's numbering), with `bar` and `off` in the reader's language,
// as the mails write it (`notifications.mails.content.play_seen`); the API keeps the machine's.
function playText(notation) {
  return notation
    .replace(/\d+/g, (point) => String(25 - Number(point)))
    .replace(/\b(bar|off)\b/g, (word) => texts["notation_" + word]);
}

// A roll as the mails write it, the higher die first: "5-3".
const diceText = (dice) => [...dice].sort((a, b) => b - a).join("-");

// What to tell about the game: its opening roll on the first turn, then every turn
// since this player's last play (the opponent's plays, with the dice and hits, and
// both seats' passes), and whose turn it is now when it is theirs.
function news() {
  const game = state.game;
  const told = { opening: "", since: [], now: "" };
  if (!game) return told;
  const name = opponent();
  const opening = game.opening_rolls[game.opening_rolls.length - 1];
  if (opening && game.turn && game.turn.number === 1) {
    const [you, them] = state.you.seat === 0 ? opening : [opening[1], opening[0]];
    told.opening = fmt(texts.opening, { you, them, name });
  }
  for (const turn of game.since_your_play) {
    const values = { name, turn: turn.turn, dice: diceText(turn.dice), notation: playText(turn.notation) };
    const passed = turn.yours ? texts.you_passed : texts.they_passed;
    const played = turn.hit ? texts.they_hit : texts.they_played;
    told.since.push(fmt(turn.passed ? passed : played, values));
  }
  if (game.since_your_play.length && myTurn()) {
    told.now = fmt(texts.your_roll, { turn: game.turn.number, dice: diceText(game.turn.dice) });
  }
  return told;
}

function newsText() {
  const told = news();
  return [told.opening, ...told.since, told.now].filter(Boolean).join(" ");
}

function drawNews() {
  const told = news();
  const box = $("#news");
  box.replaceChildren();
  const line = (text) => {
    const p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
  };
  if (told.opening) line(told.opening);
  if (told.since.length) {
    line(texts.since_heading);
    const list = document.createElement("ol");
    list.dataset.test = "since";
    for (const text of told.since) {
      const item = document.createElement("li");
      item.textContent = text;
      list.appendChild(item);
    }
    box.appendChild(list);
  }
  if (told.now) line(told.now);
}

// How long the move awaited has waited, in the largest whole unit, in the page's
// language; "" under a minute, when someone has only just played.
function waited(since) {
  const minutes = Math.floor((Date.now() - Date.parse(since)) / 60000);
  const [count, unit] =
    minutes >= 1440 ? [Math.floor(minutes / 1440), "day"]
    : minutes >= 60 ? [Math.floor(minutes / 60), "hour"]
    : [minutes, "minute"];
  if (count < 1) return "";
  return new Intl.NumberFormat(LANGUAGE, { style: "unit", unit, unitDisplay: "long" }).format(count);
}

function waitText() {
  if (state.state === "closed" || state.seats.some((seat) => seat.free)) return "";
  const time = waited(state.active_at);
  if (!time) return "";
  return myTurn() ? fmt(texts.waited_you, { time }) : fmt(texts.waited_them, { time, name: opponent() });
}

// "Closes in 3 days without a move", once the idle close is `config.warn_days` away or
// nearer, as the idle warnings come; whole days rounded up, at least one.
function closingText() {
  if (!state.closes_at) return "";
  const days = Math.max(1, Math.ceil((Date.parse(state.closes_at) - Date.now()) / 86400000));
  if (days > config.warn_days) return "";
  const when = new Intl.RelativeTimeFormat(LANGUAGE, { numeric: "always" }).format(days, "day");
  return fmt(texts.closes, { when });
}

// A span of time in its largest whole unit and the next one ("2 days, 4 hours"),
// minutes and seconds near the end: a clock of a short trial day runs in seconds.
function span(seconds) {
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const parts = [];
  let rest = Math.max(0, Math.floor(seconds));
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    if (count || (parts.length === 0 && unit === "second")) {
      parts.push(new Intl.NumberFormat(LANGUAGE, { style: "unit", unit, unitDisplay: "long" }).format(count));
    }
    rest -= count * size;
    if (parts.length === 2 || (parts.length && !count)) break;
  }
  return new Intl.ListFormat(LANGUAGE, { style: "narrow", type: "unit" }).format(parts);
}

// Whose clock runs and until when, as an exact time in the reader's zone and language;
// the other side's bank beside it. Nothing while no game is being played. The time left
// is counted: the mover's quiet hours still ahead are not in it.
function clockText() {
  const clock = state.clock;
  if (!clock || !clock.deadline || !state.game || state.game.result) return "";
  const now = Date.now();
  const quiet = clock.quiet_spans.map((pair) => pair.map(Date.parse));
  const ahead = quiet.reduce((sum, [from, to]) => sum + Math.max(0, to - Math.max(from, now)), 0);
  const left = span((Date.parse(clock.deadline) - now - ahead) / 1000);
  const when = exactTime(clock.deadline);
  const [mine, theirs] = clock.banks.map(span);
  const running = myTurn()
    ? fmt(texts.clock_yours, { left, when, name: opponent(), theirs })
    : fmt(texts.clock_theirs, { left, when, name: opponent(), mine });
  return [running, ...quietTexts(quiet, now), ...vacationTexts()].join(" ");
}

// While the mover is in their quiet hours (one of `quiet`, [from, to] in ms), their
// clock stands: until when.
function quietTexts(quiet, now) {
  const current = quiet.find(([from, to]) => from <= now && now < to);
  if (!current) return [];
  const when = exactTime(current[1]);
  return [myTurn() ? fmt(texts.quiet_yours, { when }) : fmt(texts.quiet_theirs, { name: opponent(), when })];
}

// Who is on vacation, and until when: their clock stands until then.
function vacationTexts() {
  return state.seats
    .filter((seat) => seat.vacation_until && Date.parse(seat.vacation_until) > Date.now())
    .map((seat) => {
      const when = exactTime(seat.vacation_until);
      return seat.you ? fmt(texts.vacation_yours, { when }) : fmt(texts.vacation_theirs, { name: seat.name, when });
    });
}

// A moment (an ISO string or milliseconds) as the reader's zone and language give it.
function exactTime(moment) {
  return new Intl.DateTimeFormat(LANGUAGE, { dateStyle: "medium", timeStyle: "short" }).format(new Date(moment));
}

// The sentences that go stale as time passes: drawn at each render and each poll.
function drawTimes() {
  const times = [[$("#wait"), waitText()], [$("#closing"), closingText()], [$("#clock"), clockText()]];
  for (const [box, text] of times) {
    box.textContent = text;
    box.hidden = !text;
  }
}

function render() {
  drawBoard();
  drawTimes();
  drawDice();
  $("#status").textContent = statusText();
  drawNews();
  const game = state.game;
  const turn = game && game.turn;
  $('[data-test="start"]').hidden = !state.can_start;
  $('[data-test="play"]').hidden = atOnce || !draftDone();
  $('[data-test="undo"]').hidden = !(myTurn() && (draft.length || turn.can_undo));
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
  const wasMine = myTurn();
  state = next;
  remember(next);
  selected = null;
  draft = [];
  showProblem("");
  render();
  if (myTurn() && !wasMine) focusBoard();
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
    showProblem(texts.not_sent);
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
    const moved = fmt(texts.you_moved, { from: pointName(from), to: pointName(point) });
    if (atOnce) {
      if (await send("moves", { moves: [[from, point]] })) announce(moved);
      return;
    }
    draft.push([from, point]);
    selected = null;
    render();
    announce(draftDone() ? moved + " " + texts.draft_done : moved);
    return;
  }
  selected = selected !== point && moves.some((m) => m[0] === point) ? point : null;
  render();
}

// Play: the drafted play, whole, in one request.
function playDraft() {
  if (draftDone()) send("moves", { moves: draft });
}

// Undo takes back the last drafted move, then any moves this turn already sent.
function undo() {
  if (!draft.length) {
    send("undo", {});
    return;
  }
  draft.pop();
  selected = null;
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
  else refresh().finally(drawTimes).finally(again);
}

$('[data-test="start"]').addEventListener("click", () => send("start", { entropy: entropy() }));
// Against the CPU there is nobody to wait for: the page starts the first game as it
// opens, with this browser's entropy given after the seed's hash was published, as a
// Start press would, so the CPU's server cannot choose the dice of that game either.
if (state.can_start && state.seats.some((seat) => seat.cpu)) {
  send("start", { entropy: entropy() });
}
$('[data-test="play"]').addEventListener("click", playDraft);
$('[data-test="undo"]').addEventListener("click", undo);
const atOnceBox = $('[data-test="at-once"]');
atOnceBox.checked = atOnce;
atOnceBox.addEventListener("change", () => {
  atOnce = atOnceBox.checked;
  store(AT_ONCE, atOnce ? "1" : "0");
  draft = [];
  selected = null;
  render();
});
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
if (myTurn()) focusBoard();
setTimeout(poll, config.poll_ms);
