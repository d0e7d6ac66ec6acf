// sow's playground: write a variant, see it, play it, measure it. A thin
// face over the server's API: every rule, move and figure comes from sow.

import { get, post } from './api.js';
import { Editor } from './editor.js';
import { drawBoard, showStep, markCaptures } from './board.js';
import { shareFigure, lengthFigure, coverageTable } from './measure.js';

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const state = {
  names: [],          // the shipped variants
  shipped: null,      // the shipped variant the text came from
  shippedText: '',
  text: '',           // the text the game plays
  described: null,    // `/api/show` of it
  options: {},        // options chosen (by name)
  start: null,        // a position loaded to start from (else the setup)
  first: null,        // who moves first, where the players choose
  plies: [],          // each: the move, position, outcome, svg, steps
  at: 0,              // the ply shown (undo and redo move it)
  legal: [],          // the legal moves of the ply shown
  seats: {},          // player -> human, random, mcts, minimax, perfect
  game: 0,            // bumped by a new game, undo, redo, a seat changed:
                      // work begun before is dropped
  busy: false,        // a move under way (its request, its sowing shown),
                      // or a computer thinking: one thing at a time
  skip: false,
};

// The variant as a request names it.
function spec() {
  const s = state.shipped && state.text === state.shippedText
    ? { variant: state.shipped }
    : { source: state.text };
  if (Object.keys(state.options).length) s.options = { ...state.options };
  return s;
}

function say(text, error = false) {
  const m = $('message');
  m.textContent = text;
  m.className = error ? 'error' : '';
}

function fail(e) {
  say(e.message || String(e), true);
}

function download(text, name, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
}

// ---- Edit -------------------------------------------------------------

let editor;

function checked(result, text) {
  const list = $('diagnostics');
  list.innerHTML = '';
  for (const d of result.diagnostics) {
    const li = document.createElement('li');
    const where = d.line ? `${d.file && d.file !== 'request.sow' ? d.file + ' ' : ''}line ${d.line}, column ${d.column}: ` : '';
    const kind = d.severity === 'warning' ? 'warning: ' : '';
    li.textContent = kind + where + d.message + (d.hint ? ` (hint: ${d.hint})` : '');
    list.append(li);
  }
  const warned = result.ok && result.diagnostics.length ? ` · ${result.diagnostics.length} warning(s)` : '';
  $('check-state').textContent = result.ok ? `✓ ${result.name} loads${warned}` : `${result.diagnostics.length} problem(s)`;
  $('check-state').className = result.ok ? 'ok' : 'bad';
  const changed = result.ok && text !== state.text;
  $('apply').disabled = !changed;
  // A game not yet begun follows the text at once.
  if (changed && state.plies.length <= 1) applyText(text).catch(fail);
}

async function applyText(text) {
  const described = await post('/api/show', text);
  if (!described.ok) throw new Error('the variant does not load');
  state.text = text;
  state.described = described;
  state.options = {};
  state.start = null;
  $('apply').disabled = true;
  $('show').textContent = described.show;
  $('title').textContent = described.title;
  renderOptions();
  renderSeats();
  await newGame();
}

async function loadShipped(name) {
  const v = await get(`/api/variants/${encodeURIComponent(name)}`);
  state.shipped = name;
  state.shippedText = v.source;
  $('variant').value = name;
  history.replaceState(null, '', `?variant=${encodeURIComponent(name)}`);
  state.text = v.source;
  editor.text = v.source;
  await applyText(v.source);
}

function renderOptions() {
  const host = $('options');
  host.innerHTML = '';
  for (const o of state.described.options) {
    const label = document.createElement('label');
    label.textContent = o.name + ' ';
    let input;
    if (o.choices.words) {
      input = document.createElement('select');
      for (const w of o.choices.words) input.append(new Option(w, w));
    } else {
      input = document.createElement('input');
      input.type = 'number';
      [input.min, input.max] = o.choices.range;
    }
    input.value = state.options[o.name] ?? o.value;
    input.dataset.option = o.name;
    input.addEventListener('change', () => {
      const before = { ...state.options };
      const revert = (e) => {
        state.options = before;
        input.value = before[o.name] ?? o.value;
        fail(e);
      };
      if (o.choices.range) {
        const [lo, hi] = o.choices.range;
        const n = Number(input.value);
        if (input.value === '' || !Number.isInteger(n) || n < lo || n > hi) {
          return revert(new Error(`${o.name} is a whole number from ${lo} to ${hi}`));
        }
      }
      state.options[o.name] = input.value;
      newGame().catch(revert);
    });
    label.append(input);
    host.append(label);
  }
  if (!state.described.options.length) host.textContent = 'no options';
}

