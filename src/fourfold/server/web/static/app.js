// The Fourfold browser app: one page, routed here. The browser holds no rules: every
// legal move comes from the server (see docs/browser.md).
import {lobbyPage} from './lobby.js';
import {tablePage} from './table.js';
import {replayPage} from './replay.js';
import {rulesPage} from './rules.js';
import {dailyPage} from './daily.js';
import {puzzlesPage} from './puzzles.js';
import {explorePage} from './explore.js';
import {h, navigate} from './util.js';
import {setSound, soundOn} from './sound.js';

const main = document.getElementById('main');
let leave = null;
let shownPath = null;

function route() {
  const path = location.pathname;
  // the explorer's position is in its query: a new one is a new page
  const key = path.startsWith('/explore/') ? path + location.search : path;
  if (key === shownPath && leave) return;
  if (leave) { try { leave(); } catch (err) { /* page already gone */ } }
  leave = null;
  shownPath = key;
  main.replaceChildren();
  let m;
  if (path === '/' || path === '/new') leave = lobbyPage(main);
  else if ((m = path.match(/^\/t\/([A-Za-z0-9]{1,64})$/))) leave = tablePage(main, m[1]);
  else if ((m = path.match(/^\/replay\/([A-Za-z0-9]{1,64})$/))) leave = replayPage(main, m[1]);
  else if (path === '/daily') leave = dailyPage(main);
  else if (path === '/explore') leave = explorePage(main, null);
  else if ((m = path.match(/^\/explore\/([a-z0-9_-]{1,40})$/))) leave = explorePage(main, m[1]);
  else if (path === '/puzzles') leave = puzzlesPage(main, null);
  else if ((m = path.match(/^\/puzzles\/([a-z0-9]{1,40})$/))) leave = puzzlesPage(main, m[1]);
  else if (path === '/rules') leave = rulesPage(main, null);
  else if ((m = path.match(/^\/rules\/([a-z0-9_-]{1,40})$/))) leave = rulesPage(main, m[1]);
  else {
    document.title = 'Not found · Fourfold';
    main.append(h('h1', {}, 'No such page'), h('p', {}, h('a', {href: '/', 'data-nav': true}, 'Back to the lobby')));
  }
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
