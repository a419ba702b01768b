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
  replay: null,      // a solution shown on the board: { start_fen, moves, ply, text }
  tbKey: null,       // the position the tablebase panel shows
  solve: null,       // the solve job shown in the solver panel
  evals: null,       // { id, version, list } from /api/games/{id}/evals
  gameAnalysis: null, // the last "Analyse the game" result: { game, nodes, plies, players, start_eval }
  gameAnalysisRun: null, // the one running: { id, game, done, total, progress (messages seen) }
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

function live() { return ui.game && !ui.replay && ui.ply === ui.game.moves.length; }
function humanToMove() {
  const g = ui.game;
  return g && live() && !g.result && g.players[g.turn === 'white' ? 0 : 1] === 'human';
}
function shownFen() {
  if (ui.replay) return ui.replay.ply === 0 ? ui.replay.start_fen : ui.replay.moves[ui.replay.ply - 1].fen;
  const g = ui.game;
  return ui.ply === 0 ? g.start_fen : g.moves[ui.ply - 1].fen;
}
function shownVariant() { return ui.replay ? 'chess' : ui.game.variant; }
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
  const r = ui.replay;
  const last = r ? (r.ply > 0 ? r.moves[r.ply - 1] : null) : ui.ply > 0 ? g.moves[ui.ply - 1] : null;
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
  if (changedGame) { ui.replay = null; showMoveError(''); if (ui.gameAnalysisRun) stopGameAnalysis('stopped: another game'); }
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
  renderReplayBar();
  renderGraph();
  renderGameAnalysis();
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
  if (ui.tab === 'tablebase') loadTablebase();
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
  const g = ui.replay ? replayAsGame() : ui.game;
  const shown = ui.replay ? ui.replay.ply : ui.ply;
  const analysed = ui.replay ? [] : analysedPlies();
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
    cell.className = 'mv' + (i + 1 === shown ? ' current' : '');
    cell.dataset.ply = i + 1;
    cell.textContent = m.san;
    const a = ui.replay ? null : analysed[i];
    if (a && a.judgement !== 'good') {
      const mark = document.createElement('span');
      mark.className = `nag ${a.judgement}`;
      mark.textContent = a.nag;
      cell.title = a.note;
      cell.classList.add(a.judgement);
      cell.append(mark);
    }
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
  if (ui.replay) {
    ui.replay.ply = Math.max(0, Math.min(ui.replay.moves.length, ply));
    render();
    return;
  }
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
    else if (msg.type === 'queued' && msg.id === ui.analysis.id) $('analysis-stats').textContent = msg.message;
    else if (msg.type && msg.type.startsWith('game_analysis')) gameAnalysisMessage(msg);
    else if (msg.type === 'error') $('analysis-stats').textContent = msg.message;
  };
  ws.onclose = () => {
    ui.ws = null;
    if (ui.gameAnalysisRun) { ui.gameAnalysisRun = null; gameAnalysisStatus('interrupted: the connection was lost'); renderGameAnalysis(); }
    setTimeout(connect, 1000);
  };
}

function send(msg) { if (ui.ws && ui.ws.readyState === WebSocket.OPEN) ui.ws.send(JSON.stringify(msg)); }
function watch() { if (ui.game) send({ type: 'watch', game: ui.game.id }); }

