// Turning clicks and taps on the server's SVG into legal moves. The SVG marks what can
// be clicked with data attributes (data-cell, data-piece, data-role, data-action,
// data-world/data-px); the moves themselves always come from the server's choices:
// each legal move in named parts ({move, action, cell, give} or {from, to, direction}
// or {name}), so nothing here reads notation. The server names the controller.
import {h, seatName} from './util.js';

const SVGNS = 'http://www.w3.org/2000/svg';

export function controllerFor(description) {
  const kind = description && description.kind;
  if (kind === 'actions') return actions();
  if (kind === 'sliding') return sliding(description.piece || 'piece');
  if (kind === 'placement') return placement(!!description.points);
  return buttons();
}

/** Make an SVG element act as a button: focusable, labelled, Enter/Space click it. */
function actionable(el, label, cls = 'target') {
  el.classList.add(cls);
  el.setAttribute('role', 'button');
  el.setAttribute('tabindex', '0');
  el.setAttribute('aria-label', label);
}

function wireClicks(svg, handle) {
  svg.addEventListener('click', (event) => handle(event.target, event));
  svg.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    if (!event.target.getAttribute || event.target.getAttribute('role') !== 'button') return;
    event.preventDefault();
    handle(event.target, null);
  });
}

function describePiece(board, name) {
  const found = (board.pieces || []).find((p) => p.piece === name);
  return found ? `${found.description} (${name})` : name;
}

function cellRect(group) {
  const rect = group.querySelector('rect');
  if (!rect) return null;
  return ['x', 'y', 'width', 'height'].map((k) => parseFloat(rect.getAttribute(k)));
}

function dot(group, cls) {
  const box = cellRect(group);
  if (!box) return;
  const [x, y, w, hh] = box;
  const c = document.createElementNS(SVGNS, 'circle');
  c.setAttribute('cx', x + w / 2); c.setAttribute('cy', y + hh / 2);
  c.setAttribute('r', Math.min(w, hh) * 0.16);
  c.setAttribute('class', cls);
  group.append(c);
}

// -- placement: Folio (standard, fixed-grid, no-grid, freeform) and Quarto ------------------

