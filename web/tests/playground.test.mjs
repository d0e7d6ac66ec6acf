// The playground in a browser (Debian's Chromium, driven by Playwright),
// against a `sow serve` of the project's build: a game of Kalah against
// the computer played by clicks, a Bao turn with its direction chosen, a
// broken variant's diagnostic and its fix, an analysis and its figures, a
// record and a position saved and loaded again; no test may leave an
// error in the browser's console. The README's picture is taken here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, startBrowser, open } from './harness.mjs';

let server;
let browser;
const root = new URL('../../', import.meta.url).pathname;

before(async () => {
  server = await startServer();
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

const awaiting = (page, what) =>
  page.waitForSelector(`body[data-awaiting="${what}"]`, { timeout: 60000 });
const moveCount = (page) => page.$$eval('#moves li', (l) => l.length);
const seeds = (page) =>
  page.$$eval('#board [data-pit], #board [data-store]', (gs) => gs.map((g) => `${g.dataset.pit || g.dataset.store}=${g.dataset.seeds}`));

async function clickPit(page, label) {
  const before = await moveCount(page);
  await page.click(`#board [data-pit="${label}"]`);
  await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before);
}

// A page of the playground with people at every seat, each sowing shown
// at once, waiting for the first move.
async function humans(path) {
  const opened = await open(browser, server.url, path);
  const { page } = opened;
  await page.selectOption('#speed', '0');
  for (const seat of await page.$$eval('[data-seat]', (s) => s.map((x) => x.dataset.seat))) {
    await page.selectOption(`[data-seat="${seat}"]`, 'human');
  }
  await awaiting(page, 'human');
  return opened;
}

// Replaces the editor's text as a person would: select all, type.
async function typeVariant(page, text) {
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

test('a whole game of Kalah against the computer, played by clicks', async () => {
  const { page, errors, context } = await open(browser, server.url, '/?variant=kalah');
  await page.selectOption('#speed', '0');
  await page.fill('#level', '1');
  assert.equal(await page.inputValue('[data-seat="north"]'), 'mcts');
  let clicks = 0;
  for (let i = 0; i < 300; i++) {
    await page.waitForSelector('body[data-awaiting="human"], body[data-awaiting="over"]', { timeout: 60000 });
    if ((await page.getAttribute('body', 'data-awaiting')) === 'over') break;
    const mine = await page.$$eval('#board [data-pit]', (gs) =>
      gs.filter((g) => /^[A-F]$/.test(g.dataset.pit) && Number(g.dataset.seeds) > 0).map((g) => g.dataset.pit));
    assert.ok(mine.length > 0, 'south has a move');
    await clickPit(page, mine[i % mine.length]);
    clicks++;
  }
  const status = await page.textContent('#status');
  assert.match(status, /^game over: (south wins|north wins|a draw) \(.+\); south \d+, north \d+$/);
  assert.ok(clicks >= 3, `${clicks} moves clicked`);
  const moves = await moveCount(page);
  assert.ok(moves > clicks, 'the computer answered');
  // The seeds on the board are the game's 48.
  const total = (await seeds(page)).reduce((s, x) => s + Number(x.split('=')[1]), 0);
  assert.equal(total, 48);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a sowing is shown seed by seed, and undo and redo walk the moves', async () => {
  const { page, errors, context } = await open(browser, server.url, '/?variant=kalah');
  await page.selectOption('[data-seat="north"]', 'human');
  await awaiting(page, 'human');
  await page.click('#board [data-pit="C"]');
  // During the sowing a pit is marked as the seed falls.
  await page.waitForSelector('#board .active.sow');
  const mid = await page.getAttribute('#board [data-store="south"]', 'data-seeds');
  await awaiting(page, 'human');
  assert.equal(mid, '0', 'seen before the last seed reached the store');
  assert.equal(await page.getAttribute('#board [data-store="south"]', 'data-seeds'), '1');
  assert.equal(await page.getAttribute('#board [data-pit="C"]', 'data-seeds'), '0');
  await page.selectOption('#speed', '0');
  await clickPit(page, 'A');
  await awaiting(page, 'human');
  await page.click('#undo');
  await awaiting(page, 'human');
  assert.equal(await page.getAttribute('#board [data-pit="A"]', 'data-seeds'), '4');
  await page.click('#redo');
  await awaiting(page, 'human');
  assert.equal(await page.getAttribute('#board [data-pit="A"]', 'data-seeds'), '0');
  // A pit is played from the keyboard too.
  await page.focus('#board [data-pit="d"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 3);
  assert.equal(await page.textContent('#moves li:last-child'), 'd');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a Bao turn with its direction chosen at the pit', async () => {
  const { page, errors, context } = await humans('/?variant=bao-la-kiswahili');
  const before = await seeds(page);
  await page.click('#board [data-pit="A6"]');
  const offered = await page.$$eval('#choice:not([hidden]) button', (b) => b.map((x) => x.dataset.move));
  assert.deepEqual(offered.sort(), ['A6L', 'A6R']);
  await page.click('#choice button[data-move="A6R"]');
  await awaiting(page, 'human');
  assert.deepEqual(await page.$$eval('#moves li', (l) => l.map((x) => x.textContent)), ['A6R']);
  assert.notDeepEqual(await seeds(page), before);
  assert.match(await page.textContent('#status'), /^north to move/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a broken variant shows its diagnostic at its line, and the fix applies', async () => {
  const { page, errors, context } = await open(browser, server.url, '/?variant=kalah');
  const kalah = readFileSync(`${root}variants/kalah.sow`, 'utf8');
  const broken = kalah.replace('seeds(opposite(last)) > 0', 'seeds(oposite(last)) > 0');
  assert.notEqual(broken, kalah);
  const line = broken.split('\n').findIndex((l) => l.includes('oposite')) + 1;
  await typeVariant(page, broken);
  const item = await page.waitForSelector('#diagnostics li');
  assert.match(await item.textContent(), new RegExp(`^line ${line}, column \\d+: unknown function \`oposite\``));
  assert.match(await page.textContent('#check-state'), /1 problem/);
  // Underlined where it points; its "did you mean" offered as a fix.
  const mark = await page.waitForSelector('.cm-lintRange-error');
  assert.equal(await mark.textContent(), 'oposite');
  await mark.hover();
  const fix = await page.waitForSelector('.cm-tooltip-lint button.cm-diagnosticAction');
  assert.equal(await fix.textContent(), 'use opposite');
  await fix.click();
  await page.waitForSelector('#check-state.ok');
  assert.match(await page.textContent('#check-state'), /kalah loads/);
  assert.equal(await page.$$eval('#diagnostics li', (l) => l.length), 0);
  const text = await page.evaluate(() => document.querySelector('#editor .cm-content').innerText);
  assert.ok(text.includes('seeds(opposite(last)) > 0'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('an analysis runs with progress, draws its figures and marks the rules that never fired', async () => {
  const { page, errors, context } = await open(browser, server.url, '/?variant=kalah');
  const kalah = readFileSync(`${root}variants/kalah.sow`, 'utf8');
  // A rule no game can fire: no pit of Kalah ever holds 49 seeds.
  const text = `${kalah}\nrule never_fires at land when seeds(last) > 48 {\n  again\n}\n`;
  await typeVariant(page, text);
  await page.waitForSelector('#check-state.ok');
  // A game not begun follows the text: the composed file shows the rule.
  await page.waitForFunction(() => document.querySelector('#show').textContent.includes('never_fires'));
  await page.fill('#games', '60');
  await page.click('#analyze');
  await page.waitForSelector('#figures table.coverage', { timeout: 120000 });
  assert.equal(await page.getAttribute('#progress', 'value'), '60');
  assert.match(await page.textContent('#figures .summary'), /^60 games: south \d+, north \d+, draw \d+/);
  assert.match(await page.textContent('#figures svg.share'), /first player won \d+ of \d+ decided/);
  assert.ok((await page.$$('#figures svg.lengths rect.bar')).length > 0);
  assert.deepEqual(await page.$$eval('table.coverage tr.never td:first-child', (t) => t.map((x) => x.textContent)), ['never_fires']);
  const marked = await page.$$eval('.cm-never-fired', (l) => l.map((x) => x.textContent));
  assert.equal(marked.length, 1);
  assert.match(marked[0], /^rule never_fires/);
  // The README's picture: a game under way beside the figures.
  await page.selectOption('#speed', '0');
  await page.selectOption('[data-seat="north"]', 'human');
  for (const pit of ['C', 'F', 'b']) {
    await awaiting(page, 'human');
    await clickPit(page, pit);
  }
  await awaiting(page, 'human');
  await page.screenshot({ path: `${root}docs/book/src/playground.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a record and a position saved and loaded again', async () => {
  const { page, errors, context } = await humans('/?variant=kalah');
  for (const pit of ['C', 'A', 'b']) {
    await clickPit(page, pit);
    await awaiting(page, 'human');
  }
  const played = await page.$$eval('#moves li', (l) => l.map((x) => x.textContent));
  const board = await seeds(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-record')]);
  const record = readFileSync(await download.path(), 'utf8');
  assert.match(record, /^variant = "kalah"$/m);
  assert.match(record, /^1\. south C$/m);
  const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#save-position')]);
  const position = readFileSync(await saved.path(), 'utf8');
  assert.equal(JSON.parse(position).variant, 'kalah');

  await page.click('#new');
  await awaiting(page, 'human');
  assert.equal(await moveCount(page), 0);
  await page.setInputFiles('#load-record', { name: 'game.toml', mimeType: 'text/plain', buffer: Buffer.from(record) });
  await page.waitForFunction((n) => document.querySelectorAll('#moves li').length === n, played.length);
  await awaiting(page, 'human');
  assert.deepEqual(await page.$$eval('#moves li', (l) => l.map((x) => x.textContent)), played);
  assert.deepEqual(await seeds(page), board);

  await page.click('#new');
  await awaiting(page, 'human');
  await page.setInputFiles('#load-position', { name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(position) });
  await page.waitForFunction(() => /position loaded/.test(document.querySelector('#message').textContent));
  await awaiting(page, 'human');
  assert.deepEqual(await seeds(page), board);
  assert.deepEqual(errors, []);
  await context.close();
});

test('one move a click, and a new game or an undo stops the move under way', async () => {
  const { page, errors, context } = await humans('/?variant=oware-abapa');
  // A double click plays one move.
  await page.dblclick('#board [data-pit="C"]');
  await awaiting(page, 'human');
  assert.deepEqual(await page.$$eval('#moves li', (l) => l.map((x) => x.textContent)), ['C']);
  // A new game during a sowing shown seed by seed: the new game's board
  // stays as it is.
  await page.selectOption('#speed', '150');
  await page.click('#board [data-pit="d"]');
  await page.waitForSelector('#board .active.sow');
  await page.click('#new');
  await awaiting(page, 'human');
  await new Promise((r) => setTimeout(r, 800));
  assert.equal(await moveCount(page), 0);
  const all = await page.$$eval('#board [data-pit]', (gs) => gs.map((g) => g.dataset.seeds));
  assert.deepEqual(all, Array(12).fill('4'));
  // The computer moving first: undone back to the start, it moves again.
  await page.selectOption('#speed', '0');
  await page.fill('#level', '1');
  await page.selectOption('[data-seat="south"]', 'mcts');
  await awaiting(page, 'human');
  assert.equal(await moveCount(page), 1);
  await page.click('#undo');
  await awaiting(page, 'human');
  assert.equal(await moveCount(page), 1);
  assert.match(await page.textContent('#status'), /^north to move \(human\)$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('who moves first is chosen where the rules leave it open', async () => {
  const { page, errors, context } = await humans('/?variant=dakon');
  assert.match(await page.textContent('#status'), /^south to move/);
  await page.selectOption('#first', 'north');
  await page.waitForFunction(() => /^north to move/.test(document.querySelector('#status').textContent));
  assert.equal(await moveCount(page), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