// ---------------------------------------------------------------- analysis
let analysedKey = null;
function startAnalysis(force) {
  const key = `${shownVariant()}|${shownFen()}|${$('multipv').value}`;
  if (!force && key === analysedKey) return;
  analysedKey = key;
  ui.analysis.id += 1;
  ui.analysis.lines = [];
  ui.analysis.fen = shownFen();
  $('analysis-lines').replaceChildren();
  $('analysis-stats').textContent = 'starting…';
  resetEvalBar();
  send({ type: 'analyse', id: ui.analysis.id, variant: shownVariant(), fen: shownFen(), multipv: Number($('multipv').value) });
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
    const tb = info.tbhits > 0 ? ` · ${info.tbhits.toLocaleString('en')} tb hits` : '';
    $('analysis-stats').textContent = `depth ${info.depth}/${info.seldepth} · ${(info.nps / 1000).toFixed(0)} kN/s · ${info.nodes.toLocaleString('en')} nodes${tb}`;
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
    const data = await api('GET', `/api/explorer?variant=${encodeURIComponent(shownVariant())}&fen=${encodeURIComponent(fen)}`);
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

// ---------------------------------------------------------------- solution replay
// A solution from the solver shown on the board: the moves come from the server (replayed with the
// rules core); navigation steps through them until "Back to the game".
function replayAsGame() {
  const r = ui.replay;
  const [, side, , , , full] = r.start_fen.split(' ');
  let number = Number(full) || 1;
  let white = side !== 'b';
  const moves = r.moves.map((m) => {
    const out = { ...m, number, white, book: false };
    if (!white) number += 1;
    white = !white;
    return out;
  });
  return { moves };
}

function startReplay(replay, text) {
  ui.replay = { ...replay, ply: 0, text };
  ui.pocketSelected = null;
  render();
}

function renderReplayBar() {
  const bar = $('replay-bar');
  bar.hidden = !ui.replay;
  if (!ui.replay) return;
  $('replay-text').textContent = ui.replay.moves.length
    ? `Solution: ${ui.replay.text} (move ${ui.replay.ply}/${ui.replay.moves.length})`
    : `Showing ${ui.replay.text}`;
}
$('replay-exit').addEventListener('click', () => { ui.replay = null; render(); });

// ---------------------------------------------------------------- tablebase
const TB_WORDS = { win: 'Win', 'cursed-win': 'Cursed win', draw: 'Draw', 'blessed-loss': 'Blessed loss', loss: 'Loss', checkmate: 'Checkmate', stalemate: 'Stalemate' };

async function loadTablebase() {
  const fen = shownFen();
  const variant = shownVariant();
  const key = `${variant}|${fen}`;
  if (ui.tbKey === key) return;
  ui.tbKey = key;
  const head = $('tb-head');
  const body = $('tb-body');
  body.replaceChildren();
  if (!ui.info.tablebase) {
    head.className = 'tb-head muted';
    head.textContent = 'No tablebase: start mysl web with --tb DIR (tables made by mysl tb gen).';
    return;
  }
  if (variant !== 'chess' && !(ui.info.tablebase.variants || []).includes(variant)) {
    head.className = 'tb-head muted';
    head.textContent = `No ${variant} tables here (mysl tb gen --variant ${variant} … --dir DIR).`;
    return;
  }
  head.className = 'tb-head muted';
  head.textContent = 'probing…';
  try {
    const data = await api('GET', `/api/tablebase?variant=${encodeURIComponent(variant)}&fen=${encodeURIComponent(fen)}`);
    if (ui.tbKey !== key) return;
    const side = data.turn === 'white' ? 'White' : 'Black';
    head.className = `tb-head tb-${data.state}`;
    head.dataset.wdl = data.wdl;
    head.dataset.dtz = data.dtz;
    head.dataset.dtm = data.dtm;
    head.textContent = ['checkmate', 'stalemate'].includes(data.state)
      ? `${TB_WORDS[data.state]} (${side} to move)`
      : `${side} to move: ${TB_WORDS[data.state]} · WDL ${data.wdl} · DTZ ${data.dtz ?? '–'} · DTM ${data.dtm ?? '–'}`;
    for (const m of data.moves) {
      const tr = document.createElement('tr');
      tr.className = `clickable tb-${m.category}`;
      tr.dataset.uci = m.uci;
      tr.dataset.wdl = m.wdl;
      tr.dataset.dtz = m.dtz;
      tr.dataset.dtm = m.dtm;
      tr.title = m.zeroing ? 'a zeroing move (capture or pawn move)' : '';
      for (const text of [m.san, TB_WORDS[m.category], m.dtz ?? '–', m.dtm ?? '–']) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      tr.addEventListener('click', () => tablebaseMove(m.uci, fen));
      body.append(tr);
    }
  } catch (e) {
    if (ui.tbKey !== key) return;
    head.className = 'tb-head error';
    head.textContent = e.message;
  }
}

// A tablebase move: play it when a human is to move, follow the game when it is the next move there,
// else continue from the shown position in a new game between people.
async function tablebaseMove(uci, fen) {
  if (fen !== shownFen()) return;
  if (humanToMove()) { sendMove(uci); return; }
  if (ui.replay) {
    const next = ui.replay.moves[ui.replay.ply];
    if (next && next.uci === uci) { goTo(ui.replay.ply + 1); return; }
  } else {
    const next = ui.game.moves[ui.ply];
    if (next && next.uci === uci) { goTo(ui.ply + 1); return; }
  }
  await newGame({ ...ui.settings, variant: shownVariant(), white: 'human', black: 'human', minutes: 0, fen });
  sendMove(uci);
}

// ---------------------------------------------------------------- solver
let solvePoll = null;
async function startSolve(body) {
  $('solve-error').textContent = '';
  try {
    const job = await api('POST', '/api/solve', body);
    ui.solve = job;
    renderSolve();
    pollSolve(job.id);
  } catch (e) {
    $('solve-error').textContent = e.message;
  }
}

function pollSolve(id) {
  clearTimeout(solvePoll);
  solvePoll = setTimeout(async () => {
    try {
      const job = await api('GET', `/api/solve/${id}`);
      if (!ui.solve || ui.solve.id !== id) return;
      ui.solve = job;
      renderSolve();
      if (job.status === 'running') pollSolve(id);
      else showProblemPosition(job);
    } catch (e) {
      $('solve-error').textContent = e.message;
    }
  }, 200);
}

// When a solve ends, the board shows the problem's position (twin a) until a solution is clicked.
function showProblemPosition(job) {
  const twin = (job.twins || [])[0];
  if (twin && twin.position) startReplay({ start_fen: twin.position, moves: [] }, 'the problem\'s position');
  else if (ui.replay) { ui.replay = null; render(); } // no board for this problem: not the last one's
}

function renderSolve() {
  const job = ui.solve;
  const running = job && job.status === 'running';
  $('btn-solve-cancel').hidden = !running;
  $('btn-solve').disabled = running;
  $('btn-solve-board').disabled = running;
  if (!job) return;
  const secs = (job.elapsed_ms / 1000).toFixed(1);
  const stip = job.problem.stipulation || '';
  const count = (job.twins || []).reduce((n, t) => n + t.count, 0);
  const status = {
    running: `Solving ${stip}… ${secs} s · ${job.nodes.toLocaleString('en')} nodes`,
    done: `${stip}: ${count} solution line${count === 1 ? '' : 's'} in ${secs} s · ${job.nodes.toLocaleString('en')} nodes`,
    cancelled: `${stip}: cancelled after ${secs} s (what was found so far is below, incomplete)`,
    error: `${stip}: ${job.error}`,
  }[job.status];
  const box = $('solve-status');
  box.textContent = status;
  box.dataset.status = job.status;
  // The solver library's classification (intended solutions, cooks, duals): the problem's verdict.
  const verdict = $('solve-summary');
  verdict.hidden = !job.summary;
  verdict.textContent = job.summary ? `Classification: ${job.summary}` : '';
  verdict.dataset.verdict = (job.summary || '').split(/[:;(]/)[0].trim().split(' ')[0];
  const list = $('solve-lines');
  list.replaceChildren();
  $('solve-text').textContent = job.text || '';
  for (const twin of job.twins || []) {
    if (twin.header) {
      const h = document.createElement('li');
      h.className = 'twin-header';
      h.textContent = `${twin.header} (${twin.stipulation})`;
      if (twin.classification) {
        const c = document.createElement('span');
        c.className = `verdict verdict-${twin.classification.verdict}`;
        c.textContent = twin.classification.summary;
        h.append(' ', c);
      }
      list.append(h);
    }
    if (twin.board_note && twin.solutions.length) {
      const li = document.createElement('li');
      li.className = 'muted board-note';
      li.textContent = twin.board_note;
      list.append(li);
    }
    if (twin.solutions.length === 0) {
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = twin.interrupted ? 'interrupted before a solution was found' : 'no solution';
      list.append(li);
    }
    for (const sol of twin.solutions) {
      const li = document.createElement('li');
      li.className = 'solution' + (sol.replay ? ' clickable' : '') + (sol.role ? ` role-${sol.role}` : '');
      li.dataset.role = sol.role || 'none';
      if (sol.solution) li.dataset.solution = sol.solution;
      const text = document.createElement('span');
      text.className = 'sol-text';
      text.textContent = sol.text;
      li.append(text);
      const badge = solutionBadge(sol);
      if (badge) li.append(' ', badge);
      if (sol.replay) {
        li.title = 'click to replay on the board';
        li.addEventListener('click', () => startReplay(sol.replay, sol.text));
      }
      list.append(li);
    }
  }
  if (job.interrupted) {
    const li = document.createElement('li');
    li.className = 'error';
    li.textContent = 'interrupted: the list may be incomplete';
    list.append(li);
  }
}

// The mark of a listed line, from the server's classification (`role`, `solution` number).
function solutionBadge(sol) {
  const names = {
    intended: 'intended', cook: sol.short ? 'cook (short)' : 'cook', 'move-order': 'move-order dual',
    'second-path': 'second-path dual', dual: 'dual', threat: 'threat', 'set-play': 'set play', try: 'try',
  };
  let label = names[sol.role];
  if (!label) return null;
  // Set play and tries: only their first lines are marked.
  if ((sol.role === 'set-play' && !/^\s*1\.\.\./.test(sol.text)) || (sol.role === 'try' && !/^\s*1\.[^.]/.test(sol.text))) return null;
  if (sol.solution && !['intended', 'cook'].includes(sol.role)) label += ` of ${sol.solution}`;
  else if (sol.solution) label = `${sol.solution} · ${label}`;
  const b = document.createElement('span');
  b.className = `badge badge-${sol.role}`;
  b.textContent = label;
  return b;
}

$('btn-solve').addEventListener('click', () => startSolve({ input: $('solve-input').value }));
$('btn-solve-board').addEventListener('click', () => startSolve({ fen: shownFen(), stipulation: $('solve-stip').value }));
$('btn-solve-cancel').addEventListener('click', async () => {
  if (!ui.solve) return;
  try { ui.solve = await api('POST', `/api/solve/${ui.solve.id}/cancel`); renderSolve(); pollSolve(ui.solve.id); } catch (e) { $('solve-error').textContent = e.message; }
});

// ---------------------------------------------------------------- evaluation graph
let evalsAsked = null;
function graphPoints() {
  const g = ui.game;
  const have = ui.evals && ui.evals.id === g.id && ui.evals.count === g.moves.length ? ui.evals.list : null;
  const analysed = analysedPlies();
  const points = [];
  g.moves.forEach((m, i) => {
    // The game analysis first (one search setting for every move), then the engine's and the quick ones.
    const a = analysed[i];
    const e = a ? { ...a.eval, ply: i + 1, source: 'game', depth: null, judgement: a.judgement, label: `${a.san}${a.nag}`, note: a.note } : (have && have[i]) || m.eval;
    if (e) points.push(e);
  });
  return points;
}

function winShare(e) {
  if (e.mate !== null && e.mate !== undefined) return e.score > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-0.004 * e.cp));
}

