// The browser controller of Quatrefoil. Pushes are played on the picture: tap an arrow
// (a focusable button: Enter or Space), tap the free token then an arrow, drag the free
// token onto an arrow, or drag a token of the quatrefoil along its row or column (the
// row moves that way: the push that moves it). Twists and Stack are buttons beside the
// board; Stack ends the game for everyone, so it asks a second press, and stays asked
// for a few seconds even while the picture is redrawn (in Dual the others keep acting).
// Moves animate through the page (the tokens are g.piece[data-cell][data-piece]).
// The protocol is in fourfold/server/web/static/controllers.js.

const ACTION_WORDS = {cw: 'Twist clockwise', ccw: 'Twist anticlockwise'};
const STACK = 'Stack (ends the game for everyone)';
const STACK_ARMED = 'Press again to stack: the game ends for everyone';
const ARMED_MS = 4000;
const SIDES = {W: 'west', E: 'east', N: 'north', S: 'south'};
/** The push that moves a corner's row (a sideways drag) or column (an up or down drag)
 * that way: the free token enters at the far end. */
const ROW_PUSH = {
  NW: {east: 'W>NW', west: 'E>NE', south: 'N>NW', north: 'S>SW'},
  NE: {east: 'W>NW', west: 'E>NE', south: 'N>NE', north: 'S>SE'},
  SW: {east: 'W>SW', west: 'E>SE', south: 'N>NW', north: 'S>SW'},
  SE: {east: 'W>SW', west: 'E>SE', south: 'N>NE', north: 'S>SE'},
};

/** The corners a push moves, from where the free token goes in to the one whose token
 * comes out (rules: a push slides a row or a column one corner). */
const PUSHED = {
  'W>NW': ['NW', 'NE'], 'E>NE': ['NE', 'NW'], 'N>NW': ['NW', 'SW'], 'S>SW': ['SW', 'NW'],
  'W>SW': ['SW', 'SE'], 'E>SE': ['SE', 'SW'], 'N>NE': ['NE', 'SE'], 'S>SE': ['SE', 'NE'],
};

function actionLabel(name, tokens) {
  if (name === 'stack') return 'Stack: swap the free token with the centre, which ends the game for everyone';
  if (ACTION_WORDS[name]) return ACTION_WORDS[name];
  const [side, corner] = name.split('>');
  const [first, last] = PUSHED[name] || [corner, null];
  const what = tokens && last ? `: ${tokens.free} goes in at ${first}, ${tokens[first]} moves to ${last}, ${tokens[last]} comes out`
    : `: the free token goes in at ${corner}`;
  return `Push ${name} from the ${SIDES[side] || side}${what}`;
}

/** Which way a drag went, by its longer axis (null for a short one). */
function heading(dx, dy) {
  if (Math.hypot(dx, dy) < 16) return null;
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? 'east' : 'west';
  return dy > 0 ? 'south' : 'north';
}

