// mysl web UI. The server is the referee: this page only offers the legal moves the server sent and
// shows the state the server returns. No build step: a plain ES module.
import { Chessground } from './vendor/chessground/chessground.min.js';

const $ = (id) => document.getElementById(id);
const ROLE_LETTER = { pawn: 'P', knight: 'N', bishop: 'B', rook: 'R', queen: 'Q', king: 'K' };
const DIE = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
const POCKET_ROLES = ['queen', 'rook', 'bishop', 'knight', 'pawn'];

const ui = {
  info: null,        // /api/info
  game: null,        // the game's view from the server
  ply: 0,            // the ply shown (game.moves.length = the live position)
  orientation: 'white',
  settings: { variant: 'chess', white: 'human', black: 'engine', level: 3, minutes: 5, increment: 3, fen: '' },
  clockBase: null,   // { white_ms, black_ms, running, at }
  analysis: { on: false, id: 0, lines: [], stats: '' },
  pocketSelected: null,
  ws: null,
  explorerFen: null,
  tab: 'analysis',
};

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const type = response.headers.get('content-type') || '';
  const data = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) throw new Error((data && data.error) || response.statusText);
  return data;
}

// ---------------------------------------------------------------- board
const cg = Chessground($('board'), {
  coordinates: true,
  animation: { enabled: true, duration: 150 },
  highlight: { lastMove: true, check: true },
  movable: { free: false, showDests: true, events: { after: onBoardMove, afterNewPiece: onBoardDrop } },
  draggable: { enabled: true, showGhost: true },
  premovable: { enabled: false },
  events: { select: onSquareSelect },
  drawable: { enabled: true },
});

function live() { return ui.game && ui.ply === ui.game.moves.length; }
function humanToMove() {
  const g = ui.game;
  return g && live() && !g.result && g.players[g.turn === 'white' ? 0 : 1] === 'human';
}
function shownFen() {
  const g = ui.game;
  return ui.ply === 0 ? g.start_fen : g.moves[ui.ply - 1].fen;
}
function shownTurn() { return shownFen().split(' ')[1] === 'b' ? 'black' : 'white'; }

function dests() {
  const map = new Map();
  if (!humanToMove()) return map;
  for (const m of ui.game.legal) {
    if (!m.from) continue;
    for (const to of [m.to, m.rook]) {
      if (!to) continue;
      const list = map.get(m.from) || [];
      if (!list.includes(to)) list.push(to);
      map.set(m.from, list);
    }
  }
  return map;
}

function renderBoard() {
  const g = ui.game;
  const last = ui.ply > 0 ? g.moves[ui.ply - 1] : null;
  const canMove = humanToMove();
  cg.set({
    fen: shownFen(),
    orientation: ui.orientation,
    turnColor: shownTurn(),
    lastMove: last ? (last.from ? [last.from, last.to] : [last.to]) : undefined,
    check: last ? last.check : false,
    movable: { color: canMove ? g.turn : undefined, dests: dests() },
  });
}

function onBoardMove(orig, dest) {
  const candidates = ui.game.legal.filter((m) => m.from === orig && (m.to === dest || m.rook === dest));
  if (candidates.length === 0) { renderBoard(); return; }
  if (candidates.length === 1) { sendMove(candidates[0].uci); return; }
  choosePromotion(candidates);
}

function onBoardDrop(role, key) {
  const move = ui.game.legal.find((m) => m.drop === role && m.to === key);
  ui.pocketSelected = null;
  if (move) sendMove(move.uci); else { showMoveError(`no legal ${role} drop on ${key}`); renderBoard(); }
}

function onSquareSelect(key) {
  if (!ui.pocketSelected) return;
  const role = ui.pocketSelected;
  onBoardDrop(role, key);
  renderPockets();
}

