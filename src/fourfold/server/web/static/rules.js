// The rules of each game: the project's own text (rules.md), with a picture of each
// variant's start drawn by the server.
import {api, h} from './util.js';
import {markdown} from './markdown.js';

export function rulesPage(main, game) {
  const variant = new URLSearchParams(location.search).get('variant');
  let alive = true;
  const tabs = h('nav', {class: 'tabs', 'aria-label': 'Games'});
  const body = h('article', {class: 'rules', id: 'rules'}, h('p', {}, 'Loading the rules…'));
  const pictures = h('div', {class: 'pictures', id: 'pictures'});
  const heading = h('h1', {class: 'rules-title'}, 'Rules');
  main.append(heading, tabs, h('div', {class: 'rules-layout'}, body, pictures));
  // the games, their titles and order come from the server (/api/games)
  api('/api/games').then((r) => {
    if (!alive || !r.ok) return;
    const games = r.data.games;
    if (!game && games.length) {  // /rules: the first game's
      history.replaceState(null, '', `/rules/${games[0].game}`);
      window.dispatchEvent(new Event('fourfold:navigate'));
      return;
    }
    tabs.replaceChildren(...games.map((g) =>
      h('a', {href: `/rules/${g.game}`, 'data-nav': true, 'aria-current': g.game === game ? 'page' : null}, g.title)));
  });
  if (!game) return () => { alive = false; };
  api(`/api/games/${game}/rules${variant ? `?variant=${encodeURIComponent(variant)}` : ''}`).then((r) => {
    if (!alive) return;
    if (!r.ok) { body.replaceChildren(h('p', {}, `No rules: ${r.error}.`)); return; }
    document.title = `${r.data.title} rules · Fourfold`;
    heading.textContent = `${r.data.title}: the rules`;
    body.replaceChildren(markdown(r.data.text));
    pictures.replaceChildren(h('h2', {}, 'Start positions'), ...r.data.variants.map((v) => h('figure', {},
      h('img', {src: `/api/games/${game}/picture?variant=${v}`, alt: `${r.data.title} ${v}: the start position`, loading: 'lazy'}),
      h('figcaption', {}, v))));
  });
  return () => { alive = false; };
}
