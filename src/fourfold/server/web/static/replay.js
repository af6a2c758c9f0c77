// Replays: step through any finished game (or a perfect-information game so far), with
// its review once it is over (review.js: every move's mark, the chart, the jump to the
// worst move, the lines on the board); a shared replay for the seats of a finished
// table; open any position as a new game against a bot.
//
// The shared replay is live over the table's socket (#shared[data-live="1"] once it is
// welcomed). A follower catches up with the table's step each time its socket is
// welcomed (a step taken before it was subscribed reaches it only so); after a drop
// the page says so and reconnects, waiting longer each time (as the table page does).
import {announce, api, gameTitle, h, navigate, outcomeText, rememberSeat, seatName, seatToken} from './util.js';
import {reviewPanel} from './review.js';
import {fit, measure} from './layout.js';


export function replayPage(main, id) {
  const token = seatToken();
  let alive = true;
  let data = null;
  let ply = 0;
  let socket = null;
  let backoff = 500;
  let reconnect = null;
  let stopped = null;  // why the server will not have this socket (no reconnecting then)
  let steps = 0;  // the table's steps heard over the socket
  let seq = 0;
  const title = h('h1', {}, 'Replay');
  const status = h('p', {class: 'turn', id: 'replay-status', 'aria-live': 'polite'}, 'Loading…');
  const board = h('div', {class: 'board', id: 'replay-board'});
  const slider = h('input', {type: 'range', min: '0', max: '0', value: '0', id: 'replay-slider', 'aria-label': 'Position in the game'});
  const nav = h('div', {class: 'buttons replay-nav'},
    h('button', {type: 'button', id: 'r-first', onclick: () => go(0), 'aria-label': 'First position'}, '«'),
    h('button', {type: 'button', id: 'r-prev', onclick: () => go(ply - 1), 'aria-label': 'Previous move'}, '‹'),
    h('button', {type: 'button', id: 'r-next', onclick: () => go(ply + 1), 'aria-label': 'Next move'}, '›'),
    h('button', {type: 'button', id: 'r-last', onclick: () => go(data.plies.length - 1), 'aria-label': 'Last position'}, '»'),
    slider);
  const shared = h('div', {class: 'shared', id: 'shared'});
  const moves = h('ol', {class: 'moves replay-moves', id: 'replay-moves', start: '0'});
  // one name per seat, as on the table page: the person's, or the bot and its level
  const nameOf = (seat) => (data && data.seats ? seatName({seats: data.seats}, seat) : null);
  const review = reviewPanel({id, token, go: (n) => go(n), board, nameOf});
  const movesHead = h('h2', {class: 'small-h', id: 'moves-h'}, review.caption());
  review.onReady(() => { movesHead.textContent = review.caption(); renderMoves(); });
  const fromHere = h('div', {class: 'from-here', id: 'from-here'});
  const leadBox = h('input', {type: 'checkbox', id: 'lead'});
  const followBox = h('input', {type: 'checkbox', id: 'follow', checked: true});
  const connection = h('p', {class: 'connection', id: 'shared-connection', role: 'status', hidden: true});
  main.append(h('div', {class: 'table-page'}, h('div', {class: 'table-head'}, title, status),
    h('div', {class: 'table-layout'},
      h('div', {class: 'board-col'}, board),
      h('div', {class: 'side-col'}, nav, review.node, movesHead, moves,
        shared, fromHere,
        h('p', {}, h('a', {href: `/t/${id}${token ? `#seat=${token}` : ''}`, 'data-nav': true}, 'Back to the table'))))));
  measure(board);  // the board's room, while the page is still empty (layout.js)
  // a wide window shows the picture's wide layout (the tray beside the board), as the table does
  const refit = () => fit(board);
  window.addEventListener('resize', refit);
  slider.addEventListener('input', () => go(Number(slider.value)));
  const keys = (event) => {
    if (event.target.closest && event.target.closest('input, select, textarea')) return;
    if (event.key === 'ArrowLeft') { go(ply - 1); event.preventDefault(); }
    if (event.key === 'ArrowRight') { go(ply + 1); event.preventDefault(); }
  };
  document.addEventListener('keydown', keys);

  async function load() {
    const r = await api(`/api/tables/${id}/replay`, {token});
    if (!alive) return;
    if (!r.ok) { status.textContent = `No replay: ${r.error}.`; return; }
    data = r.data;
    const named = (t) => {
      title.textContent = `Replay: ${t} (${data.variant})`;
      document.title = `${title.textContent} · Fourfold`;
    };
    named(data.game);
    gameTitle(data.game).then(named);
    slider.max = String(data.plies.length - 1);
    const st = {seats: data.seats || data.players.map((name, seat) => ({seat, name}))};
    status.textContent = data.finished ? outcomeText(st, data.outcome) : 'The game is still going: this is it so far.';
    if (token && data.finished && data.you !== null) {
      shared.replaceChildren(h('p', {}, 'Shared replay: ',
        h('label', {}, followBox, ' follow the table'), ' ',
        h('label', {}, leadBox, ' lead (everyone following sees my steps)')), connection);
      connect();
    }
    renderMoves();
    go(data.shared_ply !== null && data.shared_ply !== undefined ? data.shared_ply : data.plies.length - 1, true);
  }

  function renderMoves() {
    if (!data) return;
    moves.replaceChildren(...data.plies.map((p, i) => {
      const v = i ? review.mark(i) : null;
      const label = i ? p.move : 'Start';
      return h('li', {class: i === ply ? 'current' : '', value: i},
        h('button', {type: 'button', class: 'link-btn', 'data-ply': i, 'aria-current': i === ply ? 'step' : null, onclick: () => go(i)}, label),
        v ? h('span', {class: `value mark ${v.label}${v.estimate ? ' estimate' : ''}`, style: `color: ${v.colour}${v.estimate ? '; font-style: italic' : ''}`}, v.text) : '');
    }));
  }

  async function go(n, quiet) {
    if (!data) return;
    ply = Math.max(0, Math.min(data.plies.length - 1, n));
    slider.value = String(ply);
    for (const li of moves.children) {
      const on = Number(li.value) === ply;
      li.classList.toggle('current', on);
      const b = li.querySelector('button');
      if (b) { if (on) b.setAttribute('aria-current', 'step'); else b.removeAttribute('aria-current'); }
    }
    const mine = ++seq;
    const r = await api(`/api/tables/${id}/picture?ply=${ply}`, {token, text: true});
    if (!alive || mine !== seq) return;
    if (r.ok) {
      board.innerHTML = r.data;
      const svg = board.querySelector('svg');
      if (svg) { svg.removeAttribute('width'); svg.removeAttribute('height'); }
      fit(board);
    } else {
      board.replaceChildren(h('p', {}, `No picture: ${r.error}`));
    }
    const p = data.plies[ply];
    if (!quiet) announce(ply ? `Move ${ply}: ${p.move}` : 'The start');
    review.show(ply);
    renderFromHere();
    if (leadBox.checked && token) api(`/api/tables/${id}/replay`, {method: 'POST', token, body: {ply}});
  }

  function renderFromHere() {
    const p = data.plies[ply];
    if (p.to_move === null || p.to_move === undefined) { fromHere.replaceChildren(); return; }
    const level = h('select', {id: 'from-level', 'aria-label': 'Bot level'},
      ['level1', 'level2', 'level3', 'level4', 'level5'].map((l) => h('option', {value: l, selected: l === 'level3'}, l)));
    const button = h('button', {type: 'button', id: 'from-here-btn', class: 'primary'}, `Play on from here as ${data.players[p.to_move]} against a bot`);
    const error = h('p', {class: 'error', role: 'alert'});
    button.addEventListener('click', async () => {
      const n = data.players.length;
      const bot = `bot:${level.value}`;
      const seats = Array.from({length: n}, (_, s) => (s === p.to_move ? 'human' : bot));
      const r = await api('/api/tables', {method: 'POST', body: {game: data.game, variant: data.variant, options: data.options,
        setup: p.position, seats, private: true}});
      if (!r.ok) { error.textContent = `Could not open it: ${r.error}.`; return; }
      const seat = r.data.seats[p.to_move];
      rememberSeat(r.data.id, seat.token, `${await gameTitle(data.game)} from a replay`);
      navigate(seat.url);
    });
    fromHere.replaceChildren(h('h2', {class: 'small-h'}, 'New game from this position'),
      h('div', {class: 'inline'}, level, ' ', button), error);
  }

  function connect() {
    if (!alive || stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/api/tables/${id}/live`);
    socket = ws;
    ws.addEventListener('open', () => ws.send(JSON.stringify({type: 'hello', token})));
    ws.addEventListener('message', (event) => {
      let m;
      try { m = JSON.parse(event.data); } catch (err) { return; }
      if (m.type === 'welcome') {
        shared.dataset.live = '1';
        connection.hidden = true;
        backoff = 500;
        catchUp();
      } else if (m.type === 'replay') {
        steps += 1;
        follow(m.ply);
      } else if (m.type === 'refused' && (m.status === 403 || m.status === 404)) {
        stopped = m.error;  // this seat or table is gone: asking again would not help
      }
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;  // an older socket, already replaced
      delete shared.dataset.live;
      if (!alive) return;
      connection.hidden = false;
      if (stopped) {
        connection.textContent = `The shared replay stopped: ${stopped}.`;
        return;
      }
      connection.textContent = 'The live connection dropped; reconnecting… Following the table resumes once it is back.';
      reconnect = window.setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 8000);
    });
    ws.addEventListener('error', () => { /* the close handler reconnects */ });
  }

  // the table's step, for a page that follows it (a leader's own steps are its own)
  function follow(at) {
    if (!followBox.checked || leadBox.checked || at === null || at === undefined || at === ply) return;
    go(at);
    announce(`The table moved the replay to move ${at}`);
  }

  // Once welcomed, the page hears every step; one taken before (while it loaded, or
  // while its socket was away) is read. A step heard while the read is on its way is
  // newer than what the read says.
  async function catchUp() {
    const heard = steps;
    const r = await api(`/api/tables/${id}/replay`, {token});
    if (!alive || !r.ok || steps !== heard) return;
    follow(r.data.shared_ply);
  }

  load();
  return () => {
    alive = false;
    review.stop();
    document.removeEventListener('keydown', keys);
    window.removeEventListener('resize', refit);
    if (reconnect) window.clearTimeout(reconnect);
    if (socket) socket.close();
  };
}