function renderGraph() {
  const g = ui.game;
  const box = $('evalgraph');
  if (ui.replay || g.moves.length === 0) { box.hidden = true; return; }
  const complete = analysedPlies().length === g.moves.length;
  if (g.result && !complete && !(ui.evals && ui.evals.id === g.id && ui.evals.count === g.moves.length) && evalsAsked !== `${g.id}|${g.moves.length}`) {
    evalsAsked = `${g.id}|${g.moves.length}`;
    api('GET', `/api/games/${g.id}/evals`).then((data) => {
      ui.evals = { id: g.id, count: data.evals.length, list: data.evals };
      if (ui.game && ui.game.id === g.id) renderGraph();
    }).catch(() => {});
  }
  const points = graphPoints();
  if (points.length === 0) { box.hidden = true; return; }
  box.hidden = false;
  const W = 400;
  const H = 80;
  const n = Math.max(g.moves.length, 2);
  const x = (ply) => ((ply - 1) / (n - 1)) * (W - 8) + 4;
  const y = (e) => 4 + (1 - winShare(e)) * (H - 8);
  const svgNS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Evaluation after each move (White up, Black down); click a point to go to that move');
  const mk = (tag, attrs) => { const el = document.createElementNS(svgNS, tag); for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v); return el; };
  svg.append(mk('rect', { x: 0, y: 0, width: W, height: H, class: 'bg' }));
  const line = points.map((e) => `${x(e.ply).toFixed(1)},${y(e).toFixed(1)}`).join(' ');
  svg.append(mk('polygon', { points: `${x(points[0].ply).toFixed(1)},${H / 2} ${line} ${x(points[points.length - 1].ply).toFixed(1)},${H / 2}`, class: 'area' }));
  svg.append(mk('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid' }));
  svg.append(mk('polyline', { points: line, class: 'curve' }));
  if (ui.ply > 0) svg.append(mk('line', { x1: x(ui.ply), y1: 0, x2: x(ui.ply), y2: H, class: 'now' }));
  // Mistakes last, so they are drawn over the other points.
  const marked = (e) => e.judgement && e.judgement !== 'good';
  for (const e of [...points.filter((p) => !marked(p)), ...points.filter(marked)]) {
    const mark = marked(e);
    const c = mk('circle', { cx: x(e.ply), cy: y(e), r: mark ? 4.5 : 2.5, class: `pt ${e.source}${mark ? ` ${e.judgement}` : ''}`, 'data-ply': e.ply });
    const t = mk('title', {});
    const score = e.mate !== null && e.mate !== undefined ? `#${e.score > 0 ? '' : '-'}${e.mate}` : `${e.cp > 0 ? '+' : ''}${(e.cp / 100).toFixed(2)}`;
    t.textContent = e.source === 'game'
      ? `ply ${e.ply}, ${e.label}: ${score}${e.note ? ` · ${e.note}` : ''}`
      : `ply ${e.ply}: ${score} (${e.source}, depth ${e.depth})`;
    c.append(t);
    svg.append(c);
  }
  svg.addEventListener('click', (ev) => {
    const rect = svg.getBoundingClientRect();
    const px = ((ev.clientX - rect.left) / rect.width) * W;
    let best = points[0];
    for (const e of points) if (Math.abs(x(e.ply) - px) < Math.abs(x(best.ply) - px)) best = e;
    goTo(best.ply);
  });
  box.replaceChildren(svg);
  const note = document.createElement('div');
  note.className = 'muted small';
  if (complete) {
    note.append('Game analysis (White above the line): ');
    for (const [cls, text] of [['inaccuracy', '?! inaccuracy'], ['mistake', '? mistake'], ['blunder', '?? blunder']]) {
      const k = document.createElement('span');
      k.className = `key ${cls}`;
      k.textContent = text;
      note.append(k, ' ');
    }
    note.append('· click to go there.');
  } else {
    note.textContent = g.result ? 'Evaluation after each move (White above the line); click to go there.' : 'Engine evaluations so far; the whole game is evaluated when it ends.';
  }
  box.append(note);
}

