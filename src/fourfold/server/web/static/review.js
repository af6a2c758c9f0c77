// The review of a finished game on the replay page (issue 32; server/review): the value
// chart over the whole game (an SVG drawn here, no charting library), a mark on each
// move, a jump to the first mistake, the value of the position shown with its best
// moves, and the best line after a mistake shown on the board. A game with its own
// review counting actions (kind "actions": review-actions.js) gets its chart of the
// fewest actions left, a jump to the costliest action and the shortest solution from
// the position shown.
import {announce, api, h} from './util.js';
import {fit} from './layout.js';
import {actionsCaption, actionsChart, actionsDetail, actionsJump, actionsMark, actionsStatus, svg} from './review-actions.js';

//: what each label shows beside a move (the glyphs of chess annotation)
const GLYPH = {best: '✓', good: '', inaccuracy: '?!', mistake: '?', blunder: '??'};
const W = 320;
const H = 120;
const PAD = 8;
//: colours from the app's palette (inline: the styles of this panel stay in this file)
const COLOUR = {best: 'var(--good)', good: 'var(--good)', inaccuracy: '#7a4f00', mistake: 'var(--bad)', blunder: 'var(--bad)'};

export function valueText(j) {
  if (!j || j.value === 'unknown') return 'unknown';
  const where = j.value !== 'draw' && j.distance !== null && j.distance !== undefined ? ` in ${j.distance}` : '';
  const estimate = typeof j.score === 'number' ? ` (estimate: expected score ${Math.round(100 * j.score)}%)` : ' (estimate)';
  return `${j.value}${where}${j.exact === false ? estimate : ''}`;
}

// Whether a ply's label rests on an estimate (reviews stored before the flag: its source)
function estimated(p) {
  return p.estimate === undefined ? p.source === 'estimate' : Boolean(p.estimate);
}

// A judgement for the player who moved as a height from the first player's side:
// +1 won at once, 0 a draw, -1 lost at once; the longer the way, the nearer the middle
// (GamesmanUni's value history). An estimate sits where its expected score puts it.
function height(j, flip, longest) {
  if (!j || j.value === 'unknown') return null;
  let y;
  if (j.exact === false && typeof j.score === 'number') y = 2 * j.score - 1;
  else if (j.value === 'draw') y = 0;
  else {
    const far = j.distance === null || j.distance === undefined ? longest : j.distance;
    y = (j.value === 'win' ? 1 : -1) * (1 - 0.6 * far / Math.max(1, longest));
  }
  return flip ? -y : y;
}