function placement(freeform) {
  let sel = {cell: null, give: null, version: -1};
  let note = '';

  function parse(screen) {
    return (screen.choices || []).map((c) => ({choice: c, cell: c.cell || null, give: c.give || null,
      challenge: !!c.challenge}));
  }

  function sync(screen) {
    if (sel.version !== screen.state.version) { sel = {cell: null, give: null, version: screen.state.version}; note = ''; }
  }

  function choose(screen, ctx, what) {
    const moves = parse(screen);
    if (what.give !== undefined) {
      const opening = moves.find((m) => !m.cell && !m.challenge && m.give === what.give);
      if (opening) { ctx.play(opening.choice); return; }
      sel.give = sel.give === what.give ? null : what.give;
    }
    if (what.cell !== undefined) sel.cell = what.cell;
    if (sel.cell) {
      const here = moves.filter((m) => m.cell === sel.cell);
      const alone = here.find((m) => !m.give);
      if (alone && here.length === 1) { ctx.play(alone.choice); return; }
      const both = here.find((m) => m.give === sel.give);
      if (both && sel.give) { ctx.play(both.choice); return; }
      if (sel.give && !both) sel.give = null;
    }
    ctx.rerender();
  }

  function decorate(svg, screen, ctx) {
    sync(screen);
    const board = screen.state.view.board;
    const moves = parse(screen);
    const cells = new Set(moves.filter((m) => m.cell).map((m) => m.cell));
    const gives = new Set(moves.filter((m) => m.give && (!sel.cell || m.cell === sel.cell)).map((m) => m.give));
    const hand = board.hand ? describePiece(board, board.hand) : null;
    if (!freeform) {
      for (const g of svg.querySelectorAll('g.square[data-cell]')) {
        const cell = g.dataset.cell;
        const piece = board.cells && board.cells.find((c) => c.cell === cell);
        if (cells.has(cell)) {
          actionable(g, `${cell}: place the ${hand} here`);
          if (sel.cell === cell) g.classList.add('selected');
        } else {
          g.setAttribute('aria-label', piece ? `${cell}: ${describePiece(board, piece.piece)}` : `${cell}: empty`);
        }
      }
    }
    for (const g of svg.querySelectorAll('g.piece[data-role="supply"][data-piece]')) {
      const piece = g.dataset.piece;
      if (gives.has(piece)) {
        actionable(g, `Give the ${describePiece(board, piece)}`, 'choosable');
        if (sel.give === piece) g.classList.add('selected');
      }
    }
    if (freeform && sel.cell) markPoint(svg, moves.find((m) => m.cell === sel.cell));
    wireClicks(svg, (target, event) => {
      const supply = target.closest && target.closest('g.piece[data-role="supply"]');
      if (supply && supply.classList.contains('choosable')) { choose(screen, ctx, {give: supply.dataset.piece}); return; }
      if (freeform) {
        if (!event || !cells.size) return;
        const point = worldPoint(svg, event);
        if (!point) return;
        const best = nearest(moves.filter((m) => m.cell), point);
        if (!best) { note = `No legal spot near ${point[0].toFixed(2)},${point[1].toFixed(2)}.`; ctx.rerender(); return; }
        note = '';
        choose(screen, ctx, {cell: best});
        return;
      }
      const square = target.closest && target.closest('g.square[data-cell]');
      if (square && cells.has(square.dataset.cell)) choose(screen, ctx, {cell: square.dataset.cell});
    });
  }

  function controls(screen, ctx) {
    sync(screen);
    const board = screen.state.view.board;
    const moves = parse(screen);
    if (!moves.length) return null;
    const box = h('div', {class: 'controls-inner'});
    const opening = moves.filter((m) => !m.cell && !m.challenge);
    const gives = [...new Set(moves.filter((m) => m.give && (!sel.cell || m.cell === sel.cell)).map((m) => m.give))];
    if (opening.length && opening.length === moves.length) {
      box.append(h('p', {class: 'prompt'}, 'Choose the piece your opponent must place:'));
    } else {
      const hand = board.hand ? describePiece(board, board.hand) : 'the piece';
      const where = freeform ? 'Click on the table' : 'Click a marked cell';
      box.append(h('p', {class: 'prompt'},
        sel.cell ? `Placing the ${hand} at ${sel.cell}. Now choose the piece to give.`
          : sel.give ? `Giving the ${describePiece(board, sel.give)}. ${where} to place the ${hand}.`
            : `${where} to place the ${hand}, and choose the piece to give (in either order).`));
    }
    if (note) box.append(h('p', {class: 'note'}, note));
    if (gives.length) {
      box.append(h('p', {class: 'label'}, 'Give:'), h('div', {class: 'buttons gives', role: 'group', 'aria-label': 'Pieces to give'}, gives.map((g) =>
        h('button', {type: 'button', class: sel.give === g ? 'piece-btn chosen' : 'piece-btn', 'aria-pressed': sel.give === g ? 'true' : 'false',
          'data-give': g, 'aria-label': `Give the ${describePiece(board, g)}`, title: describePiece(board, g),
          onclick: () => choose(screen, ctx, {give: g})}, g))));
    }
    const extra = [];
    if (sel.cell || sel.give) extra.push(h('button', {type: 'button', onclick: () => { sel.cell = null; sel.give = null; ctx.rerender(); }}, 'Clear the choice'));
    const challenge = moves.find((m) => m.challenge);
    if (challenge) extra.push(h('button', {type: 'button', class: 'warn', 'data-move': challenge.choice.move, onclick: () => ctx.play(challenge.choice)}, 'Challenge: no 4×4 grid fits'));
    if (extra.length) box.append(h('div', {class: 'buttons'}, extra));
    return box;
  }

  return {decorate, controls, reset() { sel.version = -1; }};
}

function worldPoint(svg, event) {
  const area = svg.querySelector('[data-world][data-px]');
  if (!area) return null;
  const [x0, y0, span] = area.dataset.world.split(' ').map(Number);
  const [left, top, side] = area.dataset.px.split(' ').map(Number);
  const ctm = svg.getScreenCTM();
  if (!ctm) return null;
  const pt = svg.createSVGPoint();
  pt.x = event.clientX; pt.y = event.clientY;
  const p = pt.matrixTransform(ctm.inverse());
  if (p.x < left || p.x > left + side || p.y < top || p.y > top + side) return null;
  return [x0 + (p.x - left) / side * span, y0 + span - (p.y - top) / side * span];
}

