// What a game's browser controller is given (its `kit`): helpers to mark the server's
// SVG as clickable, to build controls, and to name seats and pieces. A controller never
// imports the app: it is handed this kit, so a game folder (or a plugin's package) holds
// a module that works with any build of the app. See controllers.js for the protocol.
import {announce, h, seatName} from './util.js';

export const SVGNS = 'http://www.w3.org/2000/svg';
/** The smallest tap target, in CSS px (WCAG 2.5.5). */
export const TAP = 44;

/** Make an SVG element act as a button: focusable, labelled, Enter/Space click it, and at
 * least TAP x TAP CSS px to tap (an invisible pad around a small drawing). The pads are
 * measured and added together once the caller is done (`settle`). */
export function actionable(el, label, cls = 'target') {
  el.classList.add(cls);
  el.setAttribute('role', 'button');
  el.setAttribute('tabindex', '0');
  el.setAttribute('aria-label', label);
  if (!queued.length) queueMicrotask(settle);
  queued.push(el);
}

// Buttons made, whose pads are still to add. Measuring one, then adding its rectangles,
// then measuring the next made the browser lay the page out again for every button
// (70 on a Folio board: a tenth of a second of a table's first draw on a busy laptop).
let queued = [];

/** The pads of the buttons made so far: every box read first, then every rectangle
 * added (one layout in all). Runs by itself once the code that made them is done. */
export function settle() {
  const made = queued.filter((el) => el.isConnected);
  queued = [];
  const roots = new Map();  // each picture's own transform, read once
  const plans = made.map((el) => [el, padPlan(el, roots), fillPlan(el)]);
  for (const [el, pad, box] of plans) {
    if (pad) addPad(el, pad);
    if (box) addFill(el, box);
  }
}

/** Where a transparent rectangle over the element's whole box goes, inside it: a tap in
 * a gap of its drawing (between a piece and its count, say) still lands on it. */
function fillPlan(el) {
  if (!el.getBBox) return null;
  let box;
  try { box = el.getBBox(); } catch (err) { return null; }
  return box.width && box.height ? box : null;
}

function addFill(el, box) {
  const r = document.createElementNS(SVGNS, 'rect');
  r.setAttribute('x', box.x);
  r.setAttribute('y', box.y);
  r.setAttribute('width', box.width);
  r.setAttribute('height', box.height);
  r.setAttribute('class', 'fill-hit');
  r.setAttribute('fill', 'transparent');
  el.append(r);
}

/** Grow an element's hit area to TAP x TAP CSS px: a transparent rectangle in a layer
 * under the whole picture (so a tap on any drawing still goes to that drawing, and
 * the pad only catches taps around it). Measured from the page as laid out. */
export function pad(el) {
  const plan = padPlan(el);
  if (plan) addPad(el, plan);
}

/** The pad `pad` adds for `el` (in the picture's units), or null when it needs none;
 * `roots` keeps each picture's transform. */
function padPlan(el, roots = new Map()) {
  const svg = el.ownerSVGElement;
  if (!svg || !el.getBBox || !el.getScreenCTM || !svg.getScreenCTM) return null;
  if (!roots.has(svg)) roots.set(svg, svg.getScreenCTM());
  const own = el.getScreenCTM();
  const root = roots.get(svg);
  if (!own || !root || !own.a) return null;
  let box;
  try { box = el.getBBox(); } catch (err) { return null; }
  const toRoot = root.inverse().multiply(own);
  const corners = [[box.x, box.y], [box.x + box.width, box.y + box.height]].map(([x, y]) => {
    const pt = svg.createSVGPoint();
    pt.x = x; pt.y = y;
    return pt.matrixTransform(toRoot);
  });
  const need = TAP / Math.hypot(root.a, root.b);
  const [x0, x1] = [Math.min(corners[0].x, corners[1].x), Math.max(corners[0].x, corners[1].x)];
  const [y0, y1] = [Math.min(corners[0].y, corners[1].y), Math.max(corners[0].y, corners[1].y)];
  if (x1 - x0 >= need && y1 - y0 >= need) return null;
  const w = Math.max(x1 - x0, need);
  const hh = Math.max(y1 - y0, need);
  return {svg, x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - hh / 2, w, h: hh};
}