function choosePromotion(candidates) {
  const dialog = $('promotion-dialog');
  const box = $('promotion-choices');
  box.replaceChildren();
  const color = ui.game.turn;
  for (const m of candidates) {
    const b = document.createElement('button');
    b.type = 'button';
    b.title = m.san;
    b.setAttribute('aria-label', `promote to ${m.promotion}`);
    b.dataset.role = m.promotion;
    const p = document.createElement('piece');
    p.className = `${color} ${m.promotion}`;
    b.append(p);
    b.addEventListener('click', () => { dialog.close(); sendMove(m.uci); });
    box.append(b);
  }
  dialog.onclose = () => renderBoard();
  dialog.showModal();
}

async function sendMove(uci) {
  showMoveError('');
  try {
    setGame(await api('POST', `/api/games/${ui.game.id}/move`, { move: uci }), true);
  } catch (e) {
    if (await lostGame(e)) return;
    showMoveError(e.message);
    renderBoard();
  }
}

// The server forgot the game (it restarted, or dropped its oldest games): start a new one.
async function lostGame(error) {
  if (!/^no game \d+/.test(error.message)) return false;
  await newGame({ ...ui.settings, fen: '' });
  showMoveError('The server no longer had that game (restarted?): a new game was started.');
  return true;
}

function showMoveError(text) { $('san-error').textContent = text; }

// ---------------------------------------------------------------- game state
function setGame(view, follow) {
  // Answers can cross: a WebSocket update may arrive before the reply to the request that caused it.
  if (ui.game && ui.game.id === view.id && view.version < ui.game.version) return;
  const wasLive = !ui.game || live() || ui.game.id !== view.id;
  const changedGame = !ui.game || ui.game.id !== view.id;
  ui.game = view;
  if (follow || wasLive || ui.ply > view.moves.length) ui.ply = view.moves.length;
  if (changedGame) {
    ui.orientation = view.players[0] === 'engine' && view.players[1] === 'human' ? 'black' : 'white';
    watch();
  }
  if (view.clock) {
    ui.clockBase = { ...view.clock, at: performance.now() };
  } else {
    ui.clockBase = null;
  }
  render();
}

function render() {
  const g = ui.game;
  if (!g) return;
  renderBoard();
  $('game-title').textContent = `${g.variant_title} · ${playerName(0)} vs ${playerName(1)}`;
  renderPlayers();
  renderPockets();
  renderDice();
  renderMoves();
  renderClocks();
  const result = $('result');
  if (g.result) {
    result.hidden = false;
    result.textContent = `${g.result.result} · ${g.result.reason}`;
  } else {
    result.hidden = true;
  }
  $('opening').textContent = g.opening ? `${g.opening.eco} ${g.opening.name}` : '';
  $('btn-resign').disabled = !!g.result;
  $('btn-draw').disabled = !!g.result || !g.players.includes('human');
  $('btn-takeback').disabled = g.moves.length === 0;
  $('san-input').disabled = !humanToMove();
  $('fen-out').value = shownFen();
  $('pgn-download').href = `/api/games/${g.id}/pgn`;
  if (ui.tab === 'pgn') loadPgn();
  if (ui.tab === 'explorer') loadExplorer();
  if (ui.analysis.on) startAnalysis();
}

function playerName(i) {
  const g = ui.game;
  const color = i === 0 ? 'White' : 'Black';
  return g.players[i] === 'engine' ? `${color} · mysl (level ${g.level})` : `${color} · Human`;
}

function sideBox(color) {
  const bottom = ui.orientation === color;
  return $(bottom ? 'player-bottom' : 'player-top');
}

function renderPlayers() {
  const g = ui.game;
  for (const [i, color] of [[0, 'white'], [1, 'black']]) {
    const box = sideBox(color);
    box.dataset.color = color;
    box.querySelector('.name').textContent = playerName(i);
    const checks = box.querySelector('.checks');
    const shown = ui.ply === 0 ? g.start_checks : g.moves[ui.ply - 1].checks;
    checks.textContent = shown ? `${shown[color]} check${shown[color] === 1 ? '' : 's'} to give` : '';
    box.querySelector('.thinking').hidden = !(g.thinking && g.turn === color && !g.result);
  }
}

