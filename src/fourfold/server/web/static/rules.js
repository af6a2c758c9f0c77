// The rules of each game: the project's own text (rules.md), with a picture of each
// variant's start drawn by the server.
import {api, h} from './util.js';
import {markdown} from './markdown.js';

const GAMES = [['folio', 'Folio'], ['icedao', 'Ice Dao'], ['quatrefoil', 'Quatrefoil'], ['quarto', 'Quarto'], ['dao', 'Dao']];

export function rulesPage(main, game) {
  const variant = new URLSearchParams(location.search).get('variant');
  let alive = true;
  const tabs = h('nav', {class: 'tabs', 'aria-label': 'Games'}, GAMES.map(([g, t]) =>
    h('a', {href: `/rules/${g}`, 'data-nav': true, 'aria-current': g === game ? 'page' : null}, t)));
  const body = h('article', {class: 'rules', id: 'rules'}, h('p', {}, 'Loading the rules…'));
  const pictures = h('div', {class: 'pictures', id: 'pictures'});
  main.append(tabs, h('div', {class: 'rules-layout'}, body, pictures));
  api(`/api/games/${game}/rules${variant ? `?variant=${encodeURIComponent(variant)}` : ''}`).then((r) => {
    if (!alive) return;
    if (!r.ok) { body.replaceChildren(h('p', {}, `No rules: ${r.error}.`)); return; }
    document.title = `${r.data.title} rules · Fourfold`;
    body.replaceChildren(markdown(r.data.text));
    pictures.replaceChildren(h('h2', {}, 'Start positions'), ...r.data.variants.map((v) => h('figure', {},
      h('img', {src: `/api/games/${game}/picture?variant=${v}`, alt: `${r.data.title} ${v}: the start position`, loading: 'lazy'}),
      h('figcaption', {}, v))));
  });
  return () => { alive = false; };
}