function addPad(el, {svg, x, y, w, h: hh}) {
  let layer = svg.querySelector(':scope > g.hits');
  if (!layer) {
    layer = document.createElementNS(SVGNS, 'g');
    layer.setAttribute('class', 'hits');
    layer.setAttribute('aria-hidden', 'true');
    svg.prepend(layer);
  }
  const r = document.createElementNS(SVGNS, 'rect');
  r.setAttribute('x', x);
  r.setAttribute('y', y);
  r.setAttribute('width', w);
  r.setAttribute('height', hh);
  r.setAttribute('class', 'hit');
  r.hitFor = el;
  layer.append(r);
}

/** Call `handle(target, event)` for clicks and taps on the picture, and for Enter or
 * Space on a focused SVG button (`event` is null then). */
export function wireClicks(svg, handle) {
  svg.addEventListener('click', (event) => {
    if (dropped) { dropped = false; return; }
    handle(event.target.hitFor || event.target, event);
  });
  svg.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    if (!event.target.getAttribute || event.target.getAttribute('role') !== 'button') return;
    event.preventDefault();
    handle(event.target, null);
  });
}

let dropped = false;

// -- the keyboard on the board ----------------------------------------------------------------
// The picture's buttons are one Tab stop (a roving tabindex, as in a grid): the arrow keys
// move to the nearest button that way, Home and End to the first and last. Left and Right
// go in reading order (the nearest along the row, at its end on to the next row), so that
// every button can be reached: the nearest button that way alone can leave one out (Dao,
// a1 chosen with buttons on c1, a3 and c3 too: its landing on b2 was the nearest of none).
// A button that handles the arrows itself (the freeform table's cursor) says so with
// data-keys and is a Tab stop of its own.
const ARROWS = {ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1]};

function roving(svg) {
  return [...svg.querySelectorAll('[role="button"]')].filter((b) => !b.hasAttribute('data-keys'));
}

function centre(el) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/** The button nearest to `from` in the direction [ux, uy] (screen axes), or null. */
function nearest(from, buttons, [ux, uy]) {
  const [x, y] = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const b of buttons) {
    if (b === from) continue;
    const [bx, by] = centre(b);
    const along = (bx - x) * ux + (by - y) * uy;
    const across = Math.abs((bx - x) * uy - (by - y) * ux);
    if (along < 2) continue;
    const score = along + 2 * across;
    if (score < bestScore) { best = b; bestScore = score; }
  }
  return best;
}

/** `buttons` in reading order: rows from the top (centres less than 2 px apart in height
 * share a row), each from the left. */
function readingOrder(buttons) {
  const placed = buttons.map((b) => ({b, c: centre(b)})).sort((p, q) => p.c[1] - q.c[1]);
  const rows = [];
  for (const p of placed) {
    const row = rows[rows.length - 1];
    if (row && p.c[1] - row[0].c[1] < 2) row.push(p);
    else rows.push([p]);
  }
  return rows.flatMap((row) => row.sort((p, q) => p.c[0] - q.c[0]).map((p) => p.b));
}

/** Make the picture's buttons one Tab stop: `current` if it is one of them, else the
 * chosen one (.selected), else the first. */
export function rove(svg, current) {
  const buttons = roving(svg);
  if (!buttons.length) return;
  const keep = buttons.includes(current) ? current : buttons.find((b) => b.classList.contains('selected')) || buttons[0];
  for (const b of buttons) b.setAttribute('tabindex', b === keep ? '0' : '-1');
}

/** Where `key` (an arrow, Home or End) moves the focus from the button `from`: a button
 * of the picture, null where there is none that way, undefined for another key. */
