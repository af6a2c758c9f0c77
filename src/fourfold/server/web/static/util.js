// Shared helpers: DOM building, the API client, announcements, seat links, settings.

/** Build an element: h('button', {class: 'x', onclick: f}, 'text', child...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Call the API; never throws: {ok, status, data, error}. */
export async function api(path, {method = 'GET', token = null, body, text = false} = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body),
                                   cache: 'no-store'});
  } catch (err) {
    response = null;
  }
  return answer(response, text);
}

/** `api`'s answer from a fetch's response (null: the fetch failed). */
async function answer(response, text = false) {
  if (!response) return {ok: false, status: 0, data: null, error: 'the server is not answering (check your connection)'};
  let data = null;
  try {
    data = text ? await response.text() : await response.json();
  } catch (err) {
    data = null;
  }
  const error = response.ok ? null : (data && data.error) || `the server answered ${response.status}`;
  return {ok: response.ok, status: response.status, data, error};
}

/** A table's first screen, as `api` answers it, when the page's HTML asked for it
 * already (pages.py, BOOT: while the modules load) for this table and seat; else null.
 * Taken once: a later screen is asked for anew. */
export async function firstScreen(id, token) {
  const first = window.__firstScreen;
  window.__firstScreen = undefined;
  if (!first || first.path !== `/t/${id}` || first.token !== token) return null;
  return answer(await first.response);
}

/** Say something to screen readers (the polite live region #announce). What is said
 * within the same moment is said together ("Bot level 1 played a2-a3. Your turn."), so
 * one line never cuts off the one before. */
let toSay = [];
let sayTimer = null;
export function announce(text) {
  const region = document.getElementById('announce');
  if (!region || !text) return;
  toSay.push(text);
  if (sayTimer) return;
  region.textContent = '';
  sayTimer = window.setTimeout(() => {
    region.textContent = toSay.join(' ');
    toSay = [];
    sayTimer = null;
  }, 30);
}

let gameList = null;
/** A game's title as people write it, from /api/games (asked once per page load). */
export function gameTitle(name) {
  if (!gameList) {
    gameList = api('/api/games').then((r) => (r.ok && r.data && r.data.games) || []);
  }
  return gameList.then((games) => {
    const found = games.find((g) => g.game === name);
    return found ? found.title : name;
  });
}

export function navigate(url) {
  history.pushState(null, '', url);
  window.dispatchEvent(new Event('fourfold:navigate'));
}

/** The seat token in this page's URL fragment (#seat=TOKEN), or null. */
export function seatToken() {
  const match = location.hash.match(/(?:^#|&)seat=([A-Za-z0-9_\-]+)/);
  return match ? match[1] : null;
}

/** Tables this browser holds a seat at (for the lobby's "your tables"). */
export function rememberSeat(tableId, token, label) {
  try {
    const seats = JSON.parse(localStorage.getItem('fourfold.seats') || '{}');
    seats[tableId] = {token, label, at: Date.now()};
    const keep = Object.entries(seats).sort((a, b) => b[1].at - a[1].at).slice(0, 30);
    localStorage.setItem('fourfold.seats', JSON.stringify(Object.fromEntries(keep)));
  } catch (err) { /* storage may be off: links still work */ }
}

export function rememberedSeats() {
  try {
    return Object.entries(JSON.parse(localStorage.getItem('fourfold.seats') || '{}'))
      .sort((a, b) => b[1].at - a[1].at);
  } catch (err) {
    return [];
  }
}

export function clockText(seconds) {
  if (seconds === null || seconds === undefined) return '';
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  return s < 20 ? `${m}:${rest.toFixed(1).padStart(4, '0')}` : `${m}:${String(Math.floor(rest)).padStart(2, '0')}`;
}

/** A bot as people would say it: "Bot level 2", "Bot greedy". */
export function botName(bot) {
  const level = /^level(\d+)$/.exec(bot || '');
  return level ? `Bot level ${level[1]}` : `Bot ${bot}`;
}

/** One name per seat everywhere: the person's name, or the bot and its level (with the
 * seat's number when another seat has the same bot); the server's event texts say the
 * same (server/specs.py, called). */
export function seatName(state, seat) {
  const s = state.seats && state.seats[seat];
  if (!s) return `Seat ${seat + 1}`;
  if (s.kind !== 'bot') return s.name;
  const twins = state.seats.filter((o) => o.kind === 'bot' && o.bot === s.bot).length;
  return twins > 1 ? `${botName(s.bot)} (seat ${seat + 1})` : botName(s.bot);
}

/** "Green wins: ...", "Draw: ...", "Everyone wins: ..." */
export function outcomeText(state, outcome) {
  if (!outcome) return '';
  const why = outcome.reason ? `: ${outcome.reason}` : '';
  if (outcome.result === 'win') return `${seatName(state, outcome.winner)} wins${why}`;
  if (outcome.result === 'draw') return `Draw${why}`;
  if (outcome.result === 'team-win') return `Solved — everyone wins${why}`;
  if (outcome.result === 'team-loss') return `Not solved — everyone loses${why}`;
  return `${outcome.result}${why}`;
}

export function copyButton(getText, label = 'Copy') {
  const button = h('button', {type: 'button', class: 'small'}, label);
  button.addEventListener('click', async () => {
    const text = getText();
    let done = false;
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch (err) {
      const area = h('textarea', {class: 'sr-only'}, text);
      document.body.append(area);
      area.select();
      try { done = document.execCommand('copy'); } catch (e) { done = false; }
      area.remove();
    }
    button.textContent = done ? 'Copied' : 'Select and copy';
    announce(done ? 'Link copied' : 'Copy the link by hand');
    window.setTimeout(() => { button.textContent = label; }, 2000);
  });
  return button;
}

export function absolute(url) {
  return new URL(url, location.origin).href;
}
