// The board: the server's SVG (`sow draw`'s look), every pit a group
// `data-pit` / `data-seeds`, every store `data-store`; a turn's steps
// played on it seed by seed.

export function drawBoard(host, svg) {
  host.innerHTML = svg;
  // Every pit reachable by the keyboard too (Tab, then Enter).
  for (const g of host.querySelectorAll('[data-pit]')) {
    g.setAttribute('tabindex', '0');
    g.setAttribute('role', 'button');
    g.setAttribute('aria-label', `pit ${g.dataset.pit}, ${g.dataset.seeds} seeds`);
  }
}

// The group of a cell a step names: a pit by label, else a store by player.
function cellGroup(host, name) {
  const q = (attr) => host.querySelector(`[${attr}="${CSS.escape(name)}"]`);
  return q('data-pit') || q('data-store');
}

function setSeeds(group, n) {
  if (!group) return;
  group.setAttribute('data-seeds', String(n));
  const t = group.querySelector('.seeds');
  if (t) t.textContent = String(n);
}

// Shows one step's seeds on the board drawn before the turn.
export function showStep(host, step) {
  for (const [label, n] of Object.entries(step.pits)) setSeeds(cellGroup(host, label), n);
  for (const [player, n] of Object.entries(step.stores)) {
    setSeeds(host.querySelector(`[data-store="${CSS.escape(player)}"]`), n);
  }
  for (const g of host.querySelectorAll('.active')) g.classList.remove('active');
  for (const name of step.at) {
    const g = cellGroup(host, name);
    if (g) g.classList.add('active', step.kind);
  }
}

// Marks the pits a turn's rules took seeds from.
export function markCaptures(host, steps) {
  if (!steps) return;
  for (const f of steps.frames) {
    if (f.kind !== 'rule') continue;
    for (const name of f.at) {
      const g = cellGroup(host, name);
      if (g) g.classList.add('captured');
    }
  }
}
