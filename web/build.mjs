// Builds the playground into ../src/serve/assets, the files `sow serve`
// embeds: app.js (this folder's src/, bundled and minified), app.css and
// index.html. The same sources and lockfile give the same bytes, which CI
// checks against the files committed.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

const out = new URL('../src/serve/assets/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ['src/main.js'],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  legalComments: 'none',
  outfile: `${out}app.js`,
});
await build({
  entryPoints: ['src/style.css'],
  bundle: true,
  minify: true,
  outfile: `${out}app.css`,
});
copyFileSync('index.html', `${out}index.html`);
