// The Fourfold browser app: one page, routed here. The browser holds no rules: every
// legal move comes from the server (see docs/browser.md).
// Each page's module is loaded when it is first shown (so a table's first visit fetches
// the table's modules, not the lobby's or the puzzles'); the server preloads the ones a
// path needs (pages.py).
import {h, navigate} from './util.js';
import {setSound, soundOn} from './sound.js';

const PAGES = {
  lobby: () => import('./lobby.js').then((m) => m.lobbyPage),
  table: () => import('./table.js').then((m) => m.tablePage),
  replay: () => import('./replay.js').then((m) => m.replayPage),
  daily: () => import('./daily.js').then((m) => m.dailyPage),
  explore: () => import('./explore.js').then((m) => m.explorePage),
  puzzles: () => import('./puzzles.js').then((m) => m.puzzlesPage),
  rules: () => import('./rules.js').then((m) => m.rulesPage),
};

const main = document.getElementById('main');
let leave = null;
let shownPath = null;
let shown = 0;  // counts the pages shown: a module that arrives late is for this one only

/** The page for this path, as [its loader, its arguments], or null. */
function pageFor(path) {
  let m;
  if (path === '/' || path === '/new') return [PAGES.lobby, []];
  if ((m = path.match(/^\/t\/([A-Za-z0-9]{1,64})$/))) return [PAGES.table, [m[1]]];
  if ((m = path.match(/^\/replay\/([A-Za-z0-9]{1,64})$/))) return [PAGES.replay, [m[1]]];
  if (path === '/daily') return [PAGES.daily, []];
  if (path === '/explore') return [PAGES.explore, [null]];
  if ((m = path.match(/^\/explore\/([a-z0-9_-]{1,40})$/))) return [PAGES.explore, [m[1]]];
  if (path === '/puzzles') return [PAGES.puzzles, [null]];
  if ((m = path.match(/^\/puzzles\/([a-z0-9]{1,40})$/))) return [PAGES.puzzles, [m[1]]];
  if (path === '/rules') return [PAGES.rules, [null]];
  if ((m = path.match(/^\/rules\/([a-z0-9_-]{1,40})$/))) return [PAGES.rules, [m[1]]];
  return null;
}

function route() {
  const path = location.pathname;
  // the explorer's position is in its query: a new one is a new page
  const key = path.startsWith('/explore/') ? path + location.search : path;
  if (key === shownPath) return;
  if (leave) { try { leave(); } catch (err) { /* page already gone */ } }
  leave = null;
  shownPath = key;
  const mine = ++shown;
  const page = pageFor(path);
  main.replaceChildren();
  if (!page) {
    document.title = 'Not found · Fourfold';
    main.append(h('h1', {}, 'No such page'), h('p', {}, h('a', {href: '/', 'data-nav': true}, 'Back to the lobby')));
    return;
  }
  const [load, args] = page;
  load().then((open) => {
    if (mine !== shown) return;  // the person went elsewhere meanwhile
    leave = open(main, ...args);
  }, () => {
    if (mine !== shown) return;
    main.replaceChildren(h('h1', {}, 'The page did not load'),
      h('p', {}, 'Check the connection and reload the page.'));
  });
}

function force() { shownPath = null; route(); }

document.addEventListener('click', (event) => {
  const link = event.target.closest && event.target.closest('a[data-nav]');
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});
window.addEventListener('popstate', force);
window.addEventListener('hashchange', force);
window.addEventListener('fourfold:navigate', force);

// Sounds: on by default, the mute remembered.
const sound = document.getElementById('sound-toggle');
sound.checked = soundOn();
sound.addEventListener('change', () => setSound(sound.checked));

// Colour-blind aids: on by default, remembered.
const toggle = document.getElementById('cb-toggle');
const stored = localStorage.getItem('fourfold.cb');
const on = stored === null ? true : stored === '1';
toggle.checked = on;
document.body.classList.toggle('cb', on);
toggle.addEventListener('change', () => {
  document.body.classList.toggle('cb', toggle.checked);
  localStorage.setItem('fourfold.cb', toggle.checked ? '1' : '0');
});

route();
