// The browser controller of the sliding games (Dao; Ice Dao names its pieces "stack"
// in games/icedao/browser.js): tap a piece that can slide, then where it stops (dots
// mark the landings) or a direction button; or drag the piece to where it stops. By
// keyboard: the arrow keys move between the pieces that can slide and, once one is
// chosen (Enter or Space), its landings; Enter on a landing slides; Escape forgets the
// choice. The protocol is in fourfold/server/web/static/controllers.js.

export default function controller(kit) {
  return sliding(kit, 'piece');
}

const ARROWS = {north: '↑', 'north-east': '↗', east: '→', 'south-east': '↘', south: '↓',
  'south-west': '↙', west: '←', 'north-west': '↖'};

export function sliding(kit, piece) {
  const {h, actionable, wireClicks, dot, drag, announce} = kit;
  let sel = {from: null, version: -1};

  function parse(screen) {
    const choices = screen.choices || [];
    return {slides: choices.filter((c) => c.from), pass: choices.find((c) => c.pass) || null};
  }
  function pickOrigin(slides, cell, ctx) {
    sel.from = sel.from === cell ? null : cell;
    const n = slides.filter((s) => s.from === cell).length;
    announce(sel.from ? `${cell} chosen: ${n} place${n === 1 ? '' : 's'} it can stop; the arrow keys reach them, Escape cancels.`
      : `${cell} no longer chosen.`);
    ctx.rerender();
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
    svg.addEventListener('pointerdown', (event) => {  // or drag it to where it stops
      const hit = (event.target.hitFor || event.target).closest('[data-cell]');
      if (!hit || !origins.has(hit.dataset.cell)) return;
      const from = hit.dataset.cell;
      drag(event, {
        find: () => document.querySelector(`#board g.piece[data-cell="${CSS.escape(from)}"]`),
        start: () => { sel.from = from; ctx.rerender(); },
        drop: (under) => {
          const cell = under && under.closest('[data-cell]');
          const slide = cell && slides.find((c) => c.from === from && c.to === cell.dataset.cell);
          if (slide) ctx.play(slide);
          else ctx.rerender();  // back where it was; the piece stays chosen for a tap
        },
      });
    });
    wireClicks(svg, (target) => {
      const hit = target.closest && target.closest('[data-cell]');
      if (!hit) return;
      const cell = hit.dataset.cell;
      if (landings.has(cell)) { ctx.play(landings.get(cell)); return; }
      if (origins.has(cell)) { pickOrigin(slides, cell, ctx); ctx.focusCell(cell); return; }
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
        origins.map((o) => h('button', {type: 'button', 'data-origin': o, onclick: () => pickOrigin(slides, o, ctx)}, o))));
    }
    if (pass) box.append(h('div', {class: 'buttons'}, h('button', {type: 'button', 'data-move': pass.move, onclick: () => ctx.play(pass)}, 'Pass')));
    return box;
  }
  function words(board) {
    return [(board.squares || []).map((s) => `${s.square} ${s.stack ? s.stack.join('') : s.piece}`).join(', ')];
  }
  return {decorate, controls, words, reset() { sel.version = -1; }};
}