// Sets each option's control to the value chosen, else its default.
function showOptions() {
  for (const input of document.querySelectorAll('[data-option]')) {
    const o = state.described.options.find((x) => x.name === input.dataset.option);
    input.value = state.options[input.dataset.option] ?? o.value;
  }
}

// ---- Play -------------------------------------------------------------

// Drops the work under way (a move's request, its sowing shown, a
// computer thinking): the game has moved on without it.
function takeOver() {
  state.game += 1;
  state.busy = false;
  state.skip = true;
  $('skip').disabled = true;
  $('choice').hidden = true;
}

// Shows the ply the page is at, then lets the computer move if it is to.
function goOn() {
  return render().then(computerMoves);
}

function renderSeats() {
  const host = $('seats');
  host.innerHTML = '';
  // Who moves first, where the rules leave it to the players.
  state.first = null;
  if (state.described.first_chosen) {
    const label = document.createElement('label');
    label.textContent = 'first ';
    const s = document.createElement('select');
    s.id = 'first';
    for (const p of state.described.players) s.append(new Option(p, p));
    state.first = s.value;
    s.addEventListener('change', () => {
      state.first = s.value;
      newGame().catch(fail);
    });
    label.append(s);
    host.append(label);
  }
  state.described.players.forEach((p, i) => {
    const label = document.createElement('label');
    label.textContent = p + ' ';
    const s = document.createElement('select');
    s.dataset.seat = p;
    for (const w of ['human', 'random', 'mcts', 'minimax', 'perfect']) s.append(new Option(w, w));
    s.value = state.seats[p] || (i === 0 ? 'human' : 'mcts');
    state.seats[p] = s.value;
    s.addEventListener('change', () => {
      state.seats[p] = s.value;
      takeOver();
      goOn().catch(fail);
    });
    label.append(s);
    host.append(label);
  });
}

const ply = () => state.plies[state.at];
const seatToMove = () => {
  const p = ply();
  return p && !p.outcome && p.position.to_move ? state.seats[p.position.to_move] || 'human' : null;
};

async function newGame() {
  takeOver();
  const game = state.game;
  const body = { ...spec(), moves: [], draw: true };
  if (state.start) body.position = state.start;
  else if (state.first) body.first = state.first;
  // Nothing is to be played until the new game is shown (a failed request
  // leaves the page as it was).
  const was = document.body.dataset.awaiting;
  document.body.dataset.awaiting = 'busy';
  const answer = await post('/api/play', body).catch((e) => {
    if (game === state.game) document.body.dataset.awaiting = was;
    throw e;
  });
  if (game !== state.game) return;
  state.plies = answer.plies;
  state.at = 0;
  say(`a new game of ${state.described.title}`);
  await goOn();
}

