// The explorer of solved games (issue 32; server/explorer): from a position, every legal
// move with its value for the player making it and the distance to the end under
// perfect play, coloured like GamesmanUni (win green, draw yellow, loss red, each also
// said in words). Click a move to go on from the position it leads to.
// /explore: choose a game; /explore/<game>?variant=V&position=P: a position.
import {api, h, navigate} from './util.js';

const STYLE = {
  win: 'background: #d9efd9; border-color: #1b5e20; color: #10361a',
  draw: 'background: #fbf0c4; border-color: #7a5c00; color: #3d2e00',
  loss: 'background: #f6d6d6; border-color: #a31515; color: #4a0b0b',
  unknown: 'background: #f0ede6; border-color: #8a8272; color: #1d1b18',
};

function valueText(m) {
  if (m.value === 'unknown') return 'not solved';
  if (m.value === 'draw' || m.distance === null || m.distance === undefined) return m.value;
  return `${m.value} in ${m.distance}`;
}

function url(game, variant, position) {
  const q = new URLSearchParams();
  if (variant) q.set('variant', variant);
  if (position) q.set('position', position);
  const s = q.toString();
  return `/explore/${game}${s ? `?${s}` : ''}`;
}

export function explorePage(main, game) {
  let alive = true;
  const title = h('h1', {}, 'Explorer');
  const status = h('p', {class: 'turn', id: 'explore-status', 'aria-live': 'polite'}, 'Loading…');
  main.append(h('div', {class: 'table-page'}, h('div', {class: 'table-head'}, title, status)));
  if (!game) {
    chooser();
    return () => { alive = false; };
  }
  const params = new URLSearchParams(location.search);
  const variant = params.get('variant');
  const position = params.get('position');
  const board = h('div', {class: 'board', id: 'explore-board'});
  const moves = h('ul', {class: 'explore-moves', id: 'explore-moves', style: 'list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem'});
  const where = h('p', {class: 'muted', id: 'explore-where'});
  main.append(h('div', {class: 'table-layout'},
    h('div', {class: 'board-col'}, board),
    h('div', {class: 'side-col'},
      h('h2', {class: 'small-h'}, 'Every legal move (values for the player making it)'), moves, where,
      h('p', {}, h('a', {href: url(game, variant, null), 'data-nav': true, id: 'explore-start'}, 'Back to the start'), ' · ',
        h('a', {href: '/explore', 'data-nav': true}, 'Another game')),
      h('p', {class: 'muted small'}, 'Green: the move wins; yellow: it draws; red: it loses, for the player making it, with the number of plies to the end under perfect play.'))));

  async function load() {
    status.textContent = 'The solver is working this position out…';
    const q = new URLSearchParams();
    if (variant) q.set('variant', variant);
    if (position) q.set('position', position);
    const r = await api(`/api/explore/${encodeURIComponent(game)}?${q}`);
    if (!alive) return;
    if (!r.ok) { status.textContent = `No values: ${r.error}.`; return; }
    const d = r.data;
    title.textContent = `Explorer: ${game} (${d.variant})`;
    document.title = `${title.textContent} · Fourfold`;
    status.textContent = d.error ? `${d.to_move} to move; ${d.error}. Pick a move to go deeper.`
      : `${d.to_move} to move: ${valueText(d)}${d.exact ? '' : ' (as far as the solver proved)'}.`;
    board.innerHTML = d.svg;
    const s = board.querySelector('svg');
    if (s) { s.removeAttribute('width'); s.removeAttribute('height'); }
    where.textContent = `Position: ${d.position}`;
    moves.replaceChildren(...d.moves.map((m) => {
      const label = `${m.move}: ${valueText(m)}`;
      const attrs = {class: `explore-move ${m.value}`, 'data-value': m.value, 'data-move': m.move,
        style: `${STYLE[m.value] || STYLE.unknown}; border: 2px solid; border-radius: .4rem; padding: .35rem .6rem; min-height: 44px; display: inline-block; text-decoration: none`};
      const body = [h('strong', {}, m.move), ` ${valueText(m)}`];
      return h('li', {}, m.ends ? h('span', {...attrs, title: 'This move ends the game'}, ...body, ' (ends the game)')
        : h('a', {...attrs, href: url(game, d.variant, m.after), 'data-nav': true, 'aria-label': label}, ...body));
    }));
  }

  load();
  return () => { alive = false; };

  async function chooser() {
    const r = await api('/api/explore');
    if (!alive) return;
    if (!r.ok) { status.textContent = `The explorer is not available: ${r.error}.`; return; }
    status.textContent = 'Choose a solved game: every legal move of a position with its value and distance.';
    main.append(h('ul', {id: 'explore-games'}, ...r.data.games.flatMap((g) => g.variants.map((v) =>
      h('li', {}, h('a', {href: url(g.game, v.variant, null), 'data-nav': true}, `${g.title} (${v.variant})`),
        h('span', {class: 'muted'}, ` · ${v.solver}`))))));
  }
}
