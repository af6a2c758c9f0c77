// The lobby: create a table (game, variant, options and rulings, seats, clock), invite
// links per seat, open tables to join, live tables to watch, and this browser's tables.
import {absolute, api, copyButton, gameTitle, h, navigate, rememberSeat, rememberedSeats, seatName} from './util.js';

//: a live table nobody has moved at for this long leaves the lobby's list (seconds)
const QUIET = 30 * 60;
//: an open seat waits this long in the list
const OPEN_FOR = 24 * 3600;

const SEAT_CHOICES = [
  ['you', 'You'],
  ['friend', 'A friend (invite link)'],
  ['open', 'Anyone (open seat in the lobby)'],
  ['bot', 'A bot'],
];

export function lobbyPage(main) {
  document.title = 'Fourfold · Lobby';
  let alive = true;
  const createBox = h('section', {class: 'panel create', 'aria-labelledby': 'create-h'},
    h('h1', {id: 'create-h'}, 'New table'), h('p', {}, 'Loading the games…'));
  const listBox = h('section', {class: 'panel tables', 'aria-labelledby': 'tables-h'},
    h('h2', {id: 'tables-h'}, 'Tables'), h('div', {id: 'lobby-list'}, 'Loading…'));
  const mine = h('section', {class: 'panel mine', 'aria-labelledby': 'mine-h'},
    h('h2', {id: 'mine-h'}, 'Your tables in this browser'), yourTables());
  const daily = h('section', {class: 'panel daily-link', 'aria-labelledby': 'daily-link-h'},
    h('h2', {id: 'daily-link-h'}, 'Daily deal'),
    h('p', {}, 'Today\u2019s secret Quatrefoil deal, the same at every table: ',
      h('a', {href: '/daily', 'data-nav': true}, 'play it and race the other tables')));
  main.append(h('div', {class: 'lobby'}, createBox, h('div', {class: 'lobby-side'}, daily, listBox, mine)));

  api('/api/games').then((r) => {
    if (!alive) return;
    if (!r.ok) { createBox.lastChild.textContent = `Cannot load the games: ${r.error}`; return; }
    createBox.lastChild.replaceWith(createForm(r.data));
  });
  const refreshList = async () => {
    const [r, titles] = await Promise.all([api('/api/lobby'), titlesOf()]);
    if (!alive) return;
    const box = document.getElementById('lobby-list');
    if (box) box.replaceChildren(r.ok ? tableList(r.data.tables, titles) : h('p', {}, `Cannot load the lobby: ${r.error}`));
    // "your tables" too: a table made in another tab shows up here
    const yours = mine.querySelector('.yours');
    if (yours) yours.replaceWith(yourTables());
  };
  refreshList();
  const timer = window.setInterval(refreshList, 5000);
  // a seat taken in another tab of this browser shows up at once
  const stored = (event) => {
    if (event.key !== 'fourfold.seats') return;
    const yours = mine.querySelector('.yours');
    if (yours) yours.replaceWith(yourTables());
  };
  window.addEventListener('storage', stored);
  return () => { alive = false; window.clearInterval(timer); window.removeEventListener('storage', stored); };
}

/** The games' titles as people write them, from /api/games. */
async function titlesOf() {
  const r = await api('/api/games');
  return new Map(r.ok ? r.data.games.map((g) => [g.game, g.title]) : []);
}

function yourTables() {
  const seats = rememberedSeats();
  if (!seats.length) return h('p', {class: 'muted yours'}, 'None yet. Tables you create or join appear here.');
  return h('ul', {class: 'plain yours'}, seats.slice(0, 10).map(([id, s]) =>
    h('li', {}, h('a', {href: `/t/${id}#seat=${s.token}`, 'data-nav': true}, s.label || id))));
}

function tableList(tables, titles) {
  const now = Date.now() / 1000;
  const fresh = (t, seconds) => !t.updated_at || now - t.updated_at < seconds;
  const open = tables.filter((t) => t.status === 'open' && t.open_seats.length && fresh(t, OPEN_FOR));
  const live = tables.filter((t) => t.status === 'live' && fresh(t, QUIET));
  const describe = (t) => `${titles.get(t.game) || t.game} (${t.variant}): ${t.seats.map((s) => s.kind === 'open' ? 'open seat' : seatName(t, s.seat)).join(', ')}${t.known_deal ? ' (known deal: not ranked)' : ''}`;
  const openList = open.length ? h('ul', {class: 'plain'}, open.map((t) => h('li', {},
    describe(t), ' ',
    h('button', {type: 'button', class: 'small', onclick: () => join(t)}, `Join (seat ${t.open_seats[0] + 1})`), ' ',
    h('a', {href: `/t/${t.id}`, 'data-nav': true}, 'Watch'))))
    : h('p', {class: 'muted'}, 'No open seats right now.');
  const liveList = live.length ? h('ul', {class: 'plain'}, live.map((t) => h('li', {},
    describe(t), ' ', h('a', {href: `/t/${t.id}`, 'data-nav': true, 'aria-label': `Watch ${describe(t)}`}, 'Watch'))))
    : h('p', {class: 'muted'}, 'No live games right now.');
  return h('div', {}, h('h3', {}, 'Open seats'), openList, h('h3', {}, 'Live games'), liveList);
}

