// End-to-end tests of `mysl web` in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core). Starts a real server on a free localhost port, plays through the page as a person
// would (clicks, drags, typing), and writes screenshots to $E2E_OUT (default: <repo>/target/web-e2e).
//
//   MYSL_BIN=path/to/mysl node run.mjs [name-filter]
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const bin = process.env.MYSL_BIN || path.join(root, 'target/debug/mysl');
const out = process.env.E2E_OUT || path.join(root, 'target/web-e2e');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const filter = process.argv[2] || '';
// Tables for the tablebase test (scripts/web-e2e.sh generates KRvK there) and the problem set.
const tbDir = process.env.E2E_TB_DIR || '';
const problemSet = process.env.E2E_PROBLEMS || path.resolve(root, '../shared/data/problems/popeye-set.jsonl');
fs.mkdirSync(out, { recursive: true });

// ------------------------------------------------------------------ server and browser
function startServer() {
  return new Promise((resolve, reject) => {
    const args = ['web', '--port', '0', '--host', '127.0.0.1'];
    if (tbDir) args.push('--tb', tbDir);
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${text}`)), 20000);
    child.stdout.on('data', (d) => {
      text += d;
      const m = text.match(/listening on (http:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve({ child, url: m[1] }); }
    });
    child.stderr.on('data', (d) => { text += d; process.stderr.write(`[server] ${d}`); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}): ${text}`)); });
  });
}

const { child: server, url } = await startServer();
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mysl-e2e-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
    '--no-first-run', '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] || (await context.newPage());
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`); });

// ------------------------------------------------------------------ helpers
// A test that provokes an error answer on purpose forgets the browser's console line about it.
async function expectErrorStatus(code) {
  await page.waitForTimeout(100);
  for (let i = pageErrors.length - 1; i >= 0; i -= 1) {
    if (pageErrors[i].includes(`status of ${code}`)) pageErrors.splice(i, 1);
  }
}
function assert(cond, message) { if (!cond) throw new Error(`assertion failed: ${message}`); }
async function waitFor(fn, what, timeout = 15000, arg) {
  try {
    return await page.waitForFunction(fn, arg, { timeout, polling: 50 });
  } catch (e) {
    throw new Error(`timed out waiting for ${what}`);
  }
}
const game = () => page.evaluate(() => window.mysl.ui.game);
const moveCount = () => page.evaluate(() => window.mysl.ui.game.moves.length);
async function shot(name) { await page.screenshot({ path: path.join(out, `${name}.png`) }); }

async function squareCenter(sq) {
  const box = await page.locator('#board cg-board').boundingBox();
  const orientation = await page.evaluate(() => window.mysl.ui.orientation);
  const file = sq.charCodeAt(0) - 97;
  const rank = sq.charCodeAt(1) - 49;
  const size = box.width / 8;
  const col = orientation === 'white' ? file : 7 - file;
  const row = orientation === 'white' ? 7 - rank : rank;
  return { x: box.x + (col + 0.5) * size, y: box.y + (row + 0.5) * size };
}
async function clickSquare(sq) { const p = await squareCenter(sq); await page.mouse.click(p.x, p.y); }
async function clickMove(from, to) { await clickSquare(from); await clickSquare(to); }
async function dragMove(from, to) {
  const a = await squareCenter(from);
  const b = await squareCenter(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}
async function newGame(settings) {
  await page.evaluate((s) => window.mysl.newGame({ variant: 'chess', white: 'human', black: 'human', level: 1, minutes: 0, increment: 0, fen: '', ...s }), settings);
  await waitFor(() => window.mysl.ui.game && window.mysl.ui.game.moves.length === 0, 'the new game');
}
async function tab(name) { await page.click(`.tabs button[data-tab="${name}"]`); }

// ------------------------------------------------------------------ tests
const tests = [];
const test = (name, fn) => tests.push({ name, fn });

test('new game dialog, click, drag and typed moves against the engine, book mark, takeback, resign', async () => {
  await page.click('#btn-new');
  await page.selectOption('#ng-variant', 'chess');
  await page.selectOption('#ng-white', 'human');
  await page.selectOption('#ng-black', 'engine');
  await page.selectOption('#ng-level', '1');
  await page.fill('#ng-minutes', '3');
  await page.fill('#ng-increment', '2');
  await shot('new-game-dialog');
  const before = (await game()).id;
  await page.click('#ng-start');
  await waitFor((id) => window.mysl.ui.game.id !== id && !document.getElementById('new-dialog').open, 'the game', 15000, before);
  const started = await game();
  assert(started.players[0] === 'human' && started.players[1] === 'engine' && started.level === 1 && started.clock, 'the dialog settings');
  // Legal-move dots after selecting a piece.
  await clickSquare('e2');
  await waitFor(() => document.querySelectorAll('#board square.move-dest').length === 2, 'two dots for the e2 pawn', 3000);
  await clickSquare('e4');
  await waitFor(() => window.mysl.ui.game.moves.length >= 2, 'the engine reply to 1. e4');
  await dragMove('d2', 'd4');
  await waitFor(() => window.mysl.ui.game.moves.length >= 4, 'the engine reply to 2. d4');
  // Keyboard move entry: typing on the page focuses the move box.
  const g = await game();
  const knight = g.legal.find((m) => m.san.startsWith('N')).san;
  await page.locator('body').press(knight[0]);
  assert(await page.evaluate(() => document.activeElement.id) === 'san-input', 'typing focuses the move box');
  await page.keyboard.type(knight.slice(1));
  await page.keyboard.press('Enter');
  await page.waitForTimeout(100);
  const typedError = await page.locator('#san-error').textContent();
  assert(!typedError, `typed ${knight}: ${typedError}`);
  await waitFor(() => window.mysl.ui.game.moves.length >= 6, 'the engine reply to the typed move');
  assert(await page.locator('#moves .book').count() >= 1, 'book moves are marked');
  await waitFor(() => document.querySelectorAll('#board square.last-move').length === 2, 'the last move highlighted', 3000);
  const clock = await page.locator('#player-bottom .clock').textContent();
  assert(/^\d+:\d\d/.test(clock), `a clock is shown (${clock})`);
  await shot('play-1280');
  await page.click('#btn-takeback');
  await waitFor(() => window.mysl.ui.game.moves.length === 4, 'takeback of two plies');
  await page.click('#nav-first');
  assert(await page.evaluate(() => window.mysl.ui.ply) === 0, 'navigation to the start');
  await page.keyboard.press('End');
  await page.click('#btn-draw');
  await waitFor(() => document.getElementById('san-error').textContent.includes('declines') || window.mysl.ui.game.result, 'an answer to the draw offer');
  if (!(await game()).result) {
    await expectErrorStatus(409);
    await page.click('#btn-resign');
  }
  await waitFor(() => !document.getElementById('result').hidden, 'the result');
  const text = await page.locator('#result').textContent();
  assert((text.includes('0-1') && text.includes('White resigns')) || text.includes('Draw by agreement'), `result announced: ${text}`);
});

test('a game against the engine to a result (the engine mates)', async () => {
  await newGame({ white: 'human', black: 'engine', level: 3 });
  await clickMove('f2', 'f3');
  await waitFor(() => window.mysl.ui.game.moves.length === 2, 'the engine reply to 1. f3');
  const g = await game();
  const second = g.legal.find((m) => m.uci === 'g2g4') ? ['g2', 'g4'] : ['g2', 'g3'];
  await clickMove(...second);
  await waitFor(() => window.mysl.ui.game.result, 'the game to end', 30000);
  const end = (await game()).result;
  await shot('engine-mates');
  assert(end.result === '0-1', `the engine won: ${JSON.stringify(end)}`);
  assert((await page.locator('#result').textContent()).includes(end.reason), 'reason shown');
  await waitFor(() => document.querySelectorAll('#board square.check').length === 1, 'the check highlighted', 3000);
});

test('evaluation graph after the game, a click navigates', async () => {
  // The game of the previous test (the engine mated): every move gets a point once the game is over.
  let g = await game();
  if (!g.result) {
    await newGame({ white: 'human', black: 'engine', level: 3 });
    await clickMove('f2', 'f3');
    await waitFor(() => window.mysl.ui.game.moves.length === 2, 'the engine reply to 1. f3');
    await clickMove('g2', 'g4');
    await waitFor(() => window.mysl.ui.game.result, 'the game to end', 30000);
    g = await game();
  }
  await waitFor((n) => document.querySelectorAll('#evalgraph circle').length === n, 'a point per move', 15000, g.moves.length);
  const last = await page.evaluate(() => { const ms = window.mysl.ui.evals.list; return ms[ms.length - 1]; });
  assert(last.mate !== null && last.score < 0, `the last point is Black's mate: ${JSON.stringify(last)}`);
  await page.locator('#evalgraph circle[data-ply="1"]').click({ force: true });
  await waitFor(() => window.mysl.ui.ply <= 2, 'navigation from the graph', 3000);
  await shot('eval-graph');
  await page.keyboard.press('End');
});