function renderPockets() {
  const g = ui.game;
  const pockets = ui.ply === 0 ? g.start_pockets : g.moves[ui.ply - 1].pockets;
  for (const color of ['white', 'black']) {
    const box = sideBox(color).querySelector('.pocket');
    box.replaceChildren();
    const p = live() ? g.pockets : pockets;
    if (!p) continue;
    for (const role of POCKET_ROLES) {
      const n = p[color][role];
      const slot = document.createElement('button');
      slot.type = 'button';
      slot.className = 'slot' + (n ? '' : ' empty') + (ui.pocketSelected === role && g.turn === color ? ' selected' : '');
      slot.dataset.role = role;
      slot.dataset.color = color;
      slot.setAttribute('aria-label', `${color} ${role} in hand: ${n}`);
      const piece = document.createElement('piece');
      piece.className = `${color} ${role}`;
      slot.append(piece);
      if (n) {
        const c = document.createElement('span');
        c.className = 'count';
        c.textContent = n;
        slot.append(c);
      }
      const mine = humanToMove() && g.turn === color && n > 0;
      slot.disabled = !mine;
      if (mine) {
        slot.addEventListener('mousedown', (e) => {
          if (e.button !== 0) return;
          cg.dragNewPiece({ color, role }, e);
        });
        slot.addEventListener('click', () => {
          ui.pocketSelected = ui.pocketSelected === role ? null : role;
          cg.selectSquare(null);
          renderPockets();
        });
      }
      box.append(slot);
    }
  }
}

function renderDice() {
  const g = ui.game;
  const box = $('dice');
  if (g.variant !== 'dice') { box.hidden = true; return; }
  box.hidden = false;
  const roll = live() ? g.roll : g.moves[ui.ply] ? g.moves[ui.ply].roll : null;
  const role = roll ? ['', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'][roll] : null;
  box.querySelector('.die').textContent = roll ? DIE[roll] : '';
  box.querySelector('.die-text').textContent = roll ? `${shownTurn() === 'white' ? 'White' : 'Black'} rolled ${roll}: move a ${role}` : g.result ? '' : 'no roll';
  box.dataset.roll = roll || '';
}

function renderMoves() {
  const g = ui.game;
  const box = $('moves');
  box.replaceChildren();
  if (g.moves.length === 0) {
    const e = document.createElement('div');
    e.className = 'empty';
    e.textContent = 'No moves yet.';
    box.append(e);
    return;
  }
  g.moves.forEach((m, i) => {
    if (m.white || i === 0) {
      const n = document.createElement('div');
      n.className = 'num';
      n.textContent = `${m.number}${m.white ? '.' : '…'}`;
      box.append(n);
      if (!m.white) box.append(document.createElement('div'));
    }
    const cell = document.createElement('div');
    cell.className = 'mv' + (i + 1 === ui.ply ? ' current' : '');
    cell.dataset.ply = i + 1;
    cell.textContent = m.san;
    if (m.book) {
      const b = document.createElement('span');
      b.className = 'book';
      b.textContent = 'book';
      b.title = 'a move of the opening book';
      cell.append(b);
    }
    cell.addEventListener('click', () => goTo(i + 1));
    box.append(cell);
  });
  const current = box.querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
}

function goTo(ply) {
  if (!ui.game) return;
  ui.ply = Math.max(0, Math.min(ui.game.moves.length, ply));
  ui.pocketSelected = null;
  render();
}

// ---------------------------------------------------------------- clocks
function formatClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  return ms < 10000 ? `${text}.${Math.floor((ms % 1000) / 100)}` : text;
}

let flagAsked = false;
function renderClocks() {
  const base = ui.clockBase;
  for (const color of ['white', 'black']) {
    const el = sideBox(color).querySelector('.clock');
    if (!base) { el.textContent = ''; continue; }
    let ms = base[`${color}_ms`];
    const running = base.running === color && !ui.game.result;
    if (running) ms -= performance.now() - base.at;
    el.textContent = formatClock(ms);
    el.classList.toggle('running', running);
    el.classList.toggle('low', ms < 10000);
    if (running && ms <= 0 && !flagAsked) {
      flagAsked = true;
      api('GET', `/api/games/${ui.game.id}`).then((v) => setGame(v)).catch(() => {}).finally(() => { setTimeout(() => { flagAsked = false; }, 500); });
    }
  }
}
setInterval(() => { if (ui.game) renderClocks(); }, 100);