// ---------------------------------------------------------------- game analysis ("Analyse the game")
// The server searches every position (a fixed number of nodes: the same figures each time, and those of
// `mysl analyse --nodes N`) and judges every move; the page shows what it sent.
let gaSeq = 0;

// The analysed moves that the shown game still has (a takeback or other moves end the list there).
function analysedPlies() {
  const g = ui.game;
  const a = ui.gameAnalysis;
  if (!g || !a || a.game !== g.id) return [];
  const out = [];
  for (let i = 0; i < a.plies.length && i < g.moves.length && a.plies[i].uci === g.moves[i].uci; i += 1) out.push(a.plies[i]);
  return out;
}

function gameAnalysisStatus(text) { $('ga-status').textContent = text; }

function startGameAnalysis() {
  const g = ui.game;
  if (!g || g.moves.length === 0) return;
  if (!ui.ws || ui.ws.readyState !== WebSocket.OPEN) { gameAnalysisStatus('not connected to the server: try again in a moment'); return; }
  gaSeq += 1;
  ui.gameAnalysisRun = { id: gaSeq, game: g.id, done: 0, total: g.moves.length + 1, progress: 0 };
  send({ type: 'analyse_game', id: gaSeq, game: g.id, nodes: Number($('ga-nodes').value) });
  gameAnalysisStatus('starting…');
  renderGameAnalysis();
}

