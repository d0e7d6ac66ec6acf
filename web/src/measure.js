// Figures of an analysis, drawn as SVG: the first player's share with its
// interval, the games' lengths, and the rules' coverage.

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// The first player's share of decided games, 0 to 1, with its interval.
export function shareFigure(report) {
  const fp = report.first_player;
  const w = 620, h = 70, x0 = 20, x1 = w - 20;
  const x = (v) => x0 + v * (x1 - x0);
  const svg = el('svg', { width: w, height: h, viewBox: `0 0 ${w} ${h}`, class: 'figure share' });
  svg.append(el('line', { x1: x0, y1: 40, x2: x1, y2: 40, stroke: '#6b4a22' }));
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(el('line', { x1: x(v), y1: 35, x2: x(v), y2: 45, stroke: '#6b4a22' }));
    svg.append(el('text', { x: x(v), y: 62, 'font-size': 11, 'text-anchor': 'middle' }, String(v)));
  }
  if (fp && fp.rate !== null && fp.rate !== undefined) {
    const [lo, hi] = fp.interval;
    svg.append(el('rect', { x: x(lo), y: 32, width: Math.max(x(hi) - x(lo), 1), height: 16, fill: '#e8a85c', opacity: 0.7, class: 'interval' }));
    svg.append(el('circle', { cx: x(fp.rate), cy: 40, r: 6, fill: '#e8590c', class: 'rate' }));
    svg.append(el('text', { x: x0, y: 18, 'font-size': 13 },
      `first player won ${fp.wins} of ${fp.decided} decided: ${(fp.rate * 100).toFixed(1)}% (95% ${(lo * 100).toFixed(1)}–${(hi * 100).toFixed(1)}%), ${fp.verdict}`));
  } else {
    svg.append(el('text', { x: x0, y: 18, 'font-size': 13 }, 'no game was decided'));
  }
  return svg;
}

// The lengths of the games, as bars.
export function lengthFigure(report) {
  const bins = report.length.histogram || [];
  const w = 620, h = 160, x0 = 30, y0 = 130, top = 20;
  const most = Math.max(1, ...bins.map((b) => b.games));
  const bw = bins.length ? (w - x0 - 10) / bins.length : 0;
  const svg = el('svg', { width: w, height: h, viewBox: `0 0 ${w} ${h}`, class: 'figure lengths' });
  const ended = report.games - report.results.unfinished - report.results.too_long;
  const of = ended < report.games ? ` (of the ${ended} games that ended)` : '';
  svg.append(el('text', { x: x0, y: 14, 'font-size': 13 },
    `turns a game${of}: mean ${report.length.mean.toFixed(1)}, median ${report.length.median}, 95% at most ${report.length.p95}`));
  bins.forEach((b, i) => {
    const bh = (b.games / most) * (y0 - top);
    const r = el('rect', { x: x0 + i * bw + 1, y: y0 - bh, width: Math.max(bw - 2, 1), height: bh, fill: '#8a5a2b', class: 'bar' });
    r.append(el('title', {}, `${b.from}–${b.to} turns: ${b.games} games`));
    svg.append(r);
    if (i % Math.ceil(bins.length / 6) === 0) {
      svg.append(el('text', { x: x0 + i * bw + bw / 2, y: y0 + 14, 'font-size': 10, 'text-anchor': 'middle' }, String(b.from)));
    }
  });
  svg.append(el('line', { x1: x0, y1: y0, x2: w - 10, y2: y0, stroke: '#6b4a22' }));
  return svg;
}

// The rules and ends, how often each fired; those that never did marked.
export function coverageTable(report) {
  const c = report.coverage;
  const t = document.createElement('table');
  t.className = 'coverage';
  t.innerHTML = '<tr><th>rule</th><th>moment</th><th>turns</th></tr>';
  const never = new Set(c.never_fired);
  const off = new Set(c.off);
  // (`never_fired` names each as `rule NAME` or `end NAME`.)
  const row = (kind, name, moment, n) => {
    const tr = document.createElement('tr');
    if (never.has(`${kind} ${name}`)) tr.className = 'never';
    if (off.has(name)) tr.className = 'off';
    for (const v of [name, moment, n]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.append(td);
    }
    t.append(tr);
  };
  for (const r of c.rules) row('rule', r.name, r.moment, r.turns);
  for (const e of c.ends) row('end', e.name, 'end', e.ended);
  return t;
}