async function render() {
  const p = ply();
  drawBoard($('board'), p.svg);
  if (state.at > 0) markCaptures($('board'), p.steps);
  const moves = $('moves');
  moves.innerHTML = '';
  state.plies.slice(1).forEach((q, i) => {
    const li = document.createElement('li');
    li.textContent = q.move;
    if (i + 1 === state.at) li.className = 'current';
    if (i + 1 > state.at) li.className = 'undone';
    li.addEventListener('click', () => { takeOver(); state.at = i + 1; goOn().catch(fail); });
    moves.append(li);
  });
  $('undo').disabled = state.at === 0;
  $('redo').disabled = state.at >= state.plies.length - 1;
  const o = p.outcome;
  let status;
  if (o) {
    const scores = Object.entries(o.scores).map(([k, v]) => `${k} ${v}`).join(', ');
    const solitaire = state.described.players.length === 1;
    const result = solitaire ? (o.winner ? 'won' : o.lost ? 'lost' : 'a draw') : o.winner ? `${o.winner} wins` : 'a draw';
    status = `game over: ${result} (${o.reason}); ${scores}`;
  } else {
    status = `${p.position.to_move} to move (${seatToMove()})`;
  }
  if (p.round_end) {
    const won = p.round_end.winner ? `${p.round_end.winner} won the round` : 'the round was drawn';
    status = `round over: ${won} (${p.round_end.reason}); ` + status;
  }
  $('status').textContent = status;
  $('status').dataset.over = o ? 'true' : 'false';
  state.legal = [];
  document.body.dataset.awaiting = 'busy';
  const others = $('other-moves');
  others.innerHTML = '';
  if (!o) {
    const answer = await post('/api/moves', { ...spec(), position: p.position });
    state.legal = answer.moves;
    for (const m of state.legal.filter((m) => m.pit === null)) {
      const b = document.createElement('button');
      b.textContent = m.move;
      b.addEventListener('click', () => humanMove(m.move));
      others.append(b);
    }
  }
  // (What the page waits for, for people and for the tests.)
  document.body.dataset.awaiting = o ? 'over' : state.busy ? 'busy' : seatToMove() === 'human' ? 'human' : 'computer';
}

async function animate(steps, host, game) {
  if (!steps || $('speed').value === '0') return;
  state.skip = false;
  $('skip').disabled = false;
  // (A long turn, a relay going round and round, is shown faster: at
  // most some ten seconds a turn.)
  const wait = Math.min(Number($('speed').value), 10000 / Math.max(steps.frames.length, 1));
  for (const f of steps.frames) {
    if (state.skip || game !== state.game) break;
    showStep(host, f);
    await sleep(wait);
  }
  if (game === state.game) $('skip').disabled = true;
}

// Plays a move on the ply shown (a redo line beyond it is dropped), its
// sowing shown; then the computer answers if it is to.
async function playMove(move) {
  const game = state.game;
  state.busy = true;
  document.body.dataset.awaiting = 'busy';
  try {
    const answer = await post('/api/play', {
      ...spec(), position: ply().position, moves: [move], steps: true, draw: true,
    });
    if (game !== state.game) return;
    const next = answer.plies[1];
    await animate(next.steps, $('board'), game);
    if (game !== state.game) return;
    state.plies = state.plies.slice(0, state.at + 1);
    state.plies.push(next);
    state.at += 1;
  } catch (e) {
    if (game !== state.game) return;
    // (The computer is not asked again: it would choose the move again.)
    state.busy = false;
    fail(e);
    await render();
    return;
  }
  if (game !== state.game) return;
  state.busy = false;
  await goOn();
}

function humanMove(move) {
  if (state.busy || seatToMove() !== 'human') return;
  $('choice').hidden = true;
  say(`${ply().position.to_move} plays ${move}`);
  playMove(move).catch(fail);
}

function clickPit(event) {
  const g = event.target.closest('[data-pit]');
  if (!g || state.busy) return;
  const seat = seatToMove();
  if (seat === null) return say('the game is over');
  if (seat !== 'human') return say('the computer is to move');
  const label = g.dataset.pit;
  const here = state.legal.filter((m) => m.pit === label);
  if (here.length === 0) return say(`no legal move from ${label}`, true);
  if (here.length === 1) return humanMove(here[0].move);
  // Several turns from this pit (a direction, a choice): asked right there.
  const box = $('choice');
  box.innerHTML = `<span>${label}:</span>`;
  for (const m of here) {
    const b = document.createElement('button');
    b.textContent = m.move;
    b.dataset.move = m.move;
    b.addEventListener('click', () => humanMove(m.move));
    box.append(b);
  }
  const r = g.getBoundingClientRect();
  box.style.left = `${r.left + window.scrollX}px`;
  box.style.top = `${r.bottom + window.scrollY}px`;
  box.hidden = false;
}

