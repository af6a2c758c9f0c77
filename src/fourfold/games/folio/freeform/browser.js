// The browser controller of Folio's freeform variant: the placement controller
// (games/placement/browser.js) with a click anywhere on the table, snapped to the
// nearest legal point within 0.45 of a cell (the server lists the points it offers).
// The SVG maps table units to pixels with data-world="x0 y0 span" and
// data-px="left top side" on its table area.
//
// By keyboard, the table has a cursor (its own Tab stop): the arrow keys move it by
// 0.5 (the spacing of the server's list), Shift with an arrow by 0.1; [ and ] turn the
// arrows' axes by 15 degrees (Shift: 5), to follow a grid laid at an angle; 0 turns them
// back square. Enter or Space chooses the spot under the cursor. A point off the
// server's list is sent as notation and the server judges it.
import {placement} from '../../placement/browser.js';

export default function controller(kit) {
  return placement(kit, points(kit));
}

const STEP = 0.5;
const FINE = 0.1;

/** A coordinate as the notation writes it: 1 to 6 decimal places (1.0, -0.5, 1.25). */
function number(v) {
  let t = (Math.round(v * 1e6) / 1e6).toFixed(6).replace(/0+$/, '');
  if (t.endsWith('.')) t += '0';
  return t === '-0.0' ? '0.0' : t;
}

