// The browser controller of Folio's freeform variant: the placement controller
// (games/placement/browser.js) with a click anywhere on the table, snapped to the
// nearest legal point within 0.45 of a cell (the server lists the points it offers).
// The SVG maps table units to pixels with data-world="x0 y0 span" and
// data-px="left top side" on its table area.
import {placement} from '../../placement/browser.js';

export default function controller(kit) {
  return placement(kit, points(kit));
}

function points(kit) {
  function area(svg) {
    const found = svg.querySelector('[data-world][data-px]');
    if (!found) return null;
    return {world: found.dataset.world.split(' ').map(Number), px: found.dataset.px.split(' ').map(Number)};
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

  function pick(svg, event, spots) {
    const point = worldPoint(svg, event);
    if (!point) return null;
    const [x, y] = point;
    let best = null;
    let bestD = 0.45;
    for (const spot of spots) {
      const d = Math.hypot(spot.choice.x - x, spot.choice.y - y);
      if (d <= bestD) { best = spot.cell; bestD = d; }
    }
    return best ? {cell: best} : {note: `No legal spot near ${x.toFixed(2)},${y.toFixed(2)}.`};
  }

  function mark(svg, spot) {
    const a = area(svg);
    if (!a || !spot) return;
    const [x0, y0, span] = a.world;
    const [left, top, side] = a.px;
    const {x, y} = spot.choice;
    const c = document.createElementNS(kit.SVGNS, 'circle');
    c.setAttribute('cx', left + (x - x0) / span * side);
    c.setAttribute('cy', top + (y0 + span - y) / span * side);
    c.setAttribute('r', side / span * 0.35);
    c.setAttribute('class', 'pick');
    c.setAttribute('data-pick', spot.cell);
    svg.append(c);
  }

  return {pick, mark};
}
