// The daily deal page (/daily): today's secret deal of each variant, a table dealt it
// (you, open seats or bots), and each variant's leaderboard. While
// the day lasts a board shows ranks only; once it is over, each table's line, its
// replay and the deal (docs/daily.md). The browser learns nothing else of the deal.
import {api, h, navigate, rememberSeat} from './util.js';

const SEAT_CHOICES = [
  ['you', 'You'],
  // no invite links: every other person takes an open seat with a request of their own
  // (docs/daily.md, the ruling on who sits at a daily table)
  ['open', 'Another person (open seat in the lobby)'],
  ['bot', 'A bot'],
];
//: how often the boards are read again while the page is open (ms)
const REFRESH = 10000;

export function dailyPage(main) {
  document.title = 'Daily deal · Fourfold';
  let alive = true;
  let day = null;
  let bots = [];
  let players = new Map();  // seats per game, from /api/games
  const heading = h('h1', {id: 'daily-h'}, 'Daily deal');
  const intro = h('p', {class: 'muted'}, 'Loading today\u2019s deals\u2026');
  const picker = h('input', {type: 'date', id: 'daily-day', 'aria-label': 'Day (UTC)'});
  const deals = h('div', {class: 'daily-deals', id: 'daily-deals'});
  main.append(h('section', {class: 'panel daily', 'aria-labelledby': 'daily-h'}, heading, intro,
    h('p', {}, h('label', {for: 'daily-day'}, 'Leaderboards of the day '), picker), deals));

  async function load() {
    const [today, games] = await Promise.all([api('/api/daily'), api('/api/games')]);
    if (!alive) return;
    if (!today.ok) { intro.textContent = `Cannot load the daily deals: ${today.error}`; return; }
    bots = games.ok ? games.data.bots : [];
    players = new Map(games.ok ? games.data.games.map((g) => [g.game, g.players]) : []);
    day = day || today.data.day;
    picker.max = today.data.day;
    picker.value = day;
    heading.textContent = `Daily deal \u00b7 ${today.data.day}`;
    intro.textContent = 'One secret deal a day for each variant, the same at every table that '
      + 'plays it. Until the day ends (midnight UTC) only a table\u2019s own players see its '
      + 'game, and the leaderboards show ranks alone; then they show every line and the deal.';
    deals.replaceChildren(...today.data.deals.map((d) => dealPanel(d, today.data.day)));
    refresh();
  }

  function dealPanel(d, today) {
    const id = `daily-${d.variant}`;
    const board = h('div', {class: 'board', id: `${id}-board`}, 'Loading\u2026');
    const play = day === today ? playForm(d) : h('p', {class: 'muted'}, 'This day is over.');
    return h('section', {class: 'daily-deal', id, 'data-game': d.game, 'data-variant': d.variant, 'aria-labelledby': `${id}-h`},
      h('h2', {id: `${id}-h`}, `${d.title}: ${d.variant}`), h('p', {class: 'muted'}, d.summary),
      play, board);
  }

  function playForm(d) {
    const prefix = `daily-${d.variant}-seat`;
    const rows = Array.from({length: players.get(d.game) || 2}, (_, i) => {
      const kind = h('select', {id: `${prefix}-${i}`, 'data-seat': i},
        SEAT_CHOICES.map(([value, label]) => h('option', {value, selected: value === (i === 0 ? 'you' : 'bot')}, label)));
      const level = h('select', {id: `${prefix}-${i}-bot`, 'aria-label': `Seat ${i + 1} bot`},
        (d.bots || bots).map((b, k) => h('option', {value: b, selected: k === 0}, b)));  // the game's own bot first
      const sync = () => { level.hidden = kind.value !== 'bot'; };
      kind.addEventListener('change', sync);
      sync();
      return h('div', {class: 'seat-row'}, h('label', {for: `${prefix}-${i}`}, `Seat ${i + 1}`), kind, level);
    });
    const error = h('p', {class: 'error', role: 'alert'});
    const result = h('div', {class: 'result', 'aria-live': 'polite'});
    const form = h('form', {class: 'daily-play', novalidate: true},
      h('fieldset', {class: 'seats'}, h('legend', {}, 'Who plays'), ...rows),
      h('p', {}, h('button', {type: 'submit', class: 'primary'}, `Play today\u2019s ${d.variant} deal`)),
      error, result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.textContent = '';
      const kinds = rows.map((row) => row.querySelector('select[data-seat]').value);
      const seats = kinds.map((k, i) => k === 'bot' ? `bot:${document.getElementById(`${prefix}-${i}-bot`).value}`
        : k === 'open' ? 'open' : 'human');
      const r = await api(`/api/daily/${d.game}/${d.variant}`, {method: 'POST', body: {seats}});
      if (!r.ok) { error.textContent = `The table was not made: ${r.error}`; return; }
      const label = `Daily ${d.title} (${d.variant})`;
      const yours = r.data.seats.filter((s) => kinds[s.seat] === 'you');
      yours.forEach((s) => rememberSeat(r.data.id, s.token, `${label}, seat ${s.seat + 1}`));
      if (yours.length) { navigate(yours[0].url); return; }
      // no seat of yours: the people take the open seats from the lobby
      result.replaceChildren(h('p', {}, 'The table is made: its open seats wait in the ',
        h('a', {href: '/', 'data-nav': true}, 'lobby'), '.'));
    });
    return form;
  }

  async function refresh() {
    for (const panel of deals.querySelectorAll('.daily-deal')) {
      const variant = panel.dataset.variant;
      const r = await api(`/api/daily/${panel.dataset.game}/${variant}?day=${day}`);
      if (!alive) return;
      const box = panel.querySelector('.board');
      box.replaceChildren(...(r.ok ? boardView(r.data) : [h('p', {class: 'error'}, r.error)]));
    }
  }

  picker.addEventListener('change', () => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(picker.value)) return;
    day = picker.value;
    load();
  });
  load();
  const timer = window.setInterval(() => { if (alive && day) refresh(); }, REFRESH);
  return () => { alive = false; window.clearInterval(timer); };
}

function minutes(seconds) {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function boardView(b) {
  const counts = h('p', {class: 'counts'},
    `${b.tables} table${b.tables === 1 ? '' : 's'}, ${b.playing} playing, `
    + `${b.finished} finished, ${b.solved} solved.`);
  const out = [h('h3', {}, b.ended ? `Results of ${b.day}` : `Leaderboard of ${b.day} (lines shown when the day ends)`), counts];
  if (!b.entries.length) {
    out.push(h('p', {class: 'muted'}, b.ended ? 'No table finished that day.' : 'No table has finished yet.'));
    return out;
  }
  const head = ['Rank', 'Solved', 'Actions', 'Time', 'Players'].concat(b.ended ? ['Line', 'Replay'] : []);
  out.push(h('table', {class: 'leaderboard'},
    h('thead', {}, h('tr', {}, head.map((t) => h('th', {scope: 'col'}, t)))),
    h('tbody', {}, b.entries.map((e) => h('tr', {},
      h('td', {}, String(e.rank)), h('td', {}, e.solved ? 'yes' : 'no'), h('td', {}, String(e.actions)),
      h('td', {}, minutes(e.seconds)), h('td', {}, e.players.join(', ')),
      ...(b.ended ? [h('td', {class: 'line'}, e.line.join(' ')),
        h('td', {}, h('a', {href: e.replay, 'data-nav': true, 'aria-label': `Replay of rank ${e.rank}`}, 'Replay'))] : []))))));
  if (b.ended && b.deal) out.push(h('p', {class: 'deal'}, 'The deal: ', h('code', {}, b.deal)));
  return out;
}