function points(kit) {
  // The cursor, in table units, and the angle of its axes (degrees): kept from one
  // redraw (and one move) to the next, so the keyboard picks up where it left off.
  let cursor = null;

  function area(svg) {
    const found = svg.querySelector('[data-world][data-px]');
    if (!found) return null;
    return {world: found.dataset.world.split(' ').map(Number), px: found.dataset.px.split(' ').map(Number)};
  }

  function toPicture(a, x, y) {
    const [x0, y0, span] = a.world;
    const [left, top, side] = a.px;
    return [left + (x - x0) / span * side, top + (y0 + span - y) / span * side];
  }

  function worldPoint(svg, event) {
    const a = area(svg);
    const ctm = svg.getScreenCTM();
    if (!a || !ctm) return null;
    const [x0, y0, span] = a.world;
    const [left, top, side] = a.px;
    const pt = svg.createSVGPoint();
    pt.x = event.clientX; pt.y = event.clientY;
    const p = pt.matrixTransform(ctm.inverse());
    if (p.x < left || p.x > left + side || p.y < top || p.y > top + side) return null;
    return [x0 + (p.x - left) / side * span, y0 + span - (p.y - top) / side * span];
  }

  function nearestSpot(spots, x, y, within) {
    let best = null;
    let bestD = within;
    for (const spot of spots) {
      const d = Math.hypot(spot.choice.x - x, spot.choice.y - y);
      if (d <= bestD) { best = spot; bestD = d; }
    }
    return best;
  }

  function pick(svg, event, spots) {
    const point = worldPoint(svg, event);
    if (!point) return null;
    const [x, y] = point;
    const best = nearestSpot(spots, x, y, 0.45);
    if (best) cursor = {...(cursor || {angle: 0}), x: best.choice.x, y: best.choice.y};
    return best ? {cell: best.cell} : {note: `No legal spot near ${x.toFixed(2)},${y.toFixed(2)}.`};
  }

  function mark(svg, spot, cell) {
    const a = area(svg);
    if (!a) return;
    const [x, y] = spot ? [spot.choice.x, spot.choice.y] : cell.split(',').map(Number);
    const [span, side] = [a.world[2], a.px[2]];
    const [cx, cy] = toPicture(a, x, y);
    const c = document.createElementNS(kit.SVGNS, 'circle');
    c.setAttribute('cx', cx);
    c.setAttribute('cy', cy);
    c.setAttribute('r', side / span * 0.35);
    c.setAttribute('class', 'pick');
    c.setAttribute('data-pick', cell);
    svg.append(c);
  }

  /** The keyboard's cursor on the table: a focusable crosshair (data-keys: it takes the
   * arrow keys itself) whose Enter chooses the spot under it through `choose(cell)`. */
  function drawCursor(svg, spots, choose, version) {
    const a = area(svg);
    if (!a) return;
    const [x0, y0, span] = a.world;
    const inside = (x, y) => x >= x0 && x <= x0 + span && y >= y0 && y <= y0 + span;
    const listed = (x, y) => spots.some((s) => Math.abs(s.choice.x - x) < 1e-6 && Math.abs(s.choice.y - y) < 1e-6);
    if (!cursor || !inside(cursor.x, cursor.y) || (cursor.version !== version && !listed(cursor.x, cursor.y))) {
      // a new position: from where it was (or the middle), to the nearest listed spot
      const [fx, fy] = cursor && inside(cursor.x, cursor.y) ? [cursor.x, cursor.y] : [x0 + span / 2, y0 + span / 2];
      const best = nearestSpot(spots, fx, fy, Infinity);
      cursor = {angle: cursor ? cursor.angle : 0, x: best ? best.choice.x : 0, y: best ? best.choice.y : 0};
    }
    cursor.version = version;
    const g = document.createElementNS(kit.SVGNS, 'g');
    g.setAttribute('class', 'cursor');
    g.setAttribute('data-keys', 'cursor');
    const r = a.px[2] / span * 0.42;
    const ring = document.createElementNS(kit.SVGNS, 'circle');
    ring.setAttribute('r', r);
    const across = document.createElementNS(kit.SVGNS, 'path');
    g.append(ring, across);
    svg.append(g);

    const spotHere = () => spots.find((s) => Math.abs(s.choice.x - cursor.x) < 1e-6 && Math.abs(s.choice.y - cursor.y) < 1e-6);
    const cellHere = () => { const s = spotHere(); return s ? s.cell : `${number(cursor.x)},${number(cursor.y)}`; };
    const label = () => {
      const turned = cursor.angle ? `; the arrows are turned ${cursor.angle} degrees` : '';
      return `Table cursor at ${cellHere()}: ${spotHere() ? 'a legal spot' : 'not on the list of legal spots (the server will judge it)'}${turned}. `
        + 'Arrow keys move it by 0.5, Shift and an arrow by 0.1, [ and ] turn the arrows; Enter places here.';
    };
    const place = () => {
      const [cx, cy] = toPicture(a, cursor.x, cursor.y);
      g.setAttribute('transform', `translate(${cx} ${cy}) rotate(${-cursor.angle})`);
      across.setAttribute('d', `M${-r * 1.5} 0H${r * 1.5}M0 ${-r * 1.5}V${r * 1.5}`);
      g.classList.toggle('off-list', !spotHere());
      g.setAttribute('data-point', `${number(cursor.x)},${number(cursor.y)}`);
    };
    place();
    kit.actionable(g, label(), 'cursor');
    g.addEventListener('keydown', (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const arrow = {ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1]}[event.key];
      if (arrow) {
        const step = event.shiftKey ? FINE : STEP;
        const t = cursor.angle * Math.PI / 180;
        const [dx, dy] = [arrow[0] * Math.cos(t) - arrow[1] * Math.sin(t), arrow[0] * Math.sin(t) + arrow[1] * Math.cos(t)];
        const [nx, ny] = [Math.round((cursor.x + dx * step) * 1e6) / 1e6, Math.round((cursor.y + dy * step) * 1e6) / 1e6];
        if (inside(nx, ny)) { cursor.x = nx; cursor.y = ny; }
      } else if (event.key === '[' || event.key === ']' || event.key === '{' || event.key === '}') {
        const by = (event.key === '[' || event.key === ']') ? 15 : 5;
        cursor.angle = ((cursor.angle + (event.key === ']' || event.key === '}' ? by : -by)) % 90 + 90) % 90;
      } else if (event.key === '0') {
        cursor.angle = 0;
      } else if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        event.stopPropagation();  // the page's own Enter handling is for clicks
        choose(cellHere());
        return;
      } else {
        return;
      }
      event.preventDefault();
      place();
      g.setAttribute('aria-label', label());
      kit.announce(`${cellHere()}${spotHere() ? '' : ' (off the list)'}${cursor.angle ? `, axes at ${cursor.angle} degrees` : ''}`);
    });
  }

  return {pick, mark, cursor: drawCursor};
}