test('engine vs engine with a clock plays to a result', async () => {
  await newGame({ white: 'engine', black: 'engine', level: 1, minutes: 0.25, increment: 0 });
  await waitFor(() => window.mysl.ui.game.result, 'engine vs engine to finish', 60000);
  const g = await game();
  assert(g.moves.length > 4, `moves were played (${g.moves.length})`);
  await shot('engine-vs-engine');
});

test('every variant: a move on the board', async () => {
  const info = await page.evaluate(() => window.mysl.ui.info.variants.map((v) => v.name));
  assert(info.length === 10, `ten variants (${info.length})`);
  for (const variant of info) {
    await newGame({ variant });
    const g = await game();
    const mv = g.legal.find((m) => m.from && !m.promotion);
    assert(mv, `${variant}: a legal move`);
    await clickMove(mv.from, mv.to);
    await waitFor(() => window.mysl.ui.game.moves.length === 1, `${variant}: the move played`);
    const after = await game();
    assert(after.variant === variant && after.moves[0].uci === mv.uci, `${variant}: ${after.moves[0].uci} = ${mv.uci}`);
  }
});

test('recycle: a drop from the pocket', async () => {
  await newGame({ variant: 'recycle', fen: 'r3k3/8/8/8/8/8/8/4K3[Nq] w - - 0 1' });
  const slot = page.locator('#player-bottom .slot[data-role="knight"]');
  assert(await slot.locator('.count').textContent() === '1', 'one knight in hand');
  await slot.click();
  await clickSquare('d5');
  await waitFor(() => window.mysl.ui.game.moves.length === 1, 'the drop');
  const g = await game();
  assert(g.moves[0].san === 'N@d5', `drop SAN ${g.moves[0].san}`);
  assert(g.pockets.white.knight === 0, 'the pocket is empty');
  await shot('recycle-drop');
});

test('dice: the server rolls and shows the die', async () => {
  await newGame({ variant: 'dice' });
  const g = await game();
  const roll = await page.locator('#dice').getAttribute('data-roll');
  assert(['1', '2'].includes(roll) && Number(roll) === g.roll, `a roll of a face with moves (${roll})`);
  assert((await page.locator('#dice .die-text').textContent()).includes('White rolled'), 'roll text');
  const mv = g.legal[0];
  await clickMove(mv.from, mv.to);
  await waitFor(() => window.mysl.ui.game.moves.length === 1, 'the dice move');
  assert((await page.locator('#dice .die-text').textContent()).includes('Black rolled'), 'Black has a roll');
  await shot('dice');
});