export default function controller(kit) {
  const {h, actionable, wireClicks, drag, seatName} = kit;
  let sel = {free: false, version: -1};
  let armedUntil = 0;
  let armedTimer = null;

  function sync(screen) {
    if (sel.version !== screen.state.version) sel = {free: false, version: screen.state.version};
  }

  // The push a drag would make: onto an arrow (or near one) for the free token, along
  // the row or column for a token of the quatrefoil.
  function pushFor(svg, legal, from, down, at) {
    if (from === 'free') {
      let best = null;
      let bestDistance = 48;  // CSS px from the arrow's centre
      for (const g of svg.querySelectorAll('g.push[data-action]')) {
        if (!legal.has(g.dataset.action)) continue;
        const r = g.getBoundingClientRect();
        const distance = Math.hypot(r.left + r.width / 2 - at.x, r.top + r.height / 2 - at.y);
        if (distance < bestDistance) { best = g.dataset.action; bestDistance = distance; }
      }
      return best;
    }
    const way = heading(at.x - down.x, at.y - down.y);
    const name = way && ROW_PUSH[from] && ROW_PUSH[from][way];
    return name && legal.has(name) ? name : null;
  }

  // An arrow where the token in hand would go: drawn in the landing colour (a style
  // of its own, so it needs nothing from the page's sheet).
  function choose(g, on) {
    g.classList.toggle('chosen', on);
    const shape = g.querySelector('polygon');
    if (shape) { shape.style.fill = on ? 'var(--landing)' : ''; shape.style.opacity = on ? '1' : ''; }
  }
  function mark(svg, name) {
    for (const g of svg.querySelectorAll('g.push[data-action]')) choose(g, g.dataset.action === name);
  }
  // While an arrow is pointed at or focused, the tokens its push moves are outlined.
  function preview(svg, name) {
    const moving = name && PUSHED[name] ? ['free', ...PUSHED[name]] : [];
    for (const g of svg.querySelectorAll('g.piece[data-cell]')) {
      const on = moving.includes(g.dataset.cell);
      g.classList.toggle('moving', on);
      const disc = g.querySelector('circle');
      if (disc) { disc.style.stroke = on ? 'var(--landing)' : ''; disc.style.strokeWidth = on ? '4' : ''; disc.style.strokeDasharray = on ? '5 3' : ''; }
    }
  }

  function decorate(svg, screen, ctx) {
    sync(screen);
    const legal = new Map((screen.choices || []).map((c) => [c.name, c]));
    const tokens = screen.state.view.board.tokens;
    for (const g of svg.querySelectorAll('g.push[data-action]')) {
      if (!legal.has(g.dataset.action)) continue;
      actionable(g, actionLabel(g.dataset.action, tokens));
      if (sel.free) choose(g, true);  // the free token is in hand: where it can go
      g.addEventListener('pointerenter', () => preview(svg, g.dataset.action));
      g.addEventListener('focus', () => {  // the keyboard's focus (.board.keys: the page says the keys are in use)
        if (g.matches(':focus-visible') || g.closest('.board.keys')) preview(svg, g.dataset.action);
      });
      for (const off of ['pointerleave', 'blur']) g.addEventListener(off, () => preview(svg, null));
    }
    const pushes = [...legal.keys()].some((n) => n.includes('>'));
    for (const g of svg.querySelectorAll('g.piece[data-cell]')) {
      const cell = g.dataset.cell;
      const moves = cell === 'free' ? pushes : Object.values(ROW_PUSH[cell] || {}).some((n) => legal.has(n));
      if (!moves) continue;
      g.classList.add('draggable');
      if (cell === 'free') g.classList.add(sel.free ? 'selected' : 'choosable');
    }
    svg.addEventListener('pointerdown', (event) => {
      const piece = (event.target.hitFor || event.target).closest('g.piece.draggable[data-cell]');
      if (!piece) return;
      const from = piece.dataset.cell;
      const down = {x: event.clientX, y: event.clientY};
      let at = down;
      const follow = (e) => {
        at = {x: e.clientX, y: e.clientY};
        const now = document.querySelector('#board svg');
        if (!now) return;
        const name = pushFor(now, legal, from, down, at);
        mark(now, name);
        preview(now, name);
      };
      const stop = () => {
        window.removeEventListener('pointermove', follow);
        window.removeEventListener('pointerup', stop);
        window.removeEventListener('pointercancel', stop);
      };
      window.addEventListener('pointermove', follow);
      window.addEventListener('pointerup', stop);
      window.addEventListener('pointercancel', stop);
      drag(event, {
        find: () => document.querySelector(`#board g.piece[data-cell="${CSS.escape(from)}"]`),
        start: () => { sel.free = from === 'free'; ctx.rerender(); },
        drop: (under) => {
          const onArrow = under && under.closest && under.closest('g.push[data-action]');
          const now = document.querySelector('#board svg');
          const name = from === 'free' && onArrow && legal.has(onArrow.dataset.action)
            ? onArrow.dataset.action : (under && now ? pushFor(now, legal, from, down, at) : null);
          if (name) { ctx.play(legal.get(name)); return; }
          sel.free = false;
          ctx.rerender();  // back where it was
        },
      });
    });
    wireClicks(svg, (target) => {
      const push = target.closest && target.closest('g.push[data-action]');
      if (push && legal.has(push.dataset.action)) { ctx.play(legal.get(push.dataset.action)); return; }
      const piece = target.closest && target.closest('g.piece[data-cell="free"].draggable');
      if (piece) { sel.free = !sel.free; ctx.rerender(); return; }
      if (sel.free) { sel.free = false; ctx.rerender(); }
    });
  }

  function stackButton(c, ctx) {
    const armed = Date.now() < armedUntil;
    return h('button', {type: 'button', 'data-move': c.move, 'data-action': c.name, 'aria-describedby': 'stack-warning',
      class: armed ? 'warn armed' : 'warn', onclick: () => {
        if (Date.now() < armedUntil) { armedUntil = 0; ctx.play(c); return; }
        armedUntil = Date.now() + ARMED_MS;
        window.clearTimeout(armedTimer);
        armedTimer = window.setTimeout(() => ctx.rerender(), ARMED_MS + 50);
        ctx.rerender();
      }}, armed ? STACK_ARMED : STACK);
  }

  function controls(screen, ctx) {
    sync(screen);
    const board = screen.state.view.board;
    const you = screen.state.you;
    const box = h('div', {class: 'controls-inner'});
    const choices = screen.choices || [];
    if (choices.length) {
      const pushes = choices.some((c) => c.name.includes('>'));
      const others = choices.filter((c) => !c.name.includes('>'));
      box.append(h('p', {class: 'prompt'}, !pushes ? 'Your action: twist or stack.'
        : sel.free ? 'The free token is in hand: tap an arrow to push it in there.'
          : 'Your action: tap an arrow to push (or drag a token), or twist.'));
      box.append(h('div', {class: 'buttons', role: 'group', 'aria-label': 'Twist and stack'},
        others.map((c) => (c.name === 'stack' ? stackButton(c, ctx)
          : h('button', {type: 'button', 'data-move': c.move, 'data-action': c.name, onclick: () => ctx.play(c)}, actionLabel(c.name))))));
      if (others.some((c) => c.name === 'stack')) {
        box.append(h('p', {class: 'help', id: 'stack-warning'}, 'Stack ends the game for all four players: it asks a second press.'));
      }
    }
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
      box.append(h('p', {class: 'muted'}, 'Everyone acts at once. If someone acts first, your action is refused as stale, and you choose again.'));
    }
    return box;
  }

  function words(board) {
    const t = board.tokens;
    return t ? [`Tokens: NW ${t.NW}, NE ${t.NE}, SW ${t.SW}, SE ${t.SE}, free ${t.free}.`] : [];
  }
  return {decorate, controls, words, reset() { sel.version = -1; armedUntil = 0; }};
}