function stopGameAnalysis(text) {
  if (!ui.gameAnalysisRun) return;
  send({ type: 'stop_game_analysis' });
  ui.gameAnalysisRun = null;
  gameAnalysisStatus(text || 'stopped');
  renderGameAnalysis();
}

function gameAnalysisMessage(msg) {
  const run = ui.gameAnalysisRun;
  if (!run || msg.id !== run.id) return; // an older request's last words
  if (msg.type === 'game_analysis_progress') {
    run.done = msg.done;
    run.total = msg.total;
    run.progress += 1;
    const plies = run.total - 1;
    gameAnalysisStatus(`Analysing: ply ${Math.min(run.done, plies)} of ${plies}`);
  } else if (msg.type === 'game_analysis') {
    ui.gameAnalysis = { game: msg.game, nodes: msg.nodes, plies: msg.plies, players: msg.players, start_eval: msg.start_eval, progress: run.progress };
    ui.gameAnalysisRun = null;
    gameAnalysisStatus(`${msg.plies.length} plies analysed, ${Number(msg.nodes).toLocaleString('en')} nodes a position`);
    if (ui.game && ui.game.id === msg.game) render(); else renderGameAnalysis();
    return;
  } else if (msg.type === 'game_analysis_queued') {
    gameAnalysisStatus(msg.message);
  } else if (msg.type === 'game_analysis_stopped') {
    ui.gameAnalysisRun = null;
    gameAnalysisStatus('stopped');
  } else if (msg.type === 'game_analysis_error') {
    ui.gameAnalysisRun = null;
    gameAnalysisStatus(msg.message);
  }
  renderGameAnalysis();
}