async function join(t) {
  const r = await api(`/api/tables/${t.id}/join`, {method: 'POST', body: {}});
  if (!r.ok) { window.alert(`Could not join: ${r.error}`); return; }
  rememberSeat(t.id, r.data.token, `${await gameTitle(t.game)} (${t.variant}), seat ${r.data.seat + 1}`);
  navigate(`/t/${t.id}#seat=${r.data.token}`);
}

function createForm(catalogue) {
  const games = catalogue.games;
  const bots = catalogue.bots;
  const form = h('form', {class: 'create-form', novalidate: true});
  const gameSel = h('select', {id: 'f-game', name: 'game'}, games.map((g) => h('option', {value: g.game}, g.title)));
  const variantSel = h('select', {id: 'f-variant', name: 'variant'});
  const summary = h('p', {class: 'muted', id: 'f-summary'});
  const options = h('div', {class: 'options', id: 'f-options'});
  const rulings = h('details', {class: 'rulings'}, h('summary', {}, 'Rulings for this game'), h('div', {}, ''));
  const rulesLink = h('a', {href: '/rules', 'data-nav': true, id: 'f-rules'}, 'Read the rules');
  const seats = h('fieldset', {class: 'seats', id: 'f-seats'});
  const clockOn = h('input', {type: 'checkbox', id: 'f-clock'});
  const base = h('input', {type: 'number', id: 'f-base', min: '0.5', max: '120', step: '0.5', value: '5', inputmode: 'decimal'});
  const inc = h('input', {type: 'number', id: 'f-inc', min: '0', max: '60', step: '1', value: '3', inputmode: 'numeric'});
  const clockBox = h('fieldset', {class: 'clock-set', id: 'f-clockbox'}, h('legend', {}, 'Clock'),
    h('p', {}, h('label', {}, clockOn, ' Play with a clock')),
    h('label', {}, 'Minutes each ', base), ' ', h('label', {}, 'Seconds added per move ', inc));
  const privateBox = h('input', {type: 'checkbox', id: 'f-private'});
  const result = h('div', {class: 'result', id: 'f-result', 'aria-live': 'polite'});
  const error = h('p', {class: 'error', role: 'alert', id: 'f-error'});

  const game = () => games.find((g) => g.game === gameSel.value);
  const variant = () => game().variants.find((v) => v.variant === variantSel.value);

  function fillVariants() {
    variantSel.replaceChildren(...game().variants.map((v) => h('option', {value: v.variant}, v.variant)));
    fillSeats();
    fillOptions();
  }
  function fillOptions() {
    const v = variant();
    summary.textContent = v.summary;
    rulesLink.href = `/rules/${game().game}?variant=${v.variant}`;
    rulesLink.textContent = `Read the ${game().title} rules (${v.variant})`;
    options.replaceChildren(...v.options.map((o) => {
      const id = `opt-${o.option}`;
      const input = o.choices.length
        ? h('select', {id, 'data-option': o.option}, o.choices.map((c) => h('option', {value: c, selected: c === o.default}, c)))
        : h('input', {id, 'data-option': o.option, value: o.default, 'aria-describedby': `${id}-help`});
      return h('div', {class: 'option'}, h('label', {for: id}, spoken(o.option)), input, h('p', {class: 'help', id: `${id}-help`}, o.help));
    }));
    if (!v.options.length) options.append(h('p', {class: 'muted'}, 'No options for this variant.'));
    const perPlayer = game().players === 2;
    clockBox.hidden = !perPlayer;
    rulings.lastChild.textContent = 'Loading…';
    api(`/api/games/${game().game}/rules?variant=${v.variant}`).then((r) => {
      if (!r.ok) { rulings.lastChild.textContent = r.error; return; }
      rulings.querySelector('summary').textContent = `Rulings (${r.data.rulings.length})`;
      rulings.lastChild.replaceChildren(...(r.data.rulings.length ? r.data.rulings.map((t) => h('p', {}, t.replace(/\*\*/g, '')))
        : [h('p', {}, 'None: the original rules say it all.')]));
    });
  }
  function fillSeats() {
    const g = game();
    const offered = variant().bots || bots;  // only the bots that play this variant
    const defaultBot = offered.includes('level2') ? 'level2' : offered[0];
    seats.replaceChildren(h('legend', {}, `Seats (${g.players})`), ...Array.from({length: g.players}, (_, i) => {
      const kind = h('select', {id: `seat-${i}`, 'data-seat': i},
        SEAT_CHOICES.map(([value, label]) => h('option', {value, selected: value === (i === 0 ? 'you' : 'bot')}, label)));
      const level = h('select', {id: `seat-${i}-bot`, 'aria-label': `Seat ${i + 1} bot`},
        offered.map((b) => h('option', {value: b, selected: b === defaultBot}, spoken(b))));
      const sync = () => { level.hidden = kind.value !== 'bot'; };
      kind.addEventListener('change', sync);
      sync();
      return h('div', {class: 'seat-row'}, h('label', {for: `seat-${i}`}, `Seat ${i + 1}`), kind, level);
    }));
  }
  gameSel.addEventListener('change', fillVariants);
  variantSel.addEventListener('change', () => { fillOptions(); fillSeats(); });

  form.append(
    h('div', {class: 'row'}, h('label', {for: 'f-game'}, 'Game'), gameSel),
    h('div', {class: 'row'}, h('label', {for: 'f-variant'}, 'Variant'), variantSel),
    summary, h('p', {}, rulesLink), options, rulings, seats, clockBox,
    h('p', {}, h('label', {}, privateBox, ' Private: invite links only, not listed in the lobby')),
    // the button stays in sight at the bottom of the window, with what went wrong
    h('div', {class: 'submit-row'}, h('button', {type: 'submit', class: 'primary', id: 'f-create'}, 'Create the table'), error),
    result);
  fillVariants();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const g = game();
    const opts = {};
    for (const input of options.querySelectorAll('[data-option]')) {
      const o = variant().options.find((x) => x.option === input.dataset.option);
      if (input.value !== o.default) opts[input.dataset.option] = input.value;
    }
    const kinds = [...seats.querySelectorAll('select[data-seat]')].map((s) => s.value);
    const seatSpec = kinds.map((k, i) => k === 'bot' ? `bot:${document.getElementById(`seat-${i}-bot`).value}`
      : k === 'open' ? 'open' : 'human');
    const body = {game: g.game, variant: variantSel.value, options: opts, seats: seatSpec, private: privateBox.checked};
    if (!clockBox.hidden && clockOn.checked) {
      body.clock = {base: Math.round(parseFloat(base.value) * 60), increment: parseFloat(inc.value) || 0};
      if (!(body.clock.base > 0)) { error.textContent = 'Give the clock a number of minutes.'; return; }
    }
    const r = await api('/api/tables', {method: 'POST', body});
    if (!r.ok) { error.textContent = `The table was not made: ${r.error}`; return; }
    const made = r.data;
    const label = `${g.title} (${variantSel.value})`;
    const yours = made.seats.filter((s) => kinds[s.seat] === 'you');
    yours.forEach((s) => rememberSeat(made.id, s.token, `${label}, seat ${s.seat + 1}`));
    const friends = made.seats.filter((s) => kinds[s.seat] === 'friend');
    if (yours.length === 1 && !friends.length) { navigate(yours[0].url); return; }
    showLinks(result, made, kinds, label);
  });
  return form;
}

