// What the browser tests share: a `sow serve` of the project's own build
// (SOW_BIN, else target/debug/sow), Debian's Chromium driven by
// Playwright, and every error the page logs, which fails the test.
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';

const root = new URL('../../', import.meta.url).pathname;

export async function startServer() {
  const bin = process.env.SOW_BIN || `${root}target/debug/sow`;
  const child = spawn(bin, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (d) => {
      seen += d;
      const m = seen.match(/http:\/\/[^\s/]+\//);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`sow serve exited (${code}): ${seen}`)));
    setTimeout(() => reject(new Error(`sow serve did not start: ${seen}`)), 20000);
  });
  return { url, stop: () => child.kill('SIGINT') };
}

export async function startBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

// A page of the playground at `path`, ready (the variant loaded), and the
// errors it logs.
export async function open(browser, url, path = '/') {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + path.replace(/^\//, ''));
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors, context };
}