function renderGameAnalysis() {
  const g = ui.game;
  if (!g) return;
  const run = ui.gameAnalysisRun && ui.gameAnalysisRun.game === g.id ? ui.gameAnalysisRun : null;
  const button = $('btn-analyse-game');
  button.textContent = run ? 'Stop the game analysis' : 'Analyse the game';
  button.disabled = !run && (g.moves.length === 0 || !!ui.replay);
  $('ga-nodes').disabled = !!run;
  const bar = $('ga-progress');
  bar.hidden = !run;
  if (run) { bar.max = run.total; bar.value = run.done; }
  // Each player's figures, when the analysis covers the whole game shown.
  const analysed = analysedPlies();
  const summary = $('ga-summary');
  const a = ui.gameAnalysis;
  summary.hidden = !(a && analysed.length > 0 && analysed.length === a.plies.length);
  if (!summary.hidden) {
    summary.replaceChildren();
    const table = document.createElement('table');
    table.className = 'ga-table';
    const cell = (tag, text, cls, title) => {
      const c = document.createElement(tag);
      c.textContent = text;
      if (cls) c.className = cls;
      if (title) c.title = title;
      return c;
    };
    const head = document.createElement('tr');
    head.append(cell('th', ''), cell('th', 'Accuracy'), cell('th', 'ACPL', '', 'average centipawn loss'),
      cell('th', '?!', 'inaccuracy', 'inaccuracies'), cell('th', '?', 'mistake', 'mistakes'), cell('th', '??', 'blunder', 'blunders'));
    table.append(head);
    for (const [color, name] of [['white', 'White'], ['black', 'Black']]) {
      const p = a.players[color];
      const row = document.createElement('tr');
      row.className = 'ga-player';
      row.dataset.color = color;
      row.append(cell('th', name), cell('td', `${p.accuracy.toFixed(1)}%`, 'accuracy'), cell('td', String(p.acpl), 'acpl'));
      for (const [kind, n] of [['inaccuracy', p.inaccuracies], ['mistake', p.mistakes], ['blunder', p.blunders]]) {
        const c = cell('td', String(n), `count ${n ? kind : 'zero'}`);
        c.dataset.kind = kind;
        row.append(c);
      }
      table.append(row);
    }
    summary.append(table);
  }
  // The shown move's judgement and the better line.
  const box = $('ga-move');
  const cur = ui.replay || ui.ply === 0 ? null : analysed[ui.ply - 1];
  box.hidden = !cur;
  if (cur) {
    box.replaceChildren();
    const head = document.createElement('span');
    head.className = `ga-judgement ${cur.judgement}`;
    head.textContent = `${cur.number}${cur.white ? '.' : '…'} ${cur.san}${cur.nag} ${cur.eval.text}`;
    box.append(head);
    if (cur.note) box.append(` · ${cur.note}`);
    if (cur.line) box.append(` Best line: ${pvText({ san: cur.line, start_number: cur.line_number, white_to_move: cur.line_white })}`);
  }
}