// ---------------------------------------------------------------- WebSocket
function connect() {
  const ws = new WebSocket(`ws://${location.host}/api/ws`);
  ui.ws = ws;
  ws.onopen = () => {
    watch();
    if (ui.analysis.on) startAnalysis(true);
    if (ui.game) api('GET', `/api/games/${ui.game.id}`).then((v) => setGame(v)).catch((e) => lostGame(e));
  };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === 'game' && ui.game && msg.game.id === ui.game.id) setGame(msg.game);
    else if (msg.type === 'info' && msg.id === ui.analysis.id) analysisInfo(msg);
    else if (msg.type === 'done' && msg.id === ui.analysis.id) $('analysis-stats').textContent += ' · done';
    else if (msg.type === 'error') $('analysis-stats').textContent = msg.message;
  };
  ws.onclose = () => { ui.ws = null; setTimeout(connect, 1000); };
}

function send(msg) { if (ui.ws && ui.ws.readyState === WebSocket.OPEN) ui.ws.send(JSON.stringify(msg)); }
function watch() { if (ui.game) send({ type: 'watch', game: ui.game.id }); }

// ---------------------------------------------------------------- analysis
let analysedKey = null;
function startAnalysis(force) {
  const key = `${ui.game.variant}|${shownFen()}|${$('multipv').value}`;
  if (!force && key === analysedKey) return;
  analysedKey = key;
  ui.analysis.id += 1;
  ui.analysis.lines = [];
  ui.analysis.fen = shownFen();
  $('analysis-lines').replaceChildren();
  $('analysis-stats').textContent = 'starting…';
  resetEvalBar();
  send({ type: 'analyse', id: ui.analysis.id, variant: ui.game.variant, fen: shownFen(), multipv: Number($('multipv').value) });
}

function stopAnalysis() {
  send({ type: 'stop' });
  ui.analysis.on = false;
  analysedKey = null;
  $('btn-analyse').textContent = 'Start analysis';
  $('analysis-stats').textContent = 'stopped';
  resetEvalBar();
}

function resetEvalBar() {
  const bar = $('evalbar');
  bar.querySelector('.fill').style.height = '50%';
  bar.querySelector('.label').textContent = '';
}

