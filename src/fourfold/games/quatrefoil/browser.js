// The browser controller of Quatrefoil: named actions (pushes on the picture's arrows
// or buttons, twists, and Stack, which ends the game for everyone and so asks a second
// tap), the seat's own face-up cards and the last signals. The protocol is in
// fourfold/server/web/static/controllers.js.

const ACTION_WORDS = {cw: 'Twist clockwise', ccw: 'Twist anticlockwise'};
const STACK = 'Stack (ends the game for everyone)';
const STACK_ARMED = 'Tap again to stack: the game ends for everyone';
const SIDES = {W: 'west', E: 'east', N: 'north', S: 'south'};

function actionLabel(name) {
  if (name === 'stack') return 'Stack: swap the free token with the centre, which ends the game for everyone';
  if (ACTION_WORDS[name]) return ACTION_WORDS[name];
  const [side, corner] = name.split('>');
  return `Push ${name}: the free token goes in at ${corner}, from the ${SIDES[side] || side}`;
}

export default function controller(kit) {
  const {h, actionable, wireClicks, seatName, confirmButton} = kit;

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
      box.append(h('p', {class: 'muted'}, 'Everyone acts at once. If someone acts first, your action is refused as stale, and you choose again.'));
    }
    const choices = screen.choices || [];
    if (choices.length) {
      const pushes = choices.filter((c) => c.name.includes('>'));
      const others = choices.filter((c) => !c.name.includes('>'));
      box.append(h('p', {class: 'prompt'}, 'Your action: tap an arrow on the picture, or a button.'));
      box.append(h('div', {class: 'buttons', role: 'group', 'aria-label': 'Twist and stack'},
        others.map((c) => (c.name === 'stack'
          ? confirmButton({'data-move': c.move, 'data-action': c.name, class: 'warn'}, STACK, STACK_ARMED, () => ctx.play(c))
          : h('button', {type: 'button', 'data-move': c.move, 'data-action': c.name, onclick: () => ctx.play(c)}, actionLabel(c.name))))));
      box.append(h('div', {class: 'buttons pushes', role: 'group', 'aria-label': 'Pushes'},
        pushes.map((c) => h('button', {type: 'button', 'data-move': c.move, 'data-action': c.name, 'aria-label': actionLabel(c.name), onclick: () => ctx.play(c)}, `Push ${c.name}`))));
    }
    return box;
  }
  function words(board) {
    const t = board.tokens;
    return t ? [`Tokens: NW ${t.NW}, NE ${t.NE}, SW ${t.SW}, SE ${t.SE}, free ${t.free}.`] : [];
  }
  return {decorate, controls, words, reset() {}};
}