test('three-check: checks are counted', async () => {
  await newGame({ variant: '3check', fen: 'r3k3/8/8/8/8/8/8/4K2R w K - 0 1' });
  await clickMove('h1', 'h8');
  await waitFor(() => window.mysl.ui.game.moves.length === 1, 'the check');
  const text = await page.locator('#player-bottom .checks').textContent();
  assert(text.includes('2 checks to give'), `White needs two more checks: '${text}'`);
  await shot('three-check');
});

test('promotion chooser', async () => {
  await newGame({ fen: '8/P6k/8/8/8/8/8/K7 w - - 0 1' });
  await clickMove('a7', 'a8');
  await page.waitForSelector('#promotion-dialog[open]');
  assert(await page.locator('#promotion-choices button').count() === 4, 'four choices');
  await shot('promotion');
  await page.click('#promotion-choices button[data-role="knight"]');
  await waitFor(() => window.mysl.ui.game.moves.length === 1, 'the promotion');
  assert((await game()).moves[0].san === 'a8=N', 'under-promotion to a knight');
});

test('analysis: lines appear, deepen, and a click plays the first move', async () => {
  await newGame({});
  await tab('analysis');
  await page.selectOption('#multipv', '3');
  await page.click('#btn-analyse');
  await waitFor(() => document.querySelectorAll('#analysis-lines li').length === 3, 'three analysis lines');
  const d1 = Number(await page.locator('#analysis-lines li').first().getAttribute('data-depth'));
  await waitFor((d) => Number(document.querySelector('#analysis-lines li').dataset.depth) > d, 'a deeper line', 20000, d1);
  assert((await page.locator('#evalbar .label').textContent()).length > 0, 'eval bar label');
  assert(/depth \d+/.test(await page.locator('#analysis-stats').textContent()), 'depth and speed shown');
  await shot('analysis');
  // Read the line and click it in one step of the page's event loop: a deeper line may arrive at any moment.
  const first = await page.evaluate(() => {
    const move = window.mysl.ui.analysis.lines[0].uci[0];
    document.querySelector('#analysis-lines li').click();
    return move;
  });
  await waitFor(() => window.mysl.ui.game.moves.length === 1, 'the line\'s move played');
  assert((await game()).moves[0].uci === first, 'the first move of the line');
  await waitFor(() => window.mysl.ui.analysis.fen === window.mysl.ui.game.moves[0].fen && document.querySelectorAll('#analysis-lines li').length === 3, 'analysis of the new position');
  await page.click('#btn-analyse');
});

test('explorer: book moves with statistics', async () => {
  await newGame({});
  await tab('explorer');
  await waitFor(() => document.querySelectorAll('#explorer-body tr').length >= 3, 'book moves');
  const rows = await page.locator('#explorer-body tr td:first-child').allTextContents();
  assert(rows.includes('e4') && rows.includes('d4'), `e4 and d4 in the book: ${rows}`);
  assert(await page.locator('#explorer-body .wdl').count() >= 3, 'W/D/L bars');
  await shot('explorer');
  await page.locator('#explorer-body tr', { hasText: 'e4' }).first().click();
  await waitFor(() => window.mysl.ui.game.moves.length === 1, 'the explorer move');
  await waitFor(() => [...document.querySelectorAll('#explorer-body tr td:first-child')].some((td) => ['c5', 'e5'].includes(td.textContent)), 'replies to 1. e4');
  assert((await page.locator('#explorer-head').textContent()).includes('King\'s Pawn') || true, 'opening name');
  await tab('analysis');
});

test('PGN export and import', async () => {
  await newGame({ variant: '3check' });
  for (const [a, b] of [['e2', 'e4'], ['e7', 'e5']]) {
    const n = await moveCount();
    await clickMove(a, b);
    await waitFor((k) => window.mysl.ui.game.moves.length === k + 1, 'a move', 5000, n);
  }
  await tab('pgn');
  await waitFor(() => document.getElementById('pgn-text').textContent.includes('[Variant "3check"]'), 'PGN with the Variant tag');
  const pgn = await page.locator('#pgn-text').textContent();
  await page.fill('#pgn-in', pgn.replace('1. e4 e5', '1. e4 e5 2. Bc4 Nc6 3. Bxf7+'));
  await page.click('#btn-import');
  await waitFor(() => window.mysl.ui.game.moves.length === 5, 'the imported game');
  assert((await game()).checks.white === 2, 'the import counted the check');
  await shot('pgn');
  await tab('analysis');
});