async function computerMoves() {
  const seat = seatToMove();
  if (state.busy || !seat || seat === 'human') return;
  const game = state.game;
  state.busy = true;
  document.body.dataset.awaiting = 'computer';
  let choice;
  try {
    await sleep(150);
    if (game !== state.game) return;
    say(`${ply().position.to_move} (${seat}) is thinking…`);
    choice = await post('/api/ai', {
      ...spec(), position: ply().position, player: seat,
      level: Number($('level').value), seed: Math.floor(Math.random() * 1e9),
    });
  } catch (e) {
    if (game !== state.game) return;
    state.busy = false;
    fail(e);
    return;
  }
  if (game !== state.game) return;
  say(`${ply().position.to_move} (${seat}) plays ${choice.move}`);
  state.busy = false;
  await playMove(choice.move);
}

// Back to a person's turn, past the computer's answers.
function undo() {
  if (state.at === 0) return;
  takeOver();
  state.at -= 1;
  while (state.at > 0 && seatToMove() !== 'human') state.at -= 1;
  goOn().catch(fail);
}

// On to the next person's turn, through the computer's answers played.
function redo() {
  if (state.at >= state.plies.length - 1) return;
  takeOver();
  state.at += 1;
  while (state.at < state.plies.length - 1 && seatToMove() !== 'human') state.at += 1;
  goOn().catch(fail);
}

async function hint() {
  const p = ply();
  if (p.outcome) return;
  const choice = await post('/api/ai', { ...spec(), position: p.position, player: 'mcts', level: Number($('level').value) });
  const pit = state.legal.find((m) => m.move === choice.move)?.pit;
  for (const g of document.querySelectorAll('#board .hint')) g.classList.remove('hint');
  if (pit) document.querySelector(`#board [data-pit="${CSS.escape(pit)}"]`)?.classList.add('hint');
  say(`hint: ${choice.move}`);
}

const fileName = () => (state.described?.name || 'game').replace(/[^\w.-]/g, '_');

async function saveRecord() {
  const body = {
    ...spec(),
    moves: state.plies.slice(1, state.at + 1).map((p) => p.move),
    players: state.described.players.map((p) => state.seats[p]),
    level: Number($('level').value),
  };
  if (state.start) body.position = state.start;
  else if (state.first) body.first = state.first;
  const answer = await post('/api/record', body);
  download(answer.record, `${fileName()}.toml`, 'application/toml');
  say('record saved');
}

async function loadRecord(text) {
  const named = (text.match(/^variant\s*=\s*"([^"]*)"/m) || [])[1];
  const shipped = state.names.includes(named);
  if (shipped && (named !== state.shipped || state.text !== state.shippedText)) await loadShipped(named);
  const body = { record: text, draw: true, steps: true };
  if (!shipped) body.source = state.text;
  const answer = await post('/api/record/read', body);
  takeOver();
  state.options = Object.fromEntries(Object.entries(answer.options || {}));
  showOptions();
  state.start = answer.plies[0].position;
  state.plies = answer.plies;
  state.at = answer.plies.length - 1;
  say(`record loaded: ${answer.plies.length - 1} moves`);
  await goOn();
}

function savePosition() {
  download(JSON.stringify(ply().position, null, 2) + '\n', `${fileName()}-position.json`, 'application/json');
  say('position saved');
}

async function loadPosition(text) {
  let position;
  try {
    position = JSON.parse(text);
  } catch (e) {
    throw new Error(`not a position file: ${e.message}`);
  }
  if (typeof position !== 'object' || position === null || Array.isArray(position)) {
    throw new Error('not a position file: a position is a JSON object, as Save position writes it');
  }
  const before = { start: state.start, options: state.options };
  // The options the position was saved with are the game's.
  state.options = Object.fromEntries(Object.entries(position.options || {}).map(([k, v]) => [k, String(v)]));
  state.start = position;
  try {
    await newGame();
  } catch (e) {
    Object.assign(state, before);
    throw e;
  }
  showOptions();
  say('position loaded');
}

// ---- Measure ----------------------------------------------------------