/** A name from the API as people write it: "line-rule" -> "Line rule", "level2" -> "Level 2". */
function spoken(name) {
  const text = name.replace(/-/g, ' ').replace(/^level(\d+)$/, 'level $1');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function showLinks(box, made, kinds, label) {
  const rows = made.seats.map((s) => {
    const kind = kinds[s.seat];
    if (kind === 'bot') return h('li', {}, `Seat ${s.seat + 1}: a bot`);
    if (kind === 'open') return h('li', {}, `Seat ${s.seat + 1}: open to anyone in the lobby`);
    const url = absolute(s.url);
    const input = h('input', {readonly: true, value: url, class: 'link', 'aria-label': `Invite link for seat ${s.seat + 1}`});
    return h('li', {}, `Seat ${s.seat + 1} (${kind === 'you' ? 'you' : 'a friend'}): `,
      kind === 'you' ? h('a', {href: s.url, 'data-nav': true}, 'Open your seat') : '', ' ',
      input, ' ', copyButton(() => url, 'Copy link'));
  });
  const watch = absolute(made.url);
  box.replaceChildren(h('h2', {}, `${label}: table ${made.id}`),
    h('p', {}, 'Send each friend their own seat link: whoever holds a link plays that seat.'),
    h('ul', {class: 'plain links'}, rows),
    h('p', {}, 'Spectators: ', h('a', {href: made.url, 'data-nav': true}, watch), ' ', copyButton(() => watch, 'Copy')));
  box.scrollIntoView({block: 'start'});
}