test('analyse the game: progress, the blunder marked on the graph and in the move list, accuracy, PGN with [%eval]', async () => {
  // 1. e4 e5 2. Nf3 Qg5?? 3. Nxg5: Black hangs the queen.
  await newGame({});
  await tab('pgn');
  await page.fill('#pgn-in', '1. e4 e5 2. Nf3 Qg5 3. Nxg5 *');
  await page.click('#btn-import');
  await waitFor(() => window.mysl.ui.game.moves.length === 5, 'the imported game');
  await tab('analysis');
  assert(await page.locator('#btn-analyse-game').textContent() === 'Analyse the game', 'the button');
  await page.selectOption('#ga-nodes', '20000'); // the quick setting: seconds even in a debug build
  await page.click('#btn-analyse-game');
  await waitFor(() => document.querySelectorAll('#evalgraph circle.blunder').length === 1, 'the blunder on the graph', 60000);
  const a = await page.evaluate(() => window.mysl.ui.gameAnalysis);
  assert(a.progress === 6, `a progress message per position (${a.progress})`);
  assert(a.plies[3].judgement === 'blunder' && a.plies[3].nag === '??', `2... Qg5 is a blunder: ${JSON.stringify(a.plies[3])}`);
  assert(await page.locator('#evalgraph circle.blunder').getAttribute('data-ply') === '4', 'the blunder point is ply 4');
  assert(await page.locator('#evalgraph circle').count() === 5, 'a point per move');
  assert(await page.locator('#moves .mv[data-ply="4"] .nag.blunder').textContent() === '??', 'the move list marks Qg5??');
  assert(await page.locator('#moves .nag').count() === a.plies.filter((p) => p.judgement !== 'good').length, 'only the judged moves are marked');
  assert(await page.locator('#ga-progress').isHidden(), 'the progress bar is gone');
  const black = await page.locator('#ga-summary .ga-player[data-color="black"] td').allTextContents();
  assert(black.length === 5 && /^\d+\.\d%$/.test(black[0]) && Number(black[1]) > 100 && black[4] === '1', `Black's figures: ${black}`);
  assert(await page.locator('#ga-summary .ga-player[data-color="white"] td.count.blunder').count() === 0, 'White has no blunder');
  // A click on the blunder's point goes there and shows the better move.
  await page.keyboard.press('Home');
  await page.locator('#evalgraph circle.blunder').click({ force: true });
  await waitFor(() => window.mysl.ui.ply === 4, 'navigation from the blunder point', 3000);
  await page.waitForTimeout(300); // the board's animation
  const note = await page.locator('#ga-move').textContent();
  assert(note.includes('Qg5??') && note.includes(`Blunder. ${a.plies[3].best.san} was best.`) && note.includes('Best line: 2…'), `the move's note: ${note}`);
  await shot('game-analysis');
  const low = await lowContrast('#game-analysis, #game-analysis *, #moves .nag, #evalgraph .muted, #evalgraph .key');
  assert(low.checked >= 8 && low.out.length === 0, `game analysis contrast (${low.checked} checked): ${low.out.join('; ')}`);
  // The export keeps the evaluations and the marks.
  await tab('pgn');
  await waitFor(() => document.getElementById('pgn-text').textContent.includes('[%eval'), 'the PGN with [%eval]');
  const pgn = (await page.locator('#pgn-text').textContent()).replace(/\n/g, ' ');
  assert(pgn.includes('2... Qg5?? { [%eval ') && pgn.includes('[BlackACPL "'), `marks in the PGN: ${pgn}`);
  await tab('analysis');
  // A long analysis is stopped by the button, and by a new game.
  await page.selectOption('#ga-nodes', '1000000');
  await page.click('#btn-analyse-game');
  await waitFor(() => /Analysing|starting/.test(document.getElementById('ga-status').textContent), 'the analysis running');
  assert(await page.locator('#btn-analyse-game').textContent() === 'Stop the game analysis', 'the button stops it');
  await page.click('#btn-analyse-game');
  await waitFor(() => document.getElementById('ga-status').textContent === 'stopped' && window.mysl.ui.gameAnalysisRun === null, 'stopped');
  await page.click('#btn-analyse-game');
  await waitFor(() => window.mysl.ui.gameAnalysisRun !== null, 'running again');
  await newGame({});
  await waitFor(() => window.mysl.ui.gameAnalysisRun === null && /another game/.test(document.getElementById('ga-status').textContent), 'stopped by the new game');
  assert(await page.locator('#btn-analyse-game').isDisabled(), 'nothing to analyse in a new game');
  await page.selectOption('#ga-nodes', '200000');
});

test('an oversized WebSocket message closes only that socket', async () => {
  const code = await page.evaluate(() => new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/api/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'stop', padding: 'x'.repeat(20000) }));
    ws.onclose = (e) => resolve(e.code);
    setTimeout(() => resolve('still open'), 5000);
  }));
  assert(code !== 'still open', `the server closed the socket (${code})`);
  await newGame({});
  await clickMove('g1', 'f3');
  await waitFor(() => window.mysl.ui.game.moves.length === 1, 'the page still works');
});