/** The cell (a point's name) of the choice nearest to [x, y], within 0.45. */
function nearest(spots, [x, y]) {
  let best = null;
  let bestD = 0.45;
  for (const spot of spots) {
    const d = Math.hypot(spot.choice.x - x, spot.choice.y - y);
    if (d <= bestD) { best = spot.cell; bestD = d; }
  }
  return best;
}

function markPoint(svg, spot) {
  const area = svg.querySelector('[data-world][data-px]');
  if (!area || !spot) return;
  const text = spot.cell;
  const [x0, y0, span] = area.dataset.world.split(' ').map(Number);
  const [left, top, side] = area.dataset.px.split(' ').map(Number);
  const {x, y} = spot.choice;
  const c = document.createElementNS(SVGNS, 'circle');
  c.setAttribute('cx', left + (x - x0) / span * side);
  c.setAttribute('cy', top + (y0 + span - y) / span * side);
  c.setAttribute('r', side / span * 0.35);
  c.setAttribute('class', 'pick');
  c.setAttribute('data-pick', text);
  svg.append(c);
}

// -- sliding: a piece (or stack) slides from a square to where it stops ----------------------

const ARROWS = {north: '↑', 'north-east': '↗', east: '→', 'south-east': '↘', south: '↓',
  'south-west': '↙', west: '←', 'north-west': '↖'};

function sliding(piece) {
  let sel = {from: null, version: -1};

  function parse(screen) {
    const choices = screen.choices || [];
    return {slides: choices.filter((c) => c.from), pass: choices.find((c) => c.pass) || null};
  }
  function sync(screen) { if (sel.version !== screen.state.version) sel = {from: null, version: screen.state.version}; }
  function what(board, cell) {
    const sq = (board.squares || []).find((s) => s.square === cell);
    if (!sq) return 'empty';
    return sq.stack ? `stack ${sq.stack.join(' ')} (bottom to top)` : `piece ${sq.piece}`;
  }

  function decorate(svg, screen, ctx) {
    sync(screen);
    const board = screen.state.view.board;
    const {slides} = parse(screen);
    const origins = new Set(slides.map((s) => s.from));
    const landings = new Map(slides.filter((s) => s.from === sel.from).map((s) => [s.to, s]));
    for (const g of svg.querySelectorAll('g.square[data-cell]')) {
      const cell = g.dataset.cell;
      if (landings.has(cell)) {
        actionable(g, `Slide ${sel.from} ${landings.get(cell).direction} to ${cell}`, 'landing');
        dot(g, 'landing-dot');
      } else if (origins.has(cell)) {
        actionable(g, `${cell}: ${what(board, cell)}; choose it to slide`);
        if (sel.from === cell) g.classList.add('selected');
      } else {
        g.setAttribute('aria-label', `${cell}: ${what(board, cell)}`);
      }
    }
    wireClicks(svg, (target) => {
      const hit = target.closest && target.closest('[data-cell]');
      if (!hit) return;
      const cell = hit.dataset.cell;
      if (landings.has(cell)) { ctx.play(landings.get(cell)); return; }
      if (origins.has(cell)) { sel.from = sel.from === cell ? null : cell; ctx.rerender(); ctx.focusCell(cell); return; }
      if (sel.from) { sel.from = null; ctx.rerender(); }
    });
  }

  function controls(screen, ctx) {
    sync(screen);
    const {slides, pass} = parse(screen);
    if (!slides.length && !pass) return null;
    const box = h('div', {class: 'controls-inner'});
    if (sel.from) {
      box.append(h('p', {class: 'prompt'}, `From ${sel.from}: choose a direction (the dots mark where it stops).`));
      box.append(h('div', {class: 'buttons', role: 'group', 'aria-label': 'Directions'},
        slides.filter((s) => s.from === sel.from).map((s) =>
          h('button', {type: 'button', 'data-move': s.move, onclick: () => ctx.play(s)},
            `${ARROWS[s.direction] || ''} ${s.direction} to ${s.to}`)),
        h('button', {type: 'button', onclick: () => { sel.from = null; ctx.rerender(); }}, 'Another ' + piece)));
    } else if (slides.length) {
      box.append(h('p', {class: 'prompt'}, `Pick a ${piece} to slide (outlined), then a direction.`));
      const origins = [...new Set(slides.map((s) => s.from))];
      box.append(h('div', {class: 'buttons', role: 'group', 'aria-label': `${piece}s that can slide`},
        origins.map((o) => h('button', {type: 'button', 'data-origin': o, onclick: () => { sel.from = o; ctx.rerender(); }}, o))));
    }
    if (pass) box.append(h('div', {class: 'buttons'}, h('button', {type: 'button', 'data-move': pass.move, onclick: () => ctx.play(pass)}, 'Pass')));
    return box;
  }
  return {decorate, controls, reset() { sel.version = -1; }};
}

