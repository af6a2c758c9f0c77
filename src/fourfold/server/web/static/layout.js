// A picture's two layouts (render/svg/canvas.py, Canvas.wide): the narrow one, for a
// phone, and a wide one, where a part (the tray of pieces, say) stands beside the board.
// The page shows whichever draws the picture larger in the room the board has: on a
// laptop the board then uses the window's width, not a tall strip in the middle of it.

/** The room the picture may take, in CSS px: its box's width, and its max-height (none
 * on a phone: the page scrolls, and the picture is as wide as the window). It depends
 * on the window's size alone, so it is measured once per size, with an empty picture
 * (`measure`): measuring lays the page out, and laid out with the board's picture in
 * it, that took a tenth of a table's first second on a busy laptop. */
let measured = null;
function room(board) {
  const size = `${window.innerWidth}x${window.innerHeight}`;
  if (!measured || measured.size !== size || measured.board !== board) measure(board);
  return measured.room;
}

/** Measure the board's room now (a table calls it as it builds its page, before the
 * first picture arrives). */
export function measure(board) {
  // a picture's max-height, read from a stand-in out of the page's flow (nothing moves,
  // nothing scrolls: it is gone before the page is drawn)
  const probe = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  probe.setAttribute('style', 'position: absolute; visibility: hidden; width: 0');
  board.append(probe);
  const style = getComputedStyle(board);
  const inner = board.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const most = parseFloat(getComputedStyle(probe).maxHeight);
  probe.remove();
  measured = {size: `${window.innerWidth}x${window.innerHeight}`, board,
    room: [inner, Number.isFinite(most) ? most : Infinity]};
}

function sizes(svg) {
  const narrow = svg.dataset.narrow || svg.getAttribute('viewBox').split(/[\s,]+/).slice(2).join(' ');
  svg.dataset.narrow = narrow;
  return [narrow.split(' ').map(Number), svg.dataset.wide.split(' ').map(Number)];
}

/** Whether the wide layout draws `svg` larger than the narrow one in `board` (by 2%
 * at least: a tie keeps the narrow one). */
export function wants(board, svg) {
  if (!svg || !svg.dataset.wide) return false;
  const [w, h] = room(board);
  const [narrow, wide] = sizes(svg);
  const scale = ([vw, vh]) => Math.min(w / vw, h / vh);
  return scale(wide) > scale(narrow) * 1.02;
}

/** Show `svg` in its wide layout (`wide`) or its narrow one. */
export function apply(svg, wide) {
  if (!svg || !svg.dataset.wide) return;
  const [narrow, large] = sizes(svg);
  const [vw, vh] = wide ? large : narrow;
  svg.setAttribute('viewBox', `0 0 ${vw} ${vh}`);
  for (const g of svg.querySelectorAll('[data-wide-at]')) {
    if (wide) g.setAttribute('transform', `translate(${g.dataset.wideAt})`);
    else g.removeAttribute('transform');
  }
  svg.classList.toggle('wide', wide);
}

/** Lay the board's picture out for the room it has; returns whether it is wide. */
export function fit(board) {
  const svg = board.querySelector('svg');
  if (!svg || !svg.dataset.wide) { board.classList.remove('wide'); return false; }
  const wide = wants(board, svg);
  apply(svg, wide);
  board.classList.toggle('wide', wide);
  return wide;
}