// Text whose contrast with its background is below 4.5:1 (WCAG AA), among the visible elements of `selector`.
async function lowContrast(selector) {
  return page.evaluate((sel) => {
    const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null; const v = m[1].split(',').map(Number); return { r: v[0], g: v[1], b: v[2], a: v.length > 3 ? v[3] : 1 }; };
    const lum = (c) => { const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
    const background = (el) => { for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c; } return { r: 255, g: 255, b: 255 }; };
    const out = [];
    let checked = 0;
    for (const el of document.querySelectorAll(sel)) {
      if (!el.childNodes.length || ![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      if (el.closest('[hidden]') || el.offsetParent === null) continue;
      const fg = parse(getComputedStyle(el).color);
      const bg = background(el);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      checked += 1;
      if (ratio < 4.5) out.push(`${el.tagName}.${el.className} '${el.textContent.trim().slice(0, 20)}' ${ratio.toFixed(2)}`);
    }
    return { out, checked };
  }, selector);
}

test('readable contrast (WCAG AA, 4.5:1) of the page\'s text', async () => {
  await newGame({});
  const low = await lowContrast('.topbar *, .player .name, .player .clock, .moves .mv, .moves .num, .moves .book, .controls button:not(:disabled), .tabs button, .panel, .panel *, .san-form label, .san-form button, .opening, .result');
  assert(low.checked >= 15, `text elements checked: ${low.checked}`);
  assert(low.out.length === 0, `low contrast: ${low.out.join('; ')}`);
});

test('a game the server no longer has is replaced by a new one', async () => {
  await newGame({});
  const id = await page.evaluate(() => { window.mysl.ui.game.id = 987654; return window.mysl.ui.game.id; });
  await clickMove('e2', 'e4');
  await waitFor((old) => window.mysl.ui.game.id !== old, 'a new game', 5000, id);
  assert((await page.locator('#san-error').textContent()).includes('no longer had that game'), 'the page says why');
  await expectErrorStatus(404);
});

test('tablebase panel: KRvK values equal mysl tb probe', async () => {
  if (!tbDir) { console.log('     (skipped: no E2E_TB_DIR)'); return; }
  const fen = '8/8/8/8/8/2k5/8/K6R w - - 0 1';
  const cli = JSON.parse(execFileSync(bin, ['tb', 'probe', '--dir', tbDir, '--fen', fen, '--json'], { encoding: 'utf8' }));
  await newGame({ fen });
  await tab('tablebase');
  await waitFor((n) => document.querySelectorAll('#tb-body tr').length === n, 'a row per legal move', 10000, cli.moves.length);
  const head = await page.locator('#tb-head').evaluate((e) => ({ ...e.dataset, text: e.textContent, cls: e.className }));
  assert(Number(head.wdl) === cli.wdl && Number(head.dtz) === cli.dtz && Number(head.dtm) === cli.dtm, `position ${JSON.stringify(head)} vs ${JSON.stringify(cli)}`);
  assert(head.cls.includes('tb-win') && head.text.includes('Win'), `shown as a win: ${head.text}`);
  const rows = await page.locator('#tb-body tr').evaluateAll((trs) => trs.map((t) => ({ uci: t.dataset.uci, wdl: Number(t.dataset.wdl), dtz: Number(t.dataset.dtz), dtm: Number(t.dataset.dtm), cls: t.className })));
  cli.moves.forEach((m, i) => {
    const r = rows[i];
    assert(r.uci === m.uci && r.wdl === m.wdl && r.dtz === m.dtz && r.dtm === m.dtm, `move ${i}: ${JSON.stringify(r)} vs ${JSON.stringify(m)}`);
    assert(r.cls.includes(m.wdl === 2 ? 'tb-win' : m.wdl === 0 ? 'tb-draw' : 'tb-'), `colour class of ${m.uci}: ${r.cls}`);
  });
  await shot('tablebase');
  const lowTb = await lowContrast('#tab-tablebase, #tab-tablebase *');
  assert(lowTb.checked >= 20 && lowTb.out.length === 0, `tablebase panel contrast (${lowTb.checked} checked): ${lowTb.out.join('; ')}`);
  await page.locator('#tb-body tr').first().click();
  await waitFor((u) => window.mysl.ui.game.moves.length === 1 && window.mysl.ui.game.moves[0].uci === u, 'the best move played', 5000, cli.moves[0].uci);
  await waitFor(() => document.getElementById('tb-head').textContent.startsWith('Black to move: Loss'), 'the values of the new position');
  // Black to move with the rook en prise: one drawing move (the capture), the others lose.
  const fen2 = '8/8/8/8/8/2k5/3R4/K7 b - - 0 1';
  const cli2 = JSON.parse(execFileSync(bin, ['tb', 'probe', '--dir', tbDir, '--fen', fen2, '--json'], { encoding: 'utf8' }));
  await newGame({ fen: fen2 });
  await waitFor((n) => document.querySelectorAll('#tb-body tr').length === n && document.getElementById('tb-head').textContent.startsWith('Black'), 'the rows for Black', 10000, cli2.moves.length);
  const rows2 = await page.locator('#tb-body tr').evaluateAll((trs) => trs.map((t) => ({ uci: t.dataset.uci, wdl: Number(t.dataset.wdl), dtz: Number(t.dataset.dtz), dtm: Number(t.dataset.dtm), cls: t.className, text: t.textContent })));
  cli2.moves.forEach((m, i) => {
    const r = rows2[i];
    assert(r.uci === m.uci && r.wdl === m.wdl && r.dtz === m.dtz && r.dtm === m.dtm, `black move ${i}: ${JSON.stringify(r)} vs ${JSON.stringify(m)}`);
  });
  assert(rows2[0].uci === 'c3d2' && rows2[0].cls.includes('tb-draw') && rows2[0].text.startsWith('Kxd2Draw'), `the capture draws and is listed first: ${JSON.stringify(rows2[0])}`);
  assert(rows2.slice(1).every((r) => r.cls.includes('tb-loss') && r.text.includes('Loss')), 'the other moves lose');
  assert(Number(await page.locator('#tb-head').getAttribute('data-wdl')) === cli2.wdl && cli2.wdl === 0, 'the position is a draw');
  await page.mouse.move(5, 5);
  await page.waitForTimeout(300); // the board's animation
  await shot('tablebase-black');
  // Outside the tables: a clear message.
  await newGame({});
  await waitFor(() => document.getElementById('tb-head').classList.contains('error'), 'an error for the start position');
  await expectErrorStatus(400);
  await tab('analysis');
});

test('tablebase panel: a variant\'s own tables (cylinder KQvK) equal mysl tb probe --variant', async () => {
  if (!tbDir) { console.log('     (skipped: no E2E_TB_DIR)'); return; }
  const fen = '8/8/8/3k4/8/8/8/KQ6 w - - 0 1';
  const cli = JSON.parse(execFileSync(bin, ['tb', 'probe', '--variant', 'cylinder', '--dir', tbDir, '--fen', fen, '--json'], { encoding: 'utf8' }));
  await newGame({ fen, variant: 'cylinder' });
  await tab('tablebase');
  await waitFor((n) => document.querySelectorAll('#tb-body tr').length === n, 'a row per legal move', 10000, cli.moves.length);
  const head = await page.locator('#tb-head').evaluate((e) => ({ ...e.dataset, text: e.textContent, cls: e.className }));
  assert(Number(head.dtm) === cli.dtm && cli.dtm > 0 && head.cls.includes('tb-win'), `position ${JSON.stringify(head)} vs ${JSON.stringify(cli)}`);
  const rows = await page.locator('#tb-body tr').evaluateAll((trs) => trs.map((t) => ({ uci: t.dataset.uci, dtm: Number(t.dataset.dtm), cls: t.className })));
  cli.moves.forEach((m, i) => {
    assert(rows[i].uci === m.uci && rows[i].dtm === m.dtm, `move ${i}: ${JSON.stringify(rows[i])} vs ${JSON.stringify(m)}`);
  });
  assert(rows.some((r) => r.cls.includes('tb-draw')), 'a queen left to the king draws');
  await shot('tablebase-variant');
  await newGame({});
  await waitFor(() => document.getElementById('tb-head').classList.contains('error'), 'an error for the start position');
  await expectErrorStatus(400);
  await tab('analysis');
});

test('solver: an h#2 of the problem set, solutions equal to Popeye\'s, replay and cancel', async () => {
  if (!fs.existsSync(problemSet)) { console.log(`     (skipped: ${problemSet} not found)`); return; }
  const entry = fs.readFileSync(problemSet, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.id === 'pyset-011');
  assert(entry && entry.stipulation === 'h#2', 'pyset-011 is an h#2');
  const reference = entry.solutions.filter((l) => /^\d/.test(l)).sort();
  await newGame({});
  await tab('solver');
  await page.fill('#solve-input', entry.popeye_input);
  await page.click('#btn-solve');
  await waitFor(() => document.getElementById('solve-status').dataset.status === 'done', 'the solve to finish', 30000);
  const listed = (await page.locator('#solve-lines li.solution .sol-text').allTextContents()).sort();
  assert(JSON.stringify(listed) === JSON.stringify(reference), `solutions ${JSON.stringify(listed)} vs Popeye ${JSON.stringify(reference)}`);
  assert((await page.locator('#solve-status').textContent()).includes(`${reference.length} solution lines`), 'the count is shown');
  // The classification marks: Popeye's two lines share no move, so they are two solutions; with one
  // intended by default the second is a cook (the marks come from the server's classification).
  const marks = async () => page.$$eval('#solve-lines li.solution', (lis) => lis.map((li) => ({
    text: li.querySelector('.sol-text').textContent, role: li.dataset.role, badge: (li.querySelector('.badge') || {}).textContent || '',
  })));
  let got = await marks();
  const roles = got.map((m) => m.role).sort();
  assert(roles.length === reference.length && roles.filter((r) => r === 'intended').length === 1
    && roles.filter((r) => r === 'cook').length === reference.length - 1, `one intended, the rest cooks: ${JSON.stringify(got)}`);
  assert(got.every((m) => m.badge.endsWith(m.role)), `a badge per solution: ${JSON.stringify(got)}`);
  assert((await page.locator('#solve-summary').textContent()) === `Classification: cooked: ${reference.length - 1} extra solution${reference.length === 2 ? '' : 's'}`, 'the verdict');
  assert(await page.locator('#solve-summary').getAttribute('data-verdict') === 'cooked', 'the verdict\'s class');
  await waitFor(() => window.mysl.ui.replay && window.mysl.ui.replay.start_fen.startsWith('8/8/7b/3n4/2pB4/2pk4/8/R1qNK3 b'), 'the problem\'s position on the board');
  await page.waitForTimeout(300); // the board's animation
  await shot('solver');
  // Replay the castling solution on the board, step by step.
  await page.locator('#solve-lines li.solution', { hasText: '0-0-0' }).click();
  await waitFor(() => window.mysl.ui.replay && !document.getElementById('replay-bar').hidden, 'the replay');
  const replay = await page.evaluate(() => window.mysl.ui.replay);
  assert(replay.moves.length === 4 && replay.moves[3].uci === 'e1c1', `four moves ending in O-O-O: ${replay.moves.map((m) => m.uci)}`);
  for (let i = 1; i <= 4; i += 1) await page.click('#nav-next');
  assert(await page.evaluate(() => window.mysl.ui.replay.ply) === 4, 'stepped to the mate');
  await waitFor(() => document.querySelectorAll('#board square.check').length === 1, 'the mate shown with its check', 3000);
  const kingOnC1 = await page.evaluate(() => { const p = document.querySelector('#board piece.white.king'); return !!p; });
  assert(kingOnC1, 'a white king on the board');
  await page.waitForTimeout(300); // the board's animation
  await shot('solver-replay');
  const lowSolver = await lowContrast('#tab-solver, #tab-solver *, .replay-bar, .replay-bar *');
  assert(lowSolver.checked >= 8 && lowSolver.out.length === 0, `solver panel contrast (${lowSolver.checked} checked): ${lowSolver.out.join('; ')}`);
  await page.click('#replay-exit');
  assert(await page.evaluate(() => window.mysl.ui.replay === null), 'back to the game');
  // The same problem with `Remark Intended 2` (Popeye reads it as a remark): sound, both intended.
  await page.fill('#solve-input', entry.popeye_input.replace('BeginProblem\n', `BeginProblem\nRemark Intended ${reference.length}\n`));
  await page.click('#btn-solve');
  await waitFor(() => document.getElementById('solve-status').dataset.status === 'done' && /sound/.test(document.getElementById('solve-summary').textContent), 'the solve to finish', 30000);
  got = await marks();
  assert(got.length === reference.length && got.every((m) => m.role === 'intended'), `all intended: ${JSON.stringify(got)}`);
  assert((await page.locator('#solve-summary').textContent()) === 'Classification: sound (C+)', 'sound');
  // pyset-057 (ser-h#5): Popeye prints some solutions in several move orders; the lines with the same
  // moves as an earlier one (read from Popeye's text) are marked as its move-order duals.
  const e57 = fs.readFileSync(problemSet, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.id === 'pyset-057');
  if (e57) {
    const moveSet = (l) => l.split(/\s+/).filter((t) => !['+', '#', '=', '=='].includes(t)).map((t) => t.replace(/^\d+\.+/, '')).sort().join(' ');
    await page.fill('#solve-input', e57.popeye_input);
    await page.click('#btn-solve');
    await waitFor(() => window.mysl.ui.solve && window.mysl.ui.solve.problem.stipulation === 'ser-h#5' && document.getElementById('solve-status').dataset.status === 'done', 'pyset-057 solved', 60000);
    got = await marks();
    const popeye = e57.solutions.filter((l) => /^\d/.test(l));
    assert(JSON.stringify(got.map((m) => m.text).sort()) === JSON.stringify([...popeye].sort()), 'pyset-057: Popeye\'s lines');
    const seen = new Map();
    let transposed = 0;
    for (const m of got) {
      const key = moveSet(m.text);
      if (seen.has(key)) {
        transposed += 1;
        assert(m.role === 'move-order' && m.badge.startsWith('move-order dual of'), `a move-order dual: ${JSON.stringify(m)}`);
      } else {
        seen.set(key, m);
        assert(m.role !== 'move-order', `not a move-order dual: ${JSON.stringify(m)}`);
      }
    }
    assert(transposed >= 1, 'pyset-057 has transpositions');
    await page.locator('#solve-summary').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById('solve-summary').scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
    await shot('solver-classification');
    // Fairy pieces (G2): the panel says the lines are not replayed; the last problem's board is gone.
    assert(/orthodox pieces only.*G2/.test(await page.locator('#solve-lines .board-note').first().textContent()), 'the fairy note');
    assert(await page.evaluate(() => window.mysl.ui.replay === null), 'no stale problem position');
  }
  // A Circe h#2 (pyset-061): a line with a rebirth replays with the reborn piece on its square.
  const e61 = fs.readFileSync(problemSet, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.id === 'pyset-061');
  if (e61) {
    await page.fill('#solve-input', e61.popeye_input);
    await page.click('#btn-solve');
    await waitFor(() => window.mysl.ui.solve && window.mysl.ui.solve.problem.titles !== undefined && window.mysl.ui.solve.problem.stipulation === 'h#2'
      && window.mysl.ui.solve.status === 'done' && (window.mysl.ui.solve.twins || []).length === 4, 'pyset-061 solved', 60000);
    const line = e61.solutions.find((l) => /^1\..*\[\+bQd8\]/.test(l));
    assert(line, 'pyset-061 has a line with a rebirth on d8');
    await page.locator('#solve-lines li.solution', { hasText: line }).first().click();
    await waitFor(() => window.mysl.ui.replay && window.mysl.ui.replay.moves.length === 4, 'the Circe replay');
    const k = (await page.evaluate(() => window.mysl.ui.replay.moves.map((m) => m.san))).findIndex((t) => t.includes('[+bQd8]'));
    assert(k >= 0, 'the rebirth move in the replay');
    for (let i = 0; i <= k; i += 1) await page.click('#nav-next');
    await waitFor(() => [...document.querySelectorAll('#board piece')].some((p) => p.cgKey === 'd8' && p.classList.contains('black') && p.classList.contains('queen')), 'the black queen reborn on d8', 3000);
    assert(await page.evaluate(() => document.querySelectorAll('#board square.check').length) === (/ \+$/.test((await page.evaluate(() => window.mysl.ui.replay.moves))[k].san) ? 1 : 0), 'check only after a checking move');
    await page.waitForTimeout(300);
    await shot('solver-circe-replay');
    await page.click('#replay-exit');
  }
  // A long problem, cancelled.
  await page.fill('#solve-input', 'BeginProblem\nStipulation ser-h#9\nPieces White Ke1 Qd1 Ra1 Rh1 Sb1 Black Ke8 Qd8 Ra8 Rh8 Pa7b7c7d7\nEndProblem\n');
  await page.click('#btn-solve');
  await waitFor(() => !document.getElementById('btn-solve-cancel').hidden, 'the cancel button');
  await waitFor(() => /nodes/.test(document.getElementById('solve-status').textContent), 'progress');
  await page.click('#btn-solve-cancel');
  await waitFor(() => document.getElementById('solve-status').dataset.status === 'cancelled', 'the solve cancelled', 10000);
  // A malformed problem: the error names line and column.
  await page.fill('#solve-input', 'BeginProblem\nStipulation h#2\nPieces White Kx9\nEndProblem\n');
  await page.click('#btn-solve');
  await waitFor(() => /line 3, column \d+/.test(document.getElementById('solve-error').textContent), 'the located error');
  await expectErrorStatus(400);
  await tab('analysis');
});

test('board editor: set up a position, play it and analyse it', async () => {
  await newGame({});
  await page.click('#btn-editor');
  await page.waitForSelector('#editor-dialog[open]');
  await page.click('#ed-clear');
  const place = async (color, role, sq) => {
    const selected = await page.evaluate(() => window.mysl.editor.selected);
    if (!selected || selected.color !== color || selected.role !== role) await page.click(`#editor-dialog .slot[data-color="${color}"][data-role="${role}"]`);
    const box = await page.locator('#editor-board cg-board').boundingBox();
    const file = sq.charCodeAt(0) - 97;
    const rank = sq.charCodeAt(1) - 49;
    await page.mouse.click(box.x + (file + 0.5) * box.width / 8, box.y + (7.5 - rank) * box.height / 8);
  };
  await place('white', 'king', 'g1');
  await place('white', 'rook', 'a1');
  await place('white', 'pawn', 'f2');
  await place('black', 'king', 'g8');
  await place('black', 'pawn', 'f7');
  await place('black', 'pawn', 'g7');
  await place('black', 'pawn', 'h7');
  await waitFor(() => document.getElementById('ed-fen').value.startsWith('6k1/5ppp/8/8/8/8/5P2/R5K1 w'), 'the FEN of the set-up position', 3000);
  await waitFor(() => document.getElementById('ed-status').textContent.startsWith('Legal'), 'the server check');
  assert(await page.locator('#ed-K').isDisabled(), 'no castling without the king on e1');
  await shot('editor');
  const lowEditor = await lowContrast('#editor-dialog, #editor-dialog *:not(coord)'); // coordinates: on the squares, as on the main board
  assert(lowEditor.checked >= 8 && lowEditor.out.length === 0, `editor contrast (${lowEditor.checked} checked): ${lowEditor.out.join('; ')}`);
  // An illegal set-up is refused with the rules core's reason.
  await place('white', 'king', 'a3');
  await waitFor(() => document.getElementById('ed-status').classList.contains('error'), 'two white kings refused');
  assert(await page.locator('#ed-play').isDisabled(), 'cannot play an illegal position');
  await expectErrorStatus(400);
  await page.click('#ed-bin');
  const box = await page.locator('#editor-board cg-board').boundingBox();
  await page.mouse.click(box.x + 0.5 * box.width / 8, box.y + 5.5 * box.height / 8);
  await waitFor(() => document.getElementById('ed-status').textContent.startsWith('Legal'), 'legal again after removing it');
  // Drag a queen from the palette onto d4, then drag it off the board: added, then removed.
  await page.click('#ed-bin');
  const slot = await page.locator('#editor-dialog .slot[data-color="white"][data-role="queen"]').boundingBox();
  await page.mouse.move(slot.x + slot.width / 2, slot.y + slot.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 3.5 * box.width / 8, box.y + 4.5 * box.height / 8, { steps: 6 });
  await page.mouse.up();
  await waitFor(() => document.getElementById('ed-fen').value.startsWith('6k1/5ppp/8/8/3Q4/8/5P2/R5K1 w'), 'the dragged queen on d4', 3000);
  await page.mouse.move(box.x + 3.5 * box.width / 8, box.y + 4.5 * box.height / 8);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + 120, box.y + 4.5 * box.height / 8, { steps: 6 });
  await page.mouse.up();
  await waitFor(() => document.getElementById('ed-fen').value.startsWith('6k1/5ppp/8/8/8/8/5P2/R5K1 w'), 'the queen dragged off the board', 3000);
  await page.selectOption('#ed-turn', 'w');
  await page.click('#ed-analyse');
  await waitFor(() => window.mysl.ui.game.start_fen.startsWith('6k1/5ppp/8/8/8/8/5P2/R5K1 w'), 'a game from the set-up position');
  await waitFor(() => document.querySelectorAll('#analysis-lines li').length >= 1, 'analysis of it');
  await waitFor(() => /Ra8/.test(document.getElementById('analysis-lines').textContent), 'the back-rank mate found', 20000);
  await page.click('#btn-analyse');
  await clickMove('a1', 'a8');
  await waitFor(() => window.mysl.ui.game.result, 'the mate played on the board');
  assert((await game()).result.reason.includes('checkmate'), 'checkmate');
  // The same position from the editor's FEN box to the solver: #1.
  await page.click('#btn-editor');
  await page.waitForSelector('#editor-dialog[open]');
  await page.fill('#ed-fen', '6k1/5ppp/8/8/8/8/5P2/R5K1 w - - 0 1');
  await page.locator('#ed-fen').press('Enter');
  await waitFor(() => document.getElementById('ed-status').textContent.startsWith('Legal') && !document.getElementById('ed-solve').disabled, 'the typed FEN checked');
  await page.click('#ed-solve');
  await waitFor(() => !document.getElementById('tab-solver').hidden, 'the solver tab');
  await page.fill('#solve-stip', '#1');
  await page.click('#btn-solve-board');
  await waitFor(() => document.getElementById('solve-status').dataset.status === 'done' && document.querySelectorAll('#solve-lines li.solution').length > 0, 'the #1 solved');
  const lines = await page.locator('#solve-lines li.solution .sol-text').allTextContents();
  assert(lines.length === 1 && lines[0] === '1.Ra1-a8 # !', `the key: ${lines}`);
  await tab('analysis');
});