// -- named actions: pushes, twists and a stack, on arrows of the picture or buttons ----------

const ACTION_WORDS = {cw: 'Twist clockwise', ccw: 'Twist anticlockwise', stack: 'Stack: swap the free token with the centre'};
const SIDES = {W: 'west', E: 'east', N: 'north', S: 'south'};

function actionLabel(name) {
  if (ACTION_WORDS[name]) return ACTION_WORDS[name];
  const [side, corner] = name.split('>');
  return `Push ${name}: the free token goes in at ${corner}, from the ${SIDES[side] || side}`;
}

function actions() {
  function decorate(svg, screen, ctx) {
    const legal = new Map((screen.choices || []).map((c) => [c.name, c]));
    for (const g of svg.querySelectorAll('g.push[data-action]')) {
      if (legal.has(g.dataset.action)) actionable(g, actionLabel(g.dataset.action));
    }
    wireClicks(svg, (target) => {
      const push = target.closest && target.closest('g.push[data-action]');
      if (push && legal.has(push.dataset.action)) ctx.play(legal.get(push.dataset.action));
    });
  }
  function controls(screen, ctx) {
    const board = screen.state.view.board;
    const you = screen.state.you;
    const box = h('div', {class: 'controls-inner'});
    if (you !== null && you !== undefined && board.colour_cards && board.position_cards) {
      const colour = board.colour_cards[you];
      const position = board.position_cards[you];
      const cards = [colour ? `colour ${colour}` : null, position ? `position ${position}` : null].filter(Boolean);
      box.append(h('p', {class: 'cards', 'data-own-cards': cards.join(', ')},
        `Your cards: ${cards.length ? cards.join(', ') : 'none face up'}.`));
    }
    const signals = board.signals ? board.signals[board.signals.length - 1] : null;
    if (signals) {
      box.append(h('p', {class: 'signals'}, 'Signals (my token is right): ',
        signals.map((up, seat) => h('span', {class: up ? 'sig up' : 'sig down', 'data-signal-seat': seat + 1},
          `${seatName(screen.state, seat)} ${up ? '▲ up' : '▽ down'}`))));
    } else if (screen.state.real_time) {
      box.append(h('p', {class: 'muted'}, 'Everyone acts at once. If someone acts first, your action is refused with the reason, and you choose again.'));
    }
    const choices = screen.choices || [];
    if (choices.length) {
      const pushes = choices.filter((c) => c.name.includes('>'));
      const others = choices.filter((c) => !c.name.includes('>'));
      box.append(h('p', {class: 'prompt'}, 'Your action: tap an arrow on the picture, or a button.'));
      box.append(h('div', {class: 'buttons', role: 'group', 'aria-label': 'Twist and stack'},
        others.map((c) => h('button', {type: 'button', 'data-move': c.move, 'data-action': c.name, onclick: () => ctx.play(c)}, ACTION_WORDS[c.name] || c.name))));
      box.append(h('div', {class: 'buttons pushes', role: 'group', 'aria-label': 'Pushes'},
        pushes.map((c) => h('button', {type: 'button', 'data-move': c.move, 'data-action': c.name, 'aria-label': actionLabel(c.name), onclick: () => ctx.play(c)}, `Push ${c.name}`))));
    }
    return box;
  }
  return {decorate, controls, reset() {}};
}

// -- any other game: one button a legal move -------------------------------------------------

function buttons() {
  function decorate() {}
  function controls(screen, ctx) {
    const choices = screen.choices || [];
    if (!choices.length) return null;
    return h('div', {class: 'controls-inner'}, h('p', {class: 'prompt'}, 'Your move:'),
      h('div', {class: 'buttons', role: 'group', 'aria-label': 'Legal moves'},
        choices.slice(0, 200).map((c) => h('button', {type: 'button', 'data-move': c.move, onclick: () => ctx.play(c)}, c.move))));
  }
  return {decorate, controls, reset() {}};
}