// ---------------------------------------------------------------- board editor
const editor = { cg: null, selected: null, bin: false, valid: null };
const SPARE_ROLES = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];

function editorFen() {
  const castling = ['K', 'Q', 'k', 'q'].filter((c) => $(`ed-${c}`).checked).join('') || '-';
  return `${editor.cg.getFen()} ${$('ed-turn').value} ${castling} - 0 1`;
}

function editorCastlingPossible() {
  const pieces = editor.cg.state.pieces;
  const is = (sq, color, role) => { const p = pieces.get(sq); return p && p.color === color && p.role === role; };
  const can = { K: is('e1', 'white', 'king') && is('h1', 'white', 'rook'), Q: is('e1', 'white', 'king') && is('a1', 'white', 'rook'),
    k: is('e8', 'black', 'king') && is('h8', 'black', 'rook'), q: is('e8', 'black', 'king') && is('a8', 'black', 'rook') };
  for (const c of ['K', 'Q', 'k', 'q']) {
    $(`ed-${c}`).disabled = !can[c];
    if (!can[c]) $(`ed-${c}`).checked = false;
  }
}

let editorCheck = 0;
async function editorChanged() {
  editorCastlingPossible();
  const fen = editorFen();
  $('ed-fen').value = fen;
  const n = ++editorCheck;
  const status = $('ed-status');
  const variant = editorVariant();
  try {
    const info = await api('GET', `/api/position?variant=${encodeURIComponent(variant)}&fen=${encodeURIComponent(fen)}`);
    if (n !== editorCheck) return;
    editor.valid = info;
    status.className = 'small ok';
    status.textContent = `Legal (${variant}): ${info.turn === 'white' ? 'White' : 'Black'} to move, ${info.legal_moves} legal move${info.legal_moves === 1 ? '' : 's'}${info.check ? ', in check' : ''}${info.outcome ? ` · ${info.outcome}` : ''}.`;
  } catch (e) {
    if (n !== editorCheck) return;
    editor.valid = null;
    status.className = 'small error';
    status.textContent = e.message;
  }
  for (const id of ['ed-play', 'ed-analyse', 'ed-solve']) $(id).disabled = !editor.valid;
}

function editorVariant() {
  const v = ui.game ? ui.game.variant : 'chess';
  return ['dice', 'recycle'].includes(v) ? 'chess' : v;
}

function renderSpares() {
  for (const [id, color] of [['editor-spare-top', 'black'], ['editor-spare-bottom', 'white']]) {
    const box = $(id);
    box.replaceChildren();
    for (const role of SPARE_ROLES) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'slot' + (editor.selected && editor.selected.color === color && editor.selected.role === role ? ' selected' : '');
      b.dataset.color = color;
      b.dataset.role = role;
      b.setAttribute('aria-label', `${color} ${role}`);
      const p = document.createElement('piece');
      p.className = `${color} ${role}`;
      b.append(p);
      b.addEventListener('mousedown', (e) => { if (e.button === 0) editor.cg.dragNewPiece({ color, role }, e, true); });
      b.addEventListener('click', () => {
        const same = editor.selected && editor.selected.color === color && editor.selected.role === role;
        editor.selected = same ? null : { color, role };
        editor.bin = false;
        $('ed-bin').setAttribute('aria-pressed', 'false');
        renderSpares();
      });
      box.append(b);
    }
  }
}