export function reviewPanel({id, token, go, board, nameOf = () => null}) {
  let alive = true;
  let timer = null;
  let body = null;
  let here = 0;
  // while a line is on the board: {at (the position it belongs to), from (the review's
  // ply whose position it starts from), moves, step, name, start (what step 0 shows)}
  let line = null;
  let cursorX = null;
  const ready = [];
  const actions = () => body && body.kind === 'actions';
  const head = h('h2', {class: 'small-h', id: 'review-h'}, 'Review');
  const status = h('p', {id: 'review-status', 'aria-live': 'polite'}, 'Loading the review…');
  const chart = h('div', {class: 'review-chart', id: 'review-chart'});
  const jump = h('div', {class: 'review-jump', id: 'review-jump'});
  const detail = h('div', {class: 'review-detail', id: 'review-detail'});
  const node = h('section', {class: 'review', id: 'review', 'aria-labelledby': 'review-h'}, head, status, chart, jump, detail);

  async function load(tries) {
    const r = await api(`/api/tables/${id}/review`, {token});
    if (!alive) return;
    if (r.status === 202 && tries < 600) {
      status.textContent = `The solver is reviewing the game: ${r.data.done} of ${r.data.total} moves…`;
      timer = window.setTimeout(() => load(tries + 1), 1000);
      return;
    }
    if ((r.status === 429 || r.status === 503) && tries < 600) {  // busy: ask again later
      status.textContent = `Waiting for the solver: ${r.error}.`;
      timer = window.setTimeout(() => load(tries + 1), 10000);
      return;
    }
    if (r.status === 409) { status.textContent = 'The review opens when the game is over.'; return; }
    if (!r.ok) { status.textContent = `No review: ${r.error}.`; return; }
    if (r.data.status !== 'ready') { status.textContent = `No review: ${r.data.reason}.`; return; }
    body = r.data;
    if (actions()) {
      status.textContent = actionsStatus(body);
      const drawn = actionsChart(body, go);
      cursorX = drawn.x;
      chart.replaceChildren(...drawn.node);
      jump.replaceChildren(actionsJump(body, go, announce));
      show(here);
      for (const f of ready) f();
      return;
    }
    const exact = body.plies.filter((p) => p.source === 'solver' && !estimated(p)).length;
    const n = body.plies.length;
    status.textContent = exact === n ? `Every move valued exactly by the solver, for the player who made it.`
      : exact === 0 ? `No solver answers this game: every move is estimated for the player who made it by a bounded search (the strongest bot's), never exact. Estimates are marked (est.), in italics, and hollow on the chart.`
        : `Every move valued for the player who made it: ${exact} of ${n} exactly by the solver, the others estimated by a bounded search (marked (est.), in italics, and hollow on the chart).`;
    drawChart();
    drawJump();
    show(here);
    for (const f of ready) f();
  }

  function drawChart() {
    const plies = body.plies;
    const n = plies.length;
    const longest = Math.max(1, ...plies.flatMap((p) => [p.before.distance || 0, p.after.distance || 0]));
    const first = body.players[0];
    const points = [];
    plies.forEach((p, i) => points.push({i, j: p.before, flip: p.player !== first}));
    if (n) points.push({i: n, j: plies[n - 1].after, flip: plies[n - 1].player !== first});
    const x = (i) => PAD + (W - 2 * PAD) * (n ? i / n : 0);
    const y = (v) => H / 2 - (H / 2 - PAD) * v;
    const root = svg('svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'review-chart-t', class: 'value-chart',
      style: 'width: 100%; height: auto; max-width: 32rem; display: block; cursor: pointer; border: 1px solid var(--line)'});
    const firstName = first;
    root.append(svg('title', {id: 'review-chart-t'}, `Value chart for ${firstName}: won at the top, drawn in the middle, lost at the bottom; the nearer the end, the further out.`));
    root.append(svg('rect', {x: 0, y: 0, width: W, height: H / 2, class: 'zone-win', style: 'fill: #e3f1e4'}));
    root.append(svg('rect', {x: 0, y: H / 2, width: W, height: H / 2, class: 'zone-loss', style: 'fill: #f7e1e1'}));
    root.append(svg('line', {x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'mid', style: 'stroke: #b9a77a; stroke-dasharray: 4 3'}));
    const known = points.map((p) => ({...p, v: height(p.j, p.flip, longest)})).filter((p) => p.v !== null);
    if (known.length > 1) {
      root.append(svg('polyline', {points: known.map((p) => `${x(p.i).toFixed(1)},${y(p.v).toFixed(1)}`).join(' '), class: 'trace', style: 'fill: none; stroke: var(--ink); stroke-width: 1.5'}));
    }
    for (const p of known) {
      const label = p.i >= 1 ? plies[p.i - 1].label : null;
      const bad = label === 'mistake' || label === 'blunder';
      root.append(svg('circle', {cx: x(p.i).toFixed(1), cy: y(p.v).toFixed(1), r: bad ? 4 : 2.5,
        class: `${p.j.exact === false ? 'estimate' : 'exact'}${bad ? ` ${label}` : ''}`, 'data-ply': p.i,
        style: `stroke: ${bad ? 'var(--bad)' : 'var(--ink)'}; stroke-width: 1.5; fill: ${p.j.exact === false ? '#fff' : bad ? 'var(--bad)' : 'var(--ink)'}`}));
    }
    cursorX = x;
    const cursor = svg('line', {x1: x(here), x2: x(here), y1: 0, y2: H, class: 'cursor', id: 'review-cursor', style: 'stroke: var(--focus); stroke-width: 2'});
    root.append(cursor);
    root.addEventListener('click', (event) => {
      const box = root.getBoundingClientRect();
      const at = ((event.clientX - box.left) / box.width) * W;
      go(Math.max(0, Math.min(n, Math.round(((at - PAD) / (W - 2 * PAD)) * n))));
    });
    chart.replaceChildren(root, h('p', {class: 'muted small'}, `Top: ${firstName} winning · middle: drawn · bottom: ${firstName} losing. Filled dots are exact, hollow ones estimates; red marks a mistake. Click the chart to go to a move.`));
  }

  function firstMistake() {
    return body && body.first_mistake ? body.plies[body.first_mistake - 1] : null;
  }

  function drawJump() {
    const p = firstMistake();
    if (!p) { jump.replaceChildren(h('p', {id: 'no-mistake'}, 'No mistake: no move changed the value of the game.')); return; }
    jump.replaceChildren(h('button', {type: 'button', id: 'first-mistake', class: 'primary', onclick: () => { go(p.ply); announce(`Move ${p.ply}, ${p.move}: a ${p.label}`); }},
      `Go to the first mistake: move ${p.ply}, ${p.move} (${p.label}${estimated(p) ? ', estimated' : ''})`));
  }

  function mark(i) {
    if (!body || i < 1 || !body.plies[i - 1]) return null;
    if (actions()) return actionsMark(body, i);
    const p = body.plies[i - 1];
    if (!p.label) return null;
    const estimate = estimated(p) ? ' (est.)' : '';
    return {label: p.label, colour: COLOUR[p.label], estimate: estimated(p), text: ` ${GLYPH[p.label]}${GLYPH[p.label] ? ' ' : ''}${p.label}${estimate}`};
  }

  // The board steps through the line on show: a mistake's best line, or the shortest
  // solution from the position shown.
  async function drawLine() {
    const shown = line;
    const r = await api(`/api/tables/${id}/review/picture?ply=${shown.from}&step=${shown.step}`, {token, text: true});
    if (!alive || line !== shown) return;
    if (r.ok) {
      board.innerHTML = r.data;
      const s = board.querySelector('svg');
      if (s) { s.removeAttribute('width'); s.removeAttribute('height'); }
      fit(board);  // the line's pictures in the layout the replay shows (layout.js)
    }
    const moves = shown.moves.map((m, k) => (k < shown.step ? h('strong', {}, m) : h('span', {}, m)));
    detail.querySelector('#line-steps')?.replaceChildren(...moves.flatMap((m, k) => (k ? [' ', m] : [m])));
    const where = detail.querySelector('#line-where');
    if (where) where.textContent = shown.step ? `After ${shown.step} of ${shown.moves.length} moves of the ${shown.name}.` : shown.start;
  }

  function lineControls() {
    const step = (d) => {
      line.step = Math.max(0, Math.min(line.moves.length, line.step + d));
      drawLine();
    };
    const title = line.name.charAt(0).toUpperCase() + line.name.slice(1);
    return h('div', {class: 'best-line', id: 'best-line'},
      h('p', {}, `${title}: `, h('span', {id: 'line-steps'})),
      h('p', {id: 'line-where', 'aria-live': 'polite'}),
      h('div', {class: 'buttons'},
        h('button', {type: 'button', id: 'line-prev', 'aria-label': `Back one move of the ${line.name}`, onclick: () => step(-1)}, '‹'),
        h('button', {type: 'button', id: 'line-next', 'aria-label': `One more move of the ${line.name}`, onclick: () => step(1)}, '›'),
        h('button', {type: 'button', id: 'line-close', onclick: () => { line = null; go(here); }}, 'Back to the game')));
  }

  // The line offered at this position, as a button or, while on show, its controls.
  function offer(parts, found, label) {
    if (!found) return;
    if (line) { parts.push(lineControls()); return; }
    parts.push(h('button', {type: 'button', id: 'show-line', onclick: () => {
      line = {at: here, step: 1, ...found};
      show(here);
      drawLine();
    }}, label));
  }

  // The position shown (before the next move): its value for the player to move and its
  // best moves, or that the game is over.
  function position(ply) {
    const next = body.plies[ply];
    if (!next) return h('p', {id: 'position-value'}, 'Game over.');
    const best = next.best.length ? ` Best: ${next.best.slice(0, 8).join(', ')}${next.best.length > 8 ? ', …' : ''}.` : '';
    return h('p', {id: 'position-value'}, `${next.player} to move: ${valueText(next.before)}.${best}`);
  }

  function show(ply) {
    here = ply;
    const cursor = chart.querySelector('#review-cursor');
    if (cursor && body && cursorX) {
      const cx = cursorX(ply);
      cursor.setAttribute('x1', cx); cursor.setAttribute('x2', cx);
    }
    if (!body) return;
    if (line && line.at !== ply) line = null;
    if (actions()) {
      const {parts, line: found} = actionsDetail(body, ply);
      offer(parts, found, 'Show the shortest solution from here on the board');
      detail.replaceChildren(...parts);
      return;
    }
    const p = ply >= 1 ? body.plies[ply - 1] : null;
    const parts = [];
    if (p) {
      parts.push(h('p', {id: 'review-move'}, h('strong', {}, `Move ${p.ply}, ${p.move} by ${nameOf(body.players.indexOf(p.player)) || p.player}: `),
        h('span', {class: `mark ${p.label || ''}`, style: p.label ? `color: ${COLOUR[p.label]}; font-weight: 700` : null}, p.label || 'not valued'), estimated(p) ? ' (estimate)' : ''),
      h('p', {}, `Before: ${valueText(p.before)}. After: ${valueText(p.after)}.`));
      if (p.best.length && p.label !== 'best') parts.push(h('p', {}, `Best instead: ${p.best.slice(0, 6).join(', ')}${p.best.length > 6 ? ', …' : ''}`));
    }
    parts.push(position(ply));
    if (p && p.line && p.line.length) {
      offer(parts, {from: p.ply, moves: p.line, name: 'best line', start: 'The position before the mistake.'}, 'Show the best line on the board');
    }
    detail.replaceChildren(...parts);
  }

  function caption() {
    if (actions()) return actionsCaption();
    return body ? 'Moves (marks for the player who moved)' : 'Moves';
  }

  load(0);
  return {
    node,
    mark,
    show,
    caption,
    onReady: (f) => { ready.push(f); if (body) f(); },
    stop: () => { alive = false; if (timer) window.clearTimeout(timer); },
  };
}