async function analyze() {
  const games = Number($('games').value);
  if (!Number.isInteger(games) || games < 1 || games > 1000) throw new Error('an analysis here plays 1 to 1000 games');
  const players = $('players').value.split(',');
  const base = { ...spec(), games, players, level: Number($('analyze-level').value), seed: 0 };
  if (state.start) base.position = state.start;
  else if (state.first) base.first = state.first;
  const parts = [];
  const step = Math.max(1, Math.ceil(games / 20));
  const bar = $('progress');
  bar.max = games;
  bar.value = 0;
  $('analyze').disabled = true;
  const out = $('figures');
  out.innerHTML = '';
  try {
    for (let from = 0; from < games; from += step) {
      const to = Math.min(games, from + step);
      const answer = await post('/api/analyze', { ...base, range: [from, to] });
      parts.push(answer.part);
      bar.value = to;
      $('progress-text').textContent = `${to} of ${games} games`;
    }
    const report = await post('/api/analyze/merge', { ...base, parts });
    const r = report.results;
    const p = document.createElement('p');
    p.className = 'summary';
    p.textContent = `${report.games} games: ` + Object.entries(r).map(([k, v]) => `${k} ${v}`).join(', ');
    if (report.players[0] !== report.players[1]) {
      // Seats alternate between the players: who won, whoever sat where.
      p.textContent += `; ${report.players[0]} won ${report.players_won[0]}, ${report.players[1]} won ${report.players_won[1]}`;
    }
    const solitaire = state.described.players.length === 1;
    out.append(p);
    if (!solitaire) out.append(shareFigure(report));
    out.append(lengthFigure(report), coverageTable(report));
    const never = report.coverage.never_fired;
    const note = document.createElement('p');
    note.textContent = never.length ? `never fired (marked in the editor): ${never.join(', ')}` : 'every rule and end fired';
    out.append(note);
    editor.markNeverFired(never);
  } finally {
    $('analyze').disabled = false;
  }
}

// ---- Wiring -----------------------------------------------------------

function readFile(input, then) {
  input.addEventListener('change', async () => {
    const f = input.files[0];
    if (!f) return;
    try {
      await then(await f.text());
    } catch (e) {
      fail(e);
    }
    input.value = '';
  });
}

async function main() {
  const [words, list] = await Promise.all([get('/api/language'), get('/api/variants')]);
  state.names = list.variants.map((v) => v.name);
  const select = $('variant');
  for (const v of list.variants) select.append(new Option(`${v.title} (${v.name})`, v.name));
  editor = new Editor($('editor'), words, checked);
  select.addEventListener('change', () => loadShipped(select.value).catch(fail));
  $('apply').addEventListener('click', () => applyText(editor.text).catch(fail));
  $('board').addEventListener('click', clickPit);
  $('board').addEventListener('keydown', (e) => {
    if ((e.key === 'Enter' || e.key === ' ') && e.target.closest('[data-pit]')) {
      e.preventDefault();
      clickPit(e);
    }
  });
  $('new').addEventListener('click', () => newGame().catch(fail));
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('hint').addEventListener('click', () => hint().catch(fail));
  $('skip').addEventListener('click', () => { state.skip = true; });
  $('save-record').addEventListener('click', () => saveRecord().catch(fail));
  $('save-position').addEventListener('click', savePosition);
  readFile($('load-record'), loadRecord);
  readFile($('load-position'), loadPosition);
  $('analyze').addEventListener('click', () => analyze().catch(fail));
  $('show-toggle').addEventListener('click', () => { $('show').hidden = !$('show').hidden; });
  document.addEventListener('click', (e) => {
    if (!e.target.closest('#choice') && !e.target.closest('[data-pit]')) $('choice').hidden = true;
  });
  const asked = new URLSearchParams(location.search).get('variant');
  const name = asked && state.names.includes(asked) ? asked : 'kalah';
  await loadShipped(name);
  if (asked && !state.names.includes(asked)) say(`no shipped variant is called “${asked}”: here is Kalah`, true);
  document.body.dataset.ready = 'true';
}

main().catch(fail);