function scoreText(info) {
  if (info.mate !== null && info.mate !== undefined) return `#${info.mate}`;
  const v = info.cp / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

function pvText(info) {
  let n = info.start_number;
  let white = info.white_to_move;
  const parts = [];
  info.san.forEach((s, i) => {
    if (white) parts.push(`${n}.`);
    else if (i === 0) parts.push(`${n}…`);
    parts.push(s);
    if (!white) n += 1;
    white = !white;
  });
  return parts.join(' ');
}

function analysisInfo(info) {
  ui.analysis.lines[info.multipv - 1] = info;
  if (info.multipv === 1) {
    $('analysis-stats').textContent = `depth ${info.depth}/${info.seldepth} · ${(info.nps / 1000).toFixed(0)} kN/s · ${info.nodes.toLocaleString('en')} nodes`;
    setEvalBar(info);
  }
  const list = $('analysis-lines');
  list.replaceChildren();
  ui.analysis.lines.forEach((line) => {
    if (!line) return;
    const li = document.createElement('li');
    li.dataset.depth = line.depth;
    li.title = 'click to play the first move';
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = scoreText(line);
    li.append(score, ` ${pvText(line)}`);
    li.addEventListener('click', () => {
      if (humanToMove() && ui.analysis.fen === shownFen() && line.uci.length) sendMove(line.uci[0]);
    });
    list.append(li);
  });
}

function setEvalBar(info) {
  let share;
  if (info.mate !== null && info.mate !== undefined) share = info.mate > 0 ? 1 : 0;
  else share = 1 / (1 + Math.exp(-0.004 * info.cp));
  const bar = $('evalbar');
  bar.querySelector('.fill').style.height = `${(share * 100).toFixed(1)}%`;
  bar.querySelector('.label').textContent = scoreText(info);
  bar.classList.toggle('flipped', ui.orientation === 'black');
}

// ---------------------------------------------------------------- explorer, PGN
async function loadExplorer() {
  const fen = shownFen();
  if (ui.explorerFen === fen) return;
  ui.explorerFen = fen;
  const body = $('explorer-body');
  try {
    const data = await api('GET', `/api/explorer?variant=${encodeURIComponent(ui.game.variant)}&fen=${encodeURIComponent(fen)}`);
    if (ui.explorerFen !== fen) return;
    body.replaceChildren();
    const head = $('explorer-head');
    if (!data.available) { head.textContent = data.message; return; }
    head.textContent = `Book: ${data.book}` + (data.opening ? ` · ${data.opening.eco} ${data.opening.name}` : '') + (data.moves.length ? '' : ' · no book moves here');
    for (const m of data.moves) {
      const tr = document.createElement('tr');
      tr.className = 'clickable';
      tr.title = m.opening ? `${m.opening.eco} ${m.opening.name}` : '';
      const td = (text) => { const c = document.createElement('td'); c.textContent = text; tr.append(c); return c; };
      td(m.san);
      td(m.games !== null ? m.games.toLocaleString('en') : '–');
      const bar = td('');
      if (m.games) {
        const wdl = document.createElement('div');
        wdl.className = 'wdl';
        for (const [cls, n] of [['w', m.white], ['d', m.draws], ['l', m.black]]) {
          const s = document.createElement('span');
          s.className = cls;
          const pct = (100 * n) / m.games;
          s.style.width = `${pct}%`;
          s.textContent = pct >= 12 ? `${Math.round(pct)}%` : '';
          wdl.append(s);
        }
        bar.append(wdl);
      }
      td(m.elo || '–');
      td(`${Math.round(m.probability * 100)}%`);
      tr.addEventListener('click', () => { if (humanToMove() && ui.explorerFen === shownFen()) sendMove(m.uci); });
      body.append(tr);
    }
  } catch (e) {
    $('explorer-head').textContent = e.message;
  }
}

async function loadPgn() {
  try { $('pgn-text').textContent = await api('GET', `/api/games/${ui.game.id}/pgn`); } catch (e) { $('pgn-text').textContent = e.message; }
}

// ---------------------------------------------------------------- new game
async function newGame(settings) {
  const body = { variant: settings.variant, white: settings.white, black: settings.black, level: Number(settings.level) };
  if (Number(settings.minutes) > 0) body.tc = { minutes: Number(settings.minutes), increment: Number(settings.increment) || 0 };
  if (settings.fen && settings.fen.trim()) body.fen = settings.fen.trim();
  const view = await api('POST', '/api/games', body);
  ui.settings = { ...settings };
  localStorage.setItem('mysl.settings', JSON.stringify({ ...settings, fen: '' }));
  ui.explorerFen = null;
  setGame(view, true);
  return view;
}

function openNewDialog() {
  const s = ui.settings;
  $('ng-variant').value = s.variant;
  $('ng-white').value = s.white;
  $('ng-black').value = s.black;
  $('ng-level').value = String(s.level);
  $('ng-minutes').value = s.minutes;
  $('ng-increment').value = s.increment;
  $('ng-fen').value = '';
  $('ng-error').textContent = '';
  $('new-dialog').showModal();
}

$('new-form').addEventListener('submit', async (e) => {
  if (e.submitter && e.submitter.value !== 'start') return;
  e.preventDefault();
  const settings = {
    variant: $('ng-variant').value, white: $('ng-white').value, black: $('ng-black').value, level: Number($('ng-level').value),
    minutes: $('ng-minutes').value, increment: $('ng-increment').value, fen: $('ng-fen').value,
  };
  try {
    await newGame(settings);
    $('new-dialog').close();
  } catch (err) {
    $('ng-error').textContent = err.message;
  }
});

// ---------------------------------------------------------------- controls
$('btn-new').addEventListener('click', openNewDialog);
$('btn-flip').addEventListener('click', () => { ui.orientation = ui.orientation === 'white' ? 'black' : 'white'; render(); });
$('nav-first').addEventListener('click', () => goTo(0));
$('nav-prev').addEventListener('click', () => goTo(ui.ply - 1));
$('nav-next').addEventListener('click', () => goTo(ui.ply + 1));
$('nav-last').addEventListener('click', () => goTo(ui.game.moves.length));
$('btn-takeback').addEventListener('click', async () => {
  try { setGame(await api('POST', `/api/games/${ui.game.id}/takeback`), true); } catch (e) { showMoveError(e.message); }
});
$('btn-resign').addEventListener('click', async () => {
  try { setGame(await api('POST', `/api/games/${ui.game.id}/resign`), true); } catch (e) { showMoveError(e.message); }
});
$('btn-draw').addEventListener('click', async () => {
  showMoveError('');
  try { setGame(await api('POST', `/api/games/${ui.game.id}/draw`), true); } catch (e) { showMoveError(e.message); }
});
$('san-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('san-input').value.trim();
  if (!text || !humanToMove()) return;
  $('san-input').value = '';
  sendMove(text);
});
$('btn-analyse').addEventListener('click', () => {
  if (ui.analysis.on) { stopAnalysis(); return; }
  ui.analysis.on = true;
  $('btn-analyse').textContent = 'Stop';
  startAnalysis(true);
});
$('multipv').addEventListener('change', () => { if (ui.analysis.on) startAnalysis(true); });
$('btn-import').addEventListener('click', async () => {
  $('import-error').textContent = '';
  try {
    const view = await api('POST', '/api/games/import', { pgn: $('pgn-in').value, white: 'human', black: 'human' });
    setGame(view, true);
  } catch (e) { $('import-error').textContent = e.message; }
});
for (const tab of document.querySelectorAll('.tabs button')) {
  tab.addEventListener('click', () => {
    ui.tab = tab.dataset.tab;
    for (const t of document.querySelectorAll('.tabs button')) t.classList.toggle('active', t === tab);
    for (const p of document.querySelectorAll('.panel')) p.hidden = p.id !== `tab-${ui.tab}`;
    if (ui.game) render();
  });
}
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select, dialog') || !ui.game) return;
  if (e.key === 'ArrowLeft') goTo(ui.ply - 1);
  else if (e.key === 'ArrowRight') goTo(ui.ply + 1);
  else if (e.key === 'Home') goTo(0);
  else if (e.key === 'End') goTo(ui.game.moves.length);
  else if (e.key === 'f') $('btn-flip').click();
  else if (/^[a-hKQRBNPO0-9@]$/.test(e.key) && humanToMove()) {
    // Typing on the board starts keyboard move entry; the key itself goes into the box.
    $('san-input').focus();
    return;
  } else return;
  e.preventDefault();
});

// ---------------------------------------------------------------- start
async function start() {
  ui.info = await api('GET', '/api/info');
  for (const v of ui.info.variants) {
    const o = document.createElement('option');
    o.value = v.name;
    o.textContent = v.title;
    $('ng-variant').append(o);
  }
  ui.info.levels.forEach((label, i) => {
    const o = document.createElement('option');
    o.value = String(i + 1);
    o.textContent = `${i + 1} (${label})`;
    $('ng-level').append(o);
  });
  try { Object.assign(ui.settings, JSON.parse(localStorage.getItem('mysl.settings') || '{}')); } catch (e) { /* defaults */ }
  connect();
  const params = new URLSearchParams(location.search);
  if (params.has('variant')) ui.settings.variant = params.get('variant');
  await newGame(ui.settings).catch(() => newGame({ ...ui.settings, variant: 'chess', fen: '' }));
}

window.mysl = { ui, newGame, goTo };
start().catch((e) => { document.body.prepend(Object.assign(document.createElement('p'), { className: 'error', textContent: e.message })); });