function openEditor() {
  const dialog = $('editor-dialog');
  dialog.showModal();
  const fen = ui.game ? shownFen() : 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  if (!editor.cg) {
    editor.cg = Chessground($('editor-board'), {
      coordinates: true,
      movable: { free: true, color: 'both', showDests: false },
      draggable: { enabled: true, deleteOnDropOff: true },
      premovable: { enabled: false },
      highlight: { lastMove: false, check: false },
      animation: { enabled: false },
      events: {
        change: () => editorChanged(),
        select: (key) => {
          if (editor.bin) { editor.cg.setPieces(new Map([[key, undefined]])); editor.cg.selectSquare(null); editorChanged(); }
          else if (editor.selected) { editor.cg.setPieces(new Map([[key, { ...editor.selected }]])); editor.cg.selectSquare(null); editorChanged(); }
        },
      },
    });
  }
  editor.selected = null;
  editor.bin = false;
  $('ed-bin').setAttribute('aria-pressed', 'false');
  setEditorFen(fen);
  renderSpares();
  editor.cg.redrawAll();
}

function setEditorFen(fen) {
  const parts = fen.trim().split(/\s+/);
  editor.cg.set({ fen: parts[0] || '8/8/8/8/8/8/8/8', lastMove: undefined });
  $('ed-turn').value = parts[1] === 'b' ? 'b' : 'w';
  const castling = parts[2] || '-';
  for (const c of ['K', 'Q', 'k', 'q']) $(`ed-${c}`).checked = castling.includes(c);
  editorChanged();
}

$('btn-editor').addEventListener('click', openEditor);
$('ed-close').addEventListener('click', () => $('editor-dialog').close());
$('ed-start').addEventListener('click', () => setEditorFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'));
$('ed-clear').addEventListener('click', () => setEditorFen('8/8/8/8/8/8/8/8 w - - 0 1'));
$('ed-bin').addEventListener('click', () => {
  editor.bin = !editor.bin;
  editor.selected = null;
  $('ed-bin').setAttribute('aria-pressed', String(editor.bin));
  renderSpares();
});
for (const id of ['ed-turn', 'ed-K', 'ed-Q', 'ed-k', 'ed-q']) $(id).addEventListener('change', () => editorChanged());
$('ed-fen').addEventListener('change', () => setEditorFen($('ed-fen').value));

async function editorStart(players) {
  const fen = $('ed-fen').value;
  await newGame({ ...ui.settings, ...players, variant: editorVariant(), fen });
  $('editor-dialog').close();
}
$('ed-play').addEventListener('click', () => editorStart({}).catch((e) => { $('ed-status').textContent = e.message; }));
$('ed-analyse').addEventListener('click', async () => {
  try {
    await editorStart({ white: 'human', black: 'human', minutes: 0 });
    document.querySelector('.tabs button[data-tab="analysis"]').click();
    if (!ui.analysis.on) $('btn-analyse').click();
  } catch (e) { $('ed-status').textContent = e.message; }
});
$('ed-solve').addEventListener('click', async () => {
  try {
    await editorStart({ white: 'human', black: 'human', minutes: 0 });
    document.querySelector('.tabs button[data-tab="solver"]').click();
    $('solve-stip').focus();
  } catch (e) { $('ed-status').textContent = e.message; }
});

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
function shownPly() { return ui.replay ? ui.replay.ply : ui.ply; }
$('nav-first').addEventListener('click', () => goTo(0));
$('nav-prev').addEventListener('click', () => goTo(shownPly() - 1));
$('nav-next').addEventListener('click', () => goTo(shownPly() + 1));
$('nav-last').addEventListener('click', () => goTo(Infinity));
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
$('btn-analyse-game').addEventListener('click', () => { if (ui.gameAnalysisRun) stopGameAnalysis(); else startGameAnalysis(); });
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
  if (e.key === 'ArrowLeft') goTo(shownPly() - 1);
  else if (e.key === 'ArrowRight') goTo(shownPly() + 1);
  else if (e.key === 'Home') goTo(0);
  else if (e.key === 'End') goTo(Infinity);
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

window.mysl = { ui, newGame, goTo, editor };
start().catch((e) => { document.body.prepend(Object.assign(document.createElement('p'), { className: 'error', textContent: e.message })); });
