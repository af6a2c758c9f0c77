// The review of a cooperative game whose review counts actions (kind "actions": a
// game's own review, docs/review.md), for the replay page's review panel (review.js):
// the chart of the fewest actions left, the mark on each action, the jump to the
// costliest one and what the team could know before and after each action. Generic:
// everything comes from the review's JSON.
import {h} from './util.js';

const SVG = 'http://www.w3.org/2000/svg';
const W = 320;
const H = 120;
const PAD = 10;
const COLOUR = {best: 'var(--good)', costly: '#7a4f00', lost: 'var(--bad)'};

/** An SVG element (the review's charts: review.js draws the value chart with it too). */
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

export function actionsText(n) {
  if (n === null || n === undefined) return 'lost';
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

// The moment at position k (after k actions): the "before" of action k+1, or the last
// action's "after".
export function momentAt(body, k) {
  const plies = body.plies;
  if (k < plies.length) return plies[k].before;
  return plies.length ? plies[plies.length - 1].after : body.fewest;
}

export function actionsStatus(body) {
  const f = body.fewest;
  return `Each action measured on public information (what the team could know from the record and the signals) and with the deal known. Fewest actions from the start: ${actionsText(f.public)} on average on public information, ${f.known} with the deal known; the team took ${body.actions}.`;
}

export function actionsCaption() {
  return 'Actions (what each cost, on public information)';
}

export function actionsChart(body, go) {
  const n = body.plies.length;
  const points = Array.from({length: n + 1}, (_, k) => momentAt(body, k));
  const top = Math.max(1, ...points.flatMap((m) => [m.public || 0, m.known || 0]));
  const x = (i) => PAD + (W - 2 * PAD) * (n ? i / n : 0);
  const y = (v) => H - PAD - (H - 2 * PAD) * (v / top);
  const root = svg('svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'review-chart-t', class: 'value-chart',
    style: 'width: 100%; height: auto; max-width: 32rem; display: block; cursor: pointer; border: 1px solid var(--line); background: #fff'});
  root.append(svg('title', {id: 'review-chart-t'}, `Fewest actions left after each action, from ${actionsText(top)} at the top to 0 at the bottom: solid on public information, dashed with the deal known.`));
  root.append(svg('line', {x1: 0, x2: W, y1: y(0), y2: y(0), style: 'stroke: #b9a77a; stroke-dasharray: 4 3'}));
  const trace = (key, style) => {
    const known = points.map((m, i) => ({i, v: m[key]})).filter((p) => p.v !== null && p.v !== undefined);
    if (known.length > 1) root.append(svg('polyline', {points: known.map((p) => `${x(p.i).toFixed(1)},${y(p.v).toFixed(1)}`).join(' '), class: `trace ${key}`, style}));
  };
  trace('known', 'fill: none; stroke: var(--good); stroke-width: 1.5; stroke-dasharray: 5 3');
  trace('public', 'fill: none; stroke: var(--ink); stroke-width: 1.5');
  points.forEach((m, i) => {
    const p = i >= 1 ? body.plies[i - 1] : null;
    const bad = p && p.label !== 'best';
    const v = m.public === null || m.public === undefined ? top : m.public;
    root.append(svg('circle', {cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: bad ? 4 : 2.5, 'data-ply': i,
      class: `exact${bad ? ` ${p.label}` : ''}${p && p.ply === body.costliest ? ' costliest' : ''}`,
      style: `stroke: ${bad ? COLOUR[p.label] : 'var(--ink)'}; stroke-width: 1.5; fill: ${bad ? COLOUR[p.label] : 'var(--ink)'}`}));
  });
  const cursor = svg('line', {x1: x(0), x2: x(0), y1: 0, y2: H, class: 'cursor', id: 'review-cursor', style: 'stroke: var(--focus); stroke-width: 2'});
  root.append(cursor);
  root.addEventListener('click', (event) => {
    const box = root.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * W;
    go(Math.max(0, Math.min(n, Math.round(((at - PAD) / (W - 2 * PAD)) * n))));
  });
  const legend = h('p', {class: 'muted small'}, 'Fewest actions left, the stack included: solid on public information (on average), dashed with the deal known; coloured dots mark actions that cost. Click to go to an action.');
  return {node: [root, legend], x: (i) => x(i)};
}

export function actionsJump(body, go, announce) {
  const k = body.costliest;
  if (!k) return h('p', {id: 'no-mistake'}, 'No action cost anything: each was a best one on public information.');
  const p = body.plies[k - 1];
  return h('button', {type: 'button', id: 'costliest', class: 'primary', onclick: () => { go(p.ply); announce(`Action ${p.ply}, ${p.move}: ${p.says}`); }},
    `Go to the costliest action: ${p.ply}, ${p.move} (${p.says})`);
}

export function actionsMark(body, i) {
  const p = body.plies[i - 1];
  if (!p) return null;
  const costliest = p.ply === body.costliest ? ' (costliest)' : '';
  const text = p.label === 'best' ? ' ✓ best' : p.label === 'lost' ? ' ✗ lost' : ` cost ${p.cost.public.toFixed(2)}`;
  return {label: p.label, colour: COLOUR[p.label], text: `${text}${costliest}`};
}

function knowText(before, after) {
  return `${before.deals} → ${after.deals} deals, ${before.solutions} → ${after.solutions} solutions`;
}

// What the panel says about position `ply` (after `ply` actions), and the line from it.
export function actionsDetail(body, ply) {
  const n = body.plies.length;
  const parts = [];
  if (ply >= 1) {
    const p = body.plies[ply - 1];
    parts.push(h('p', {id: 'review-move'}, h('strong', {}, `Action ${p.ply}, ${p.move} by ${p.player}: `),
      h('span', {class: `mark ${p.label}`, style: `color: ${COLOUR[p.label]}; font-weight: 700`}, p.says),
      p.ply === body.costliest ? ' (the costliest)' : ''));
    parts.push(h('p', {}, `Fewest actions left: on public information ${actionsText(p.before.public)} → ${actionsText(p.after.public)}, with the deal known ${actionsText(p.before.known)} → ${actionsText(p.after.known)}.`));
    parts.push(h('p', {}, `What the team could know: ${knowText(p.before, p.after)} consistent with the public record.`));
    if (p.label !== 'best' && p.best.length) parts.push(h('p', {}, `Best on public information: ${p.best.join(', ')}.`));
  } else {
    const f = body.fewest;
    parts.push(h('p', {id: 'review-move'}, `The start: ${f.deals} deals and ${f.solutions} solutions fit what the table shows. Fewest actions: ${actionsText(f.public)} on public information, ${f.known} with the deal known.`));
  }
  const from = ply < n ? body.plies[ply] : null;
  const moves = from ? from.line : body.end_line || [];
  if (from && from.public_line && from.public_line.join(' ') !== from.line.join(' ')) {
    parts.push(h('p', {}, `On public information alone, the best play from here would have been: ${from.public_line.join(' ')} (${from.public_line.length} actions on this deal).`));
  }
  return {parts, line: moves.length ? {from: ply + 1, moves, name: 'shortest solution', start: 'The position shown: the shortest solution (the deal known) starts here.'} : null};
}
