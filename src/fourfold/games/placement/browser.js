// The browser controller of the placement games (Quarto, Folio's grid variants): place
// the piece in hand on a marked cell and choose the piece to give, in either order (a
// cell with one legal move plays at once); or drag the piece in hand onto a cell. By
// keyboard: the arrow keys move between the marked cells and the pieces to give (the
// page's roving focus), Enter or Space chooses, Escape forgets the choice. Folio's
// freeform variant reuses it with `points` (games/folio/freeform/browser.js): a click
// anywhere on the table, or its keyboard cursor.
// The protocol is in fourfold/server/web/static/controllers.js.

export default function controller(kit) {
  return placement(kit, null);
}

/** `points`: null for a grid, or {pick(svg, event, spots) -> {cell} | {note},
 * mark(svg, spot, cell), cursor(svg, spots, choose)}: a spot is chosen by its notation,
 * one of the server's listed spots or any other point (then the move is sent as
 * notation, and the server judges it). */
export function placement(kit, points) {
  const {h, actionable, wireClicks, describePiece, drag, announce} = kit;
  let sel = {cell: null, give: null, version: -1};
  let note = '';

  function parse(screen) {
    return (screen.choices || []).map((c) => ({choice: c, cell: c.cell || null, give: c.give || null,
      challenge: !!c.challenge}));
  }

  function sync(screen) {
    if (sel.version !== screen.state.version) { sel = {cell: null, give: null, version: screen.state.version}; note = ''; }
  }

  /** The pieces that may be given with a placement at `cell` (any placement: null; a
   * point off the server's list: those of any listed placement). */
  function givesAt(moves, cell) {
    const listed = !cell || moves.some((m) => m.cell === cell);
    return [...new Set(moves.filter((m) => m.give && (!cell || m.cell === cell || (!listed && m.cell)))
      .map((m) => m.give))];
  }

  function choose(screen, ctx, what) {
    const moves = parse(screen);
    if (what.give !== undefined) {
      const opening = moves.find((m) => !m.cell && !m.challenge && m.give === what.give);
      if (opening) { ctx.play(opening.choice); return; }
      sel.give = sel.give === what.give ? null : what.give;
    }
    if (what.cell !== undefined) sel.cell = what.cell;
    if (sel.cell && points && !moves.some((m) => m.cell === sel.cell)) {  // a point of one's own
      const anyGive = moves.some((m) => m.give && m.cell);
      if (!anyGive) { ctx.play(sel.cell); return; }
      if (sel.give) { ctx.play(`${sel.cell} ${sel.give}`); return; }
      announce(`Spot ${sel.cell} chosen. Now choose the piece to give.`);
      ctx.rerender();
      return;
    }
    if (sel.cell) {
      const here = moves.filter((m) => m.cell === sel.cell);
      const alone = here.find((m) => !m.give);
      if (alone && here.length === 1) { ctx.play(alone.choice); return; }
      const both = here.find((m) => m.give === sel.give);
      if (both && sel.give) { ctx.play(both.choice); return; }
      if (sel.give && !both) sel.give = null;
    }
    const board = screen.state.view.board;
    if (what.cell !== undefined && sel.cell) announce(`${sel.cell} chosen. Now choose the piece to give.`);
    else if (what.give !== undefined && sel.give) announce(`Giving the ${describePiece(board, sel.give)}. Now choose where to place.`);
    ctx.rerender();
  }

  function decorate(svg, screen, ctx) {
    sync(screen);
    const board = screen.state.view.board;
    const moves = parse(screen);
    const cells = new Set(moves.filter((m) => m.cell).map((m) => m.cell));
    const gives = new Set(givesAt(moves, sel.cell));
    const hand = board.hand ? describePiece(board, board.hand) : null;
    if (!points) {
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
        // or drag it onto the hand's box: the piece the other side will hold
        g.classList.add('draggable');
        g.addEventListener('pointerdown', (event) => drag(event, {
          find: () => document.querySelector(`#board g.piece[data-role="supply"][data-piece="${CSS.escape(piece)}"]`),
          start: () => {},
          drop: (under) => {
            const onHand = under && (under.classList.contains('hand') || under.closest('g.piece[data-role="hand"]'));
            if (onHand) choose(screen, ctx, {give: piece});
            else ctx.rerender();
          },
        }));
      }
    }
    if (points && sel.cell) points.mark(svg, moves.find((m) => m.cell === sel.cell), sel.cell);
    if (points && cells.size) {
      points.cursor(svg, moves.filter((m) => m.cell), (cell) => choose(screen, ctx, {cell}), screen.state.version);
    }
    const held = svg.querySelector('g.piece[data-role="hand"]');
    if (held && cells.size && !points) {  // drag the piece in hand onto a marked cell
      held.classList.add('draggable');
      held.addEventListener('pointerdown', (event) => drag(event, {
        find: () => document.querySelector('#board g.piece[data-role="hand"]'),
        start: () => {},
        drop: (under) => {
          const square = under && under.closest('g.square[data-cell]');
          if (square && cells.has(square.dataset.cell)) choose(screen, ctx, {cell: square.dataset.cell});
          else ctx.rerender();
        },
      }));
    }
    wireClicks(svg, (target, event) => {
      const supply = target.closest && target.closest('g.piece[data-role="supply"]');
      if (supply && supply.classList.contains('choosable')) { choose(screen, ctx, {give: supply.dataset.piece}); return; }
      if (points) {
        if (!event || !cells.size) return;
        const found = points.pick(svg, event, moves.filter((m) => m.cell));
        if (!found) return;
        if (found.note) { note = found.note; ctx.rerender(); return; }
        note = '';
        choose(screen, ctx, {cell: found.cell});
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
    const gives = givesAt(moves, sel.cell);
    if (opening.length && opening.length === moves.length) {
      box.append(h('p', {class: 'prompt'}, 'Choose the piece your opponent must place:'));
    } else {
      const hand = board.hand ? describePiece(board, board.hand) : 'the piece';
      const where = points ? 'Tap on the table (or move its cursor with the arrow keys)' : 'Tap a marked cell';
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

  function words(board) {
    const placed = board.cells || board.placed || [];
    const lines = [placed.length ? placed.map((c) => `${c.cell || c.point} ${c.piece}`).join(board.cells ? ', ' : '; ')
      : 'No pieces placed yet.'];
    if (board.hand) lines.push(`In hand: ${board.hand}.`);
    return lines;
  }

  return {decorate, controls, words, reset() { sel.version = -1; }};
}