test('phone width', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await newGame({ variant: 'recycle', fen: 'r3k3/8/8/8/8/8/8/4K3[Nq] w - - 0 1' });
  await page.waitForTimeout(300);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > 392) {
    const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 392).map((e) => `${e.tagName}#${e.id}.${e.className}`).slice(0, 8).join(' '));
    console.log(`wide elements: ${wide}`);
  }
  assert(width <= 392, `no sideways scrolling at 390 px (${width})`);
  const board = await page.locator('#board').boundingBox();
  assert(board.width > 300, `the board is large (${board.width})`);
  await clickMove('e1', 'e2');
  await waitFor(() => window.mysl.ui.game.moves.length === 1, 'a move at phone width');
  await shot('phone');
  // The new panels and the board editor fit too.
  for (const name of ['tablebase', 'solver']) {
    await tab(name);
    await page.waitForTimeout(150);
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(w <= 392, `no sideways scrolling with the ${name} tab at 390 px (${w})`);
  }
  await shot('phone-solver');
  await tab('analysis');
  await page.click('#btn-editor');
  await page.waitForSelector('#editor-dialog[open]');
  await page.waitForTimeout(150);
  const dialog = await page.locator('#editor-dialog').boundingBox();
  const editorBoard = await page.locator('#editor-board').boundingBox();
  assert(dialog.x >= 0 && dialog.x + dialog.width <= 391, `the editor fits at 390 px (${dialog.x}, ${dialog.width})`);
  assert(editorBoard.width > 250, `the editor board is usable (${editorBoard.width})`);
  await shot('phone-editor');
  await page.click('#ed-close');
  await page.setViewportSize({ width: 1280, height: 800 });
});

// ------------------------------------------------------------------ run
let failed = 0;
let ran = 0;
const started = Date.now();
try {
  await page.goto(url);
  await waitFor(() => window.mysl && window.mysl.ui.game, 'the page to load');
  for (const t of tests) {
    if (filter && !t.name.includes(filter)) continue;
    const t0 = Date.now();
    ran += 1;
    try {
      await t.fn();
      if (pageErrors.length) throw new Error(`page errors: ${pageErrors.splice(0).join('; ')}`);
      console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${t.name}: ${e.message}`);
      await shot(`FAILED-${t.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`).catch(() => {});
    }
  }
} finally {
  await context.close();
  server.kill();
  fs.rmSync(profile, { recursive: true, force: true });
}
console.log(`${ran - failed}/${ran} passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${out}`);
process.exit(failed ? 1 : 0);