export function arrowTarget(svg, from, key) {
  const buttons = roving(svg);
  if (key === 'ArrowRight' || key === 'ArrowLeft') {
    const order = readingOrder(buttons);
    const at = order.indexOf(from);
    if (at >= 0) return order[at + (key === 'ArrowRight' ? 1 : -1)] || null;
  }
  if (ARROWS[key]) return nearest(from, buttons, ARROWS[key]);
  if (key === 'Home') return buttons[0] || null;
  if (key === 'End') return buttons[buttons.length - 1] || null;
  return undefined;
}

/** Arrow keys, Home and End move the focus between the picture's buttons. */
export function arrowKeys(svg) {
  svg.addEventListener('keydown', (event) => {
    const from = event.target;
    if (!from.getAttribute || from.getAttribute('role') !== 'button' || from.hasAttribute('data-keys')) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const to = arrowTarget(svg, from, event.key);
    if (to === undefined) return;
    event.preventDefault();  // at an edge too: the arrows never scroll the page from here
    if (!to || to === from) return;
    from.setAttribute('tabindex', '-1');
    to.setAttribute('tabindex', '0');
    to.focus();
  });
}

/** Drag from a pointerdown: past 8 px, `start()` runs once (it may redraw the picture),
 * the element `find()` returns follows the pointer, and on release `drop(under)` gets
 * the element under the pointer (null when the drag was cancelled). A plain tap is left
 * to the click handlers; the click that ends a drag is swallowed (see `wireClicks`). */
export function drag(down, {find, start, drop}) {
  if (down.button > 0) return;
  let moving = false;
  const move = (event) => {
    const dx = event.clientX - down.clientX;
    const dy = event.clientY - down.clientY;
    if (!moving && Math.hypot(dx, dy) < 8) return;
    if (!moving) { moving = true; start(); }
    const el = find();
    const ctm = el && el.ownerSVGElement && el.ownerSVGElement.getScreenCTM();
    if (el && ctm) {
      el.style.transform = `translate(${dx / ctm.a}px, ${dy / ctm.d}px)`;
      el.classList.add('dragging');  // not under the pointer itself: the drop finds the cell
    }
  };
  const up = (event) => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', up);
    if (!moving) return;
    dropped = true;
    window.setTimeout(() => { dropped = false; }, 0);  // only the click of this drop
    const under = event.type === 'pointerup' ? document.elementFromPoint(event.clientX, event.clientY) : null;
    drop(under ? (under.hitFor || under) : null);
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', up);
}

/** A piece's description from the board (`{piece, description}` entries), with its name. */
export function describePiece(board, name) {
  const found = (board.pieces || []).find((p) => p.piece === name);
  return found ? `${found.description} (${name})` : name;
}

function cellRect(group) {
  const rect = group.querySelector('rect');
  if (!rect) return null;
  return ['x', 'y', 'width', 'height'].map((k) => parseFloat(rect.getAttribute(k)));
}

/** A dot in the middle of a cell group (a legal target, say). */
export function dot(group, cls) {
  const box = cellRect(group);
  if (!box) return;
  const [x, y, w, hh] = box;
  const c = document.createElementNS(SVGNS, 'circle');
  c.setAttribute('cx', x + w / 2); c.setAttribute('cy', y + hh / 2);
  c.setAttribute('r', Math.min(w, hh) * 0.16);
  c.setAttribute('class', cls);
  group.append(c);
}

/** A second tap confirms: the first arms the button (its text says what happens) for a few
 * seconds, the second calls `act`. */
export function confirmButton(attrs, label, armed, act) {
  let timer = null;
  const button = h('button', {type: 'button', ...attrs}, label);
  button.addEventListener('click', () => {
    if (timer) { window.clearTimeout(timer); timer = null; act(); return; }
    button.textContent = armed;
    button.classList.add('armed');
    timer = window.setTimeout(() => { timer = null; button.textContent = label; button.classList.remove('armed'); }, 4000);
  });
  return button;
}

export {announce, h, seatName};
