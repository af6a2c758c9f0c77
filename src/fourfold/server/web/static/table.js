// A table: the board from the server's SVG, click/tap or type to act, clocks, moves,
// offers, the end-of-game banner, hints against bots, rematch; live over a WebSocket.
//
// The page draws from the events it is sent (docs/browser.md): each event carries the
// view and picture at its version, so a move costs no HTTP request. The whole screen
// (GET .../screen) is fetched when the page opens, after reconnecting, after an undo
// (it rewrites the move list), and when an event shows a gap in the versions.
// Moves go over the socket as the server's structured choice (its action number) with
// the notation alongside; nothing here parses notation.
import {mountChat} from './chat.js';
import {controllerFor} from './controllers.js';
import {arrowKeys, rove} from './kit.js';
import {fit, measure, wants} from './layout.js';
import {play as sound} from './sound.js';
import {absolute, announce, api, clockText, copyButton, firstScreen, gameTitle, h, navigate, outcomeText, rememberSeat, seatName, seatToken} from './util.js';

export function tablePage(main, id) {
  const token = seatToken();
  let screen = null;
  let alive = true;
  let controller = null;
  let controllerUrl;  // the URL the controller was asked for (null: the generic one)
  let busy = false;
  let socket = null;
  let backoff = 500;
  let reconnect = null;
  let clockAt = 0;
  let wasMyTurn = false;
  let resignArmed = null;
  let hintBox = null;
  let hintVersion = -1;
  let title_ = null;  // the game's title, from /api/games

  const title = h('h1', {class: 'table-title'}, 'Table');
  const who = h('p', {class: 'who'});
  const knownDeal = h('p', {class: 'known-deal', id: 'known-deal', role: 'note', hidden: true},
    h('strong', {}, 'Known deal. '),
    'Whoever created this table chose its deal (a seed or a set-up position), so it is not secret: this game never counts for any score or leaderboard.');
  const turn = h('p', {class: 'turn', id: 'turn', 'aria-live': 'polite'}, 'Loading the table…');
  const banner = h('div', {class: 'banner', id: 'banner', hidden: true, role: 'status'});
  const board = h('div', {class: 'board', id: 'board', role: 'group', tabindex: '-1', 'aria-label': 'The board'});
  const controls = h('div', {class: 'controls', id: 'controls'});
  const input = h('input', {id: 'move-input', name: 'move', autocomplete: 'off', spellcheck: 'false', list: 'legal-moves',
    'aria-describedby': 'move-help', placeholder: 'a move in notation'});
  const datalist = h('datalist', {id: 'legal-moves'});
  const form = h('form', {class: 'notation', id: 'move-form'},
    h('label', {for: 'move-input'}, 'Type a move'), h('div', {class: 'inline'}, input, h('button', {type: 'submit'}, 'Play')),
    h('p', {class: 'help', id: 'move-help'}, 'In the game\'s notation; the list offers the legal moves. Enter plays it.'), datalist);
  const feedback = h('p', {class: 'feedback', id: 'feedback', role: 'alert'});
  // while away: moves go over HTTP; once a request finds no server either, the line says so
  const DROPPED = 'The live connection dropped; reconnecting… Moves still go through.';
  const connection = h('p', {class: 'connection', id: 'connection', role: 'status', hidden: true}, DROPPED);
  /** A request found no server (status 0): no move goes through until it is back. */
  function unanswered() { connection.textContent = 'The server is not answering; reconnecting…'; }
  const seatsBox = h('div', {class: 'seats-box', id: 'seats'});
  // the clocks sit with the turn, beside the board (under it on a phone), in sight
  const clockBox = h('div', {class: 'clock-box', id: 'clocks', hidden: true});
  const offerBox = h('div', {class: 'offer', id: 'offer', hidden: true});
  const actions = h('div', {class: 'actions', id: 'actions'});
  const movesList = h('ol', {class: 'moves', id: 'moves', 'aria-label': 'Moves so far'});
  const links = h('div', {class: 'links', id: 'links'});
  hintBox = h('div', {class: 'hint', id: 'hint'});
  const summary = h('div', {class: 'cb-summary', id: 'cb-summary'});
  const chat = mountChat({id, token, send});  // table chat (chat.js); its lines come over the socket

  // The board is the page: the turn, the prompt and the controls sit beside it (below it
  // on a phone), the rest further down the side column.
  main.append(h('div', {class: 'table-page'},
    h('div', {class: 'table-head'}, title, who, knownDeal),
    h('div', {class: 'table-layout'},
      h('div', {class: 'board-col'}, board),
      h('div', {class: 'side-col'},
        h('section', {class: 'play-box', 'aria-label': 'Turn and controls'}, clockBox, turn, connection, banner, feedback, controls, summary),
        seatsBox, offerBox, actions, hintBox, h('h2', {class: 'small-h'}, 'Moves'), movesList, form, links, chat.element))));

  measure(board);  // the board's room, while the page is still empty (layout.js)

  const ctx = {
    play: (choice) => play(choice),
    rerender: () => renderBoard(),
    focusCell: (cell) => {
      const el = board.querySelector(`[data-cell="${CSS.escape(cell)}"][role="button"]`);
      if (el) el.focus();
    },
  };

  // Escape forgets a half-made choice (a chosen piece, cell or spot), on the board or
  // beside it; the focus stays where it was.
  // While the keyboard is in use the board's focus is drawn (.board.keys), also after a
  // redraw has moved it by script, which :focus-visible alone does not always count.
  const usingKeys = (event) => { if (!event.altKey && !event.ctrlKey && !event.metaKey) board.classList.add('keys'); };
  const usingPointer = () => board.classList.remove('keys');
  document.addEventListener('keydown', usingKeys, true);
  document.addEventListener('pointerdown', usingPointer, true);

  for (const where of [board, controls]) {
    where.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !controller || !screen || !myTurn()) return;
      event.preventDefault();
      controller.reset();
      renderBoard();
      announce('Choice cleared.');
    });
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) { say('Type a move first.'); return; }
    play(text).then((ok) => { if (ok) input.value = ''; });
  });

  // A message stays until the position changes ("You played ..." gives way to the
  // next move).
  let saidAt = -1;
  function say(text, good = false, at = null) {
    feedback.textContent = text;
    feedback.classList.toggle('good', good);
    // ``at``: the version the message is about (a move's, whose event may come after
    // its answer), so the message outlives that move's own event
    saidAt = Math.max(screen ? screen.state.version : -1, at === null ? -1 : at);
  }

  // -- loading -----------------------------------------------------------------------------
  let loading = false;
  let loadFailed = false;  // the feedback says the last load failed
  let again = false;
  let first = true;
  const early = [];  // events heard while the whole screen was on its way
  async function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      do {
        again = false;
        // the first: the one the HTML asked for while the modules loaded, if it did
        const r = (first && await firstScreen(id, token)) || await api(`/api/tables/${id}/screen`, {token});
        first = false;
        if (!alive) return;
        if (r.ok) {
          if (loadFailed) say('');  // it loads again: the failure is over
          loadFailed = false;
          apply(r.data);
        } else if (r.status === 403 && token) { turn.textContent = 'This seat link is not valid for this table.'; say(r.error); }
        else if (r.status === 404) { missing(); return; }
        else {
          if (r.status === 0) unanswered();
          say(`Could not load the table: ${r.error}`);
          loadFailed = true;
        }
      } while (again && alive);
    } finally {
      loading = false;
    }
    const heardMeanwhile = early.splice(0);
    if (screen) for (const e of heardMeanwhile) applyEvent(e);
    chat.start();  // after the board: the chat is read once, then heard live
  }

  function apply(data) {
    const before = screen;
    screen = data;
    clockAt = performance.now();
    useController(data.controller);
    // the seat is remembered under the game's title as people write it, never its internal name
    const remember = () => {
      if (token && screen && screen.state.you !== null) {
        rememberSeat(id, token, `${title_} (${screen.state.variant}), ${seatName(screen.state, screen.state.you)}`);
      }
    };
    if (title_) remember();
    else gameTitle(data.state.game).then((t) => { title_ = t; if (alive && screen) { renderTitle(); remember(); } });
    render(before);
  }

  // The game's controller, from the URL the server names (a module in the game's folder).
  function useController(url) {
    const wanted = url || null;
    if (wanted === controllerUrl) return;
    controllerUrl = wanted;
    controllerFor(wanted).then((made) => {
      if (!alive || controllerUrl !== wanted) return;
      controller = made;
      if (screen) { renderBoard(); renderSummary(); }
    });
  }

  // -- events ------------------------------------------------------------------------------
  // An event at the next version (or the same one: an offer, the end after a move) is
  // drawn from what it carries; a gap, a start after a gap, an undo, or an event
  // without a screen (relayed from another server instance) fetches the whole screen.
  function heard(e) {
    const st = screen && screen.state;
    if (e.kind === 'move' && st && Number.isInteger(e.seat) && e.move) {
      // each move in words, the seat called as everywhere on the page (a seat's own
      // move is said by the feedback line, "You played ...")
      if (e.seat !== st.you) announce(`${seatName(st, e.seat)} played ${e.move}.`);
    } else if (e.text && e.kind !== 'start' && e.kind !== 'end') {  // the end: renderTurn says it
      announce(e.text);
    }
    if (loading || !screen) { early.push(e); return; }
    applyEvent(e);
  }

  function applyEvent(e) {
    const shown = screen.state.version;
    if (e.kind === 'start' && e.version === shown && !sameOffer(screen.state.offer, e)) {
      // an offer made between the screen's read and the socket's subscription: the
      // start holds the one open now (or none, if it was answered meanwhile)
      const before = screen;
      screen = {...before, state: {...before.state, offer: e.offer ? {offer: e.offer, seat: e.seat} : null}};
      render(before);
      return;
    }
    if (e.version < shown || (e.version === shown && (e.kind === 'move' || e.kind === 'start' || e.kind === 'undo'))) return;
    if (!e.screen || e.version > shown + 1 || e.kind === 'start' || e.kind === 'undo') { refresh(); return; }
    const before = screen;
    const s = e.screen;
    const state = {...before.state, ...s.table, version: e.version, view: e.view, legal: e.view.legal_moves,
      to_act: e.view.actors, clocks: e.clocks, outcome: e.view.outcome};
    if (e.kind === 'offer') state.offer = {offer: e.offer, seat: e.seat};
    else if (e.kind !== 'seats') state.offer = null;
    screen = {...before, state, svg: s.svg, choices: s.choices, hints: s.hints, controller: s.controller,
      cooperative: s.cooperative, perfect_information: s.perfect_information,
      past_visible: before.past_visible || !!state.outcome,
      moves: e.kind === 'move' ? [...before.moves, e.move] : before.moves};
    clockAt = performance.now();
    useController(s.controller);
    render(before);
  }

  function sameOffer(offer, e) {
    return offer ? e.offer === offer.offer && e.seat === offer.seat : !e.offer;
  }

  // -- acting ------------------------------------------------------------------------------
  // Actions go over the WebSocket (answered 'ack' or 'refused', in order); a refusal
  // is then a message, not a failed request. Without a socket they go over REST.
  const pending = [];
  let welcomed = false;
  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN || !welcomed) return Promise.resolve(null);
    return new Promise((resolve) => {
      pending.push(resolve);
      socket.send(JSON.stringify(message));
    });
  }
  function answered(m) {
    const resolve = pending.shift();
    if (resolve) resolve(m);
  }

  // ``what``: a choice the server sent ({move, action, ...}), or notation typed in the
  // box (sent with the action of the choice written exactly so, if there is one)
  async function play(what) {
    if (!screen || busy) return false;
    if (!token) { say('You are watching: only a seat link can play.'); return false; }
    if (!myTurn()) { say(`Not your turn: ${turnText()}`); return false; }
    const choice = typeof what === 'string' ? (screen.choices || []).find((c) => c.move === what) : what;
    const text = typeof what === 'string' ? what : what.move;
    busy = true;
    say('');
    const version = screen.state.version;
    const message = {type: 'move', move: text, version};
    if (choice && choice.action !== null && choice.action !== undefined) message.action = choice.action;
    let reply = await send(message);
    let rest = false;
    let dropped = false;  // the socket took the move, then dropped before its answer
    // no live socket, or it dropped before answering: the move goes over HTTP (safe to
    // send again: its version makes a copy that was played already stale)
    if (reply === null || (reply.type === 'refused' && reply.status === 0)) {
      dropped = reply !== null;
      rest = true;
      const r = await api(`/api/tables/${id}/moves`, {method: 'POST', token, body: {move: text, version}});
      // the answer's version keeps "You played ..." up once the page shows the move
      reply = r.ok ? {type: 'ack', text: r.data.text, version: r.data.state && r.data.state.version}
        : {type: 'refused', status: r.status, error: r.error};
      if (dropped && r.status === 409) {
        // stale: perhaps because the socket had played it before dropping; the record says
        await refresh();
        if (screen && (screen.moves || [])[version] === text) reply = {type: 'ack', text, version: version + 1};
      }
    }
    busy = false;
    if (!alive) return false;
    if (reply.status === 0) {  // no server either: nothing to read now
      unanswered();
      say(dropped  // the socket may have delivered it before it dropped
        ? `Your move may not have reached the server: ${reply.error}. Once the page has reconnected it shows whether it was played.`
        : `Your move was not sent: ${reply.error}. Make it again once the page has reconnected.`);
      return false;
    }
    if (rest) refresh();  // no socket: no events either
    else if (screen.state.version >= (reply.version || 0)) renderBoard();  // its event came first
    if (reply.type === 'ack') {
      say(`You played ${String(reply.text || text).replace(/^played /, '')}.`, true, Number.isInteger(reply.version) ? reply.version : null);
      return true;
    }
    if (reply.status === 409 && (screen.state.version > version || /^stale/.test(reply.error || ''))) {
      say(`That action was stale: ${String(reply.error || 'the position changed').replace(/^stale: /, '')}. Look again and choose.`);
    } else if (reply.status === 409 && !myTurn()) {
      say(`Not your turn: ${turnText()}`);
    } else if (reply.status === 409) {
      say(`Refused: ${reply.error}.`);
    } else if (reply.status === 422) {
      say(`Not allowed: ${reply.error}.`);
    } else {
      say(`Refused: ${reply.error}.`);
    }
    return false;
  }

  async function act(what, body, done) {
    if (!screen) return;
    const message = what === 'answer' ? {type: 'answer', accept: body.accept} : {type: what, ...body};
    let reply = await send(message);
    let rest = false;
    if (reply === null) {
      rest = true;
      const r = await api(`/api/tables/${id}/${what}`, {method: 'POST', token, body});
      reply = r.ok ? {type: 'ack', text: r.data.text} : {type: 'refused', status: r.status, error: r.error};
    }
    if (!alive) return;
    if (reply.status === 0) {  // no server either: nothing was sent
      unanswered();
      say(`Not sent: ${reply.error}. Try again once the page has reconnected.`);
      return;
    }
    const ok = reply.type === 'ack';
    say(ok ? (done || reply.text) : `Refused: ${reply.error}.`, ok);
    if (ok) announce(done || reply.text);
    if (rest) refresh();  // over the socket, the change comes as an event
    else renderActions();
  }

  // -- rendering ---------------------------------------------------------------------------
  function mine() { return screen && screen.state.you !== null && screen.state.you !== undefined; }
  function myTurn() {
    const st = screen.state;
    return mine() && !st.outcome && st.status === 'live' && (st.to_act || []).includes(st.you) && st.legal.length > 0;
  }
  /** Whose turn it is, in words ("Bot level 2 to move."). */
  function turnText() {
    const st = screen.state;
    if (st.outcome) return 'the game is over.';
    const actors = (st.to_act || []).filter((p) => p !== st.you);
    if (st.status === 'open') return 'waiting for players to sit down.';
    if (!actors.length) return 'wait for the next position.';
    return `${actors.map((p) => seatName(st, p)).join(' and ')} to move.`;
  }

  function renderTitle() {
    const st = screen.state;
    const named = `${title_ || st.game} (${st.variant})`;
    document.title = `${named} · Fourfold`;
    title.textContent = named;
  }

  function render(before) {
    const st = screen.state;
    renderTitle();
    if (saidAt >= 0 && st.version > saidAt) { feedback.textContent = ''; saidAt = -1; }
    who.replaceChildren(mine() ? `You are ${seatName(st, st.you)} (seat ${st.you + 1}). ` : 'You are watching. ',
      st.private ? 'Private table.' : '');
    knownDeal.hidden = !st.known_deal;
    renderTurn(before);
    renderBoard();
    renderSeats();
    renderMoves(before);
    renderActions();
    renderOffer();
    renderLinks();
    renderSummary();
    if (hintVersion !== st.version) { hintBox.replaceChildren(); }
  }

  function renderTurn(before) {
    const st = screen.state;
    const over = st.outcome;
    if (over) {
      turn.textContent = 'Game over.';
      const svg = board.querySelector('svg');
      banner.hidden = false;
      const text = outcomeText(st, over);
      banner.className = `banner ${over.result === 'win' ? (mine() && over.winner === st.you ? 'won' : mine() ? 'lost' : 'neutral') : over.result === 'team-win' ? 'won' : over.result === 'team-loss' ? 'lost' : 'neutral'}`;
      banner.replaceChildren(h('strong', {}, text));
      if (before && !before.state.outcome) sound('end');
      if (!before || !before.state.outcome) announce(`Game over. ${text}`);
      wasMyTurn = false;
      return;
    }
    banner.hidden = true;
    if (st.status === 'open') {
      const open = st.seats.filter((s) => s.kind === 'open').map((s) => s.seat + 1);
      turn.textContent = `Waiting for players: seat${open.length > 1 ? 's' : ''} ${open.join(', ')} open.`;
      return;
    }
    if (st.status === 'abandoned') { turn.textContent = 'This table was abandoned.'; return; }
    const actors = st.to_act || [];
    const myTurn = mine() && actors.includes(st.you) && st.legal.length > 0;
    if (st.real_time) {
      turn.textContent = myTurn ? 'Everyone acts at once: act when you see a good move.' : 'Everyone acts at once.';
    } else if (actors.length === 1) {
      turn.textContent = myTurn ? 'Your turn.' : `${seatName(st, actors[0])} to move.`;
    } else {
      turn.textContent = '';
    }
    turn.classList.toggle('mine', myTurn);
    if (myTurn && !wasMyTurn && !st.real_time) {
      announce(`Your turn, ${seatName(st, st.you)}.`);
      if (before) sound('turn');
    } else if (before && st.version > before.state.version) {
      sound('move');
    }
    wasMyTurn = myTurn;
  }

  // What had the keyboard focus on the board or its controls, so that a redraw puts it
  // back on the same thing (or on the board): focus never drops to the page.
  const KEYS = ['data-keys', 'data-cell', 'data-piece', 'data-action', 'data-give', 'data-origin', 'data-move'];
  function focusKey() {
    const el = document.activeElement;
    if (!el || !(board.contains(el) || controls.contains(el))) return null;
    const key = KEYS.find((k) => el.hasAttribute && el.hasAttribute(k));
    return {inBoard: board.contains(el), key, value: key ? el.getAttribute(key) : null};
  }
  function restoreFocus(was) {
    if (!was) return;
    const pick = (root) => (was.key ? [...root.querySelectorAll(`[${was.key}]`)].find((e) =>
      e.getAttribute(was.key) === was.value && (e.tagName === 'BUTTON' || e.getAttribute('role') === 'button') && !e.disabled) : null);
    const again = pick(was.inBoard ? board : controls) || pick(was.inBoard ? controls : board)
      || board.querySelector('[role="button"]') || controls.querySelector('button:not([disabled])');
    (again || board).focus({preventScroll: true});
  }

  // Moves animate: a piece that left one cell and stands on another slides there, a new
  // piece grows in, and a piece handed over slides from the pieces left to give into the
  // hand (and from the hand onto the board). Read from the two pictures (pieces are
  // g.piece[data-piece] with a data-cell, or a data-role in the tray), so it works for
  // any game drawn that way; nothing moves under prefers-reduced-motion.
  const still = window.matchMedia('(prefers-reduced-motion: reduce)');
  function piecesOf(svg) {
    const out = [];
    if (!svg) return out;
    const root = svg.getScreenCTM();
    const toRoot = root ? root.inverse() : null;
    for (const g of svg.querySelectorAll('g.piece[data-piece]')) {
      const cell = g.dataset.cell || (g.dataset.role ? `@${g.dataset.role}` : null);
      if (!cell) continue;
      const b = g.getBBox();
      let [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
      const own = toRoot && g.getScreenCTM();
      if (own) {  // in the picture's own units (a wide layout moves the tray's groups)
        const m = toRoot.multiply(own);
        [x, y] = [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
      }
      out.push({g, cell, piece: g.dataset.piece, x, y, cx: b.x + b.width / 2, cy: b.y + b.height / 2});
    }
    return out;
  }
  function animate(old, svg) {
    if (still.matches || !old.length) return;
    const key = (p) => `${p.cell}|${p.piece}`;
    const now = piecesOf(svg);
    const kept = new Set(now.map(key));
    const had = new Set(old.map(key));
    const left = old.filter((p) => !kept.has(key(p)));
    for (const p of now.filter((q) => !had.has(key(q)) && q.cell !== '@supply')) {
      let from = left.find((q) => q.piece === p.piece);
      if (from) left.splice(left.indexOf(from), 1);
      else if (p.cell === '@hand') from = old.find((q) => q.piece === p.piece && q.cell === '@supply');
      if (from) {
        p.g.animate([{transform: `translate(${from.x - p.x}px, ${from.y - p.y}px)`}, {transform: 'none'}],
          {duration: 220, easing: 'ease-out'});
      } else {
        p.g.style.transformOrigin = `${p.cx}px ${p.cy}px`;
        p.g.animate([{transform: 'scale(0.4)', opacity: 0}, {transform: 'none', opacity: 1}], {duration: 200, easing: 'ease-out'});
      }
    }
  }
  let drawnVersion = -1;

  function renderBoard() {
    if (!screen) return;
    const st = screen.state;
    const was = focusKey();
    const moved = st.version === drawnVersion + 1;
    const old = moved ? piecesOf(board.querySelector('svg')) : [];
    drawnVersion = st.version;
    board.innerHTML = screen.svg;
    board.dataset.version = String(st.version);
    const svg = board.querySelector('svg');
    if (!svg) return;
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    fit(board);  // beside the board on a wide window: the tray, say (layout.js)
    board.setAttribute('aria-label', `The board: ${turn.textContent}`);
    const canAct = myTurn() && !busy && !!controller;
    board.classList.toggle('acting', canAct);
    if (canAct) controller.decorate(svg, screen, ctx);
    else labelStatic(svg, st);
    fixRoles(svg);
    animate(old, svg);
    controls.replaceChildren(canAct ? (controller.controls(screen, ctx) || '')
      : mine() && !st.outcome && st.status === 'live' ? h('p', {class: 'waiting', id: 'waiting'}, `Not your turn: ${turnText()} Your controls come back on your turn.`) : '');
    datalist.replaceChildren(...st.legal.slice(0, 400).map((m) => h('option', {value: m})));
    // the example is a move legal here, from the server's list
    input.disabled = !myTurn();
    input.placeholder = input.disabled ? (mine() && !st.outcome ? 'not your turn' : 'no move to make')
      : st.legal.length ? `e.g. ${st.legal[0]}` : 'a move in notation';
    form.querySelector('button').disabled = input.disabled;
    restoreFocus(was);
    if (canAct) { rove(svg, document.activeElement); arrowKeys(svg); }
    if (banner && st.outcome) {
      const line = svg.querySelector('[data-line]');
      const old = banner.querySelector('.line');
      if (old) old.remove();
      if (line) banner.append(h('span', {class: 'line'}, ` Winning line: ${line.getAttribute('data-line')}.`));
    }
  }

  // The picture holds buttons, so it is a group, not an image; a labelled part that is
  // not a button is an image with that label (axe: nested-interactive, aria-prohibited-attr).
  function fixRoles(svg) {
    svg.setAttribute('role', 'group');
    for (const g of svg.querySelectorAll('[aria-label]:not([role])')) {
      if (!g.querySelector('[role="button"]')) g.setAttribute('role', 'img');
    }
  }

  function labelStatic(svg, st) {
    for (const g of svg.querySelectorAll('g.square[data-cell]')) {
      if (!g.getAttribute('aria-label')) g.setAttribute('aria-label', g.dataset.cell);
    }
  }

  function renderSeats() {
    const st = screen.state;
    const clocks = st.clocks || [];
    const shared = st.shared_clock !== null && st.shared_clock !== undefined;
    const rows = st.seats.map((s) => {
      const acting = !st.outcome && (st.to_act || []).includes(s.seat) && !st.real_time;
      return h('li', {class: `seat${acting ? ' acting' : ''}${s.seat === st.you ? ' you' : ''}`},
        h('span', {class: 'marker', 'aria-hidden': 'true'}, acting ? '▶' : ''),
        h('span', {class: 'name'}, seatName(st, s.seat)), ' ',
        h('span', {class: 'kind'}, s.kind === 'open' ? '(open seat)' : ''),
        s.seat === st.you ? h('span', {class: 'tag'}, ' you') : '',
        acting ? h('span', {class: 'sr-only'}, ' — to move') : '');
    });
    const parts = [h('h2', {class: 'small-h'}, 'Players'), h('ul', {class: 'plain seat-list'}, rows)];
    // your own clock last, nearest the controls (as on a board seen from your side)
    const order = st.seats.map((s) => s.seat).sort((a, b) => (a === st.you) - (b === st.you));
    const timers = shared && clocks.length
      ? [h('div', {class: 'clock-row shared-clock'}, h('span', {class: 'clock-name'}, 'Shared timer'),
        h('span', {class: 'clock', 'data-clock': 'shared', role: 'timer', 'aria-label': 'Shared timer'}, clockText(clocks[0])))]
      : clocks.length === st.seats.length ? order.map((p) => {
        const acting = !st.outcome && (st.to_act || []).includes(p) && !st.real_time;
        const name = p === st.you ? `${seatName(st, p)} (you)` : seatName(st, p);
        return h('div', {class: `clock-row${acting ? ' acting' : ''}${p === st.you ? ' you' : ''}`},
          h('span', {class: 'clock-name'}, name),
          h('span', {class: 'clock', 'data-clock': p, role: 'timer', 'aria-label': `${name}'s clock`}, clockText(clocks[p])));
      }) : [];
    clockBox.replaceChildren(...timers);
    clockBox.hidden = !timers.length;
    if (!token && st.status === 'open') {
      parts.push(h('div', {class: 'buttons'}, st.seats.filter((s) => s.kind === 'open').map((s) =>
        h('button', {type: 'button', class: 'primary', onclick: () => takeSeat(s.seat)}, `Take seat ${s.seat + 1}`))));
    }
    seatsBox.replaceChildren(...parts);
  }

  async function takeSeat(seat) {
    const r = await api(`/api/tables/${id}/join`, {method: 'POST', body: {seat}});
    if (!r.ok) { say(`Could not take the seat: ${r.error}.`); return; }
    navigate(`/t/${id}#seat=${r.data.token}`);
  }

  // Time running low is shown (the clock turns red) and said once to screen readers,
  // at LOW and at 10 seconds.
  const LOW = 20;
  const warned = new Set();
  function warnLow(key, left, who) {
    for (const mark of [LOW, 10]) {
      if (left < mark && left > 0 && !warned.has(`${key}:${mark}`)) {
        warned.add(`${key}:${mark}`);
        announce(`${who} ${mark} seconds left.`);
      }
    }
  }

  function tickClocks() {
    if (!screen) return;
    const st = screen.state;
    const elapsed = (performance.now() - clockAt) / 1000;
    const running = !st.outcome && st.status === 'live';
    const clocks = st.clocks || [];
    const shared = st.shared_clock !== null && st.shared_clock !== undefined;
    for (const el of clockBox.querySelectorAll('[data-clock]')) {
      const key = el.dataset.clock;
      if (key === 'shared') {
        const left = clocks[0] - (running ? elapsed : 0);
        el.textContent = clockText(left);
        el.classList.toggle('low', left < LOW);
        if (running && mine()) warnLow('shared', left, 'The team has');
      } else if (!shared) {
        const seat = Number(key);
        const runs = running && !st.real_time && (st.to_act || []).length === 1 && st.to_act[0] === seat;
        const left = clocks[seat] - (runs ? elapsed : 0);
        el.textContent = clockText(left);
        el.classList.toggle('low', left < LOW);
        if (runs && seat === st.you) warnLow(seat, left, 'You have');
      }
    }
  }
  const ticker = window.setInterval(tickClocks, 200);

  function renderMoves(before) {
    const st = screen.state;
    const moves = screen.moves || [];
    const history = st.view.board.history || null;  // who made each move, where the board keeps it
    movesList.replaceChildren(...moves.map((m, i) => {
      const seat = history && history[i] && Number.isInteger(history[i].seat) ? history[i].seat : null;
      const by = seat === null ? '' : ` (${seatName(st, seat)})`;
      return h('li', {class: i === moves.length - 1 ? 'last' : ''}, h('span', {class: 'move'}, m), by);
    }));
    if (!moves.length) movesList.append(h('li', {class: 'muted none'}, 'No moves yet.'));
    // inside the list: the page never scrolls by itself; at the next frame, when the
    // page is laid out anyway (read now, it would lay the page out once more)
    window.requestAnimationFrame(() => { movesList.scrollTop = movesList.scrollHeight; });
  }

  function renderActions() {
    const st = screen.state;
    const items = [];
    if (mine() && !st.outcome && st.status === 'live') {
      const people = st.seats.filter((s) => s.seat !== st.you && s.kind !== 'bot').length;
      items.push(h('button', {type: 'button', id: 'resign', class: 'warn', onclick: (e) => {
        if (resignArmed) { window.clearTimeout(resignArmed); resignArmed = null; act('resign', {version: screen.state.version}, 'You resigned.'); return; }
        e.target.textContent = 'Really resign? Click again';
        resignArmed = window.setTimeout(() => { resignArmed = null; renderActions(); }, 4000);
      }}, resignArmed ? 'Really resign? Click again' : (screen.cooperative ? 'Give up (the team loses)' : 'Resign')));
      if (people > 0 && st.seats.length === 2) {
        items.push(h('button', {type: 'button', id: 'offer-draw', onclick: () => act('offer', {offer: 'draw', version: screen.state.version})}, 'Offer a draw'));
      }
      if (st.undo && screen.moves.length) {
        items.push(h('button', {type: 'button', id: 'undo', onclick: () => act('offer', {offer: 'undo', version: screen.state.version})},
          people > 0 ? 'Ask to undo' : 'Undo'));
      } else if (!st.undo && !st.real_time) {
        items.push(h('p', {class: 'small', id: 'no-undo'}, 'No undo while cards are face down (a take-back would show their replies, then rewind; see the rules).'));
      }
      if (screen.hints && st.legal.length) items.push(h('button', {type: 'button', id: 'hint-btn', onclick: hint}, 'Hint'));
    }
    if (mine() && st.outcome) {
      items.push(h('button', {type: 'button', id: 'rematch', class: 'primary', onclick: rematch}, st.rematch ? (screen.cooperative ? 'Go to the new deal' : 'Go to the rematch')
        : (screen.cooperative ? 'Play again (same seats, a new deal)' : 'Rematch (sides swapped)')));
    }
    actions.replaceChildren(...items);
  }

  async function rematch() {
    const st = screen.state;
    if (st.rematch) { navigate(`/t/${st.rematch}#seat=${token}`); return; }
    const r = await api(`/api/tables/${id}/rematch`, {method: 'POST', token});
    if (!r.ok) { say(`No rematch: ${r.error}.`); return; }
    navigate(`/t/${r.data.id}#seat=${token}`);
  }

  async function hint() {
    hintVersion = screen.state.version;
    hintBox.replaceChildren(h('p', {}, 'Thinking…'));
    const r = await api(`/api/tables/${id}/hint`, {token});
    if (!alive) return;
    if (!r.ok) { hintBox.replaceChildren(h('p', {}, `No hint: ${r.error}.`)); return; }
    const d = r.data;
    if (d.kind === 'solver') {
      // in plies, as `fourfold play` says it ("win in 11" read as 11 of one's own moves)
      const value = (v, dist) => v === 'unknown' ? 'not proven either way'
        : v === 'draw' || dist === null ? v : `${v} in ${dist} pl${dist === 1 ? 'y' : 'ies'}`;
      hintBox.replaceChildren(h('h2', {class: 'small-h'}, 'Hint (solver)'),
        h('p', {}, `You: ${value(d.value, d.distance)} with best play.`),
        h('ul', {class: 'plain hint-moves'}, d.moves.slice(0, 10).map((m) => h('li', {},
          h('button', {type: 'button', class: 'small link-btn', onclick: () => play(m.move)}, m.move), ` ${value(m.value, m.distance)}`))));
    } else {
      hintBox.replaceChildren(h('h2', {class: 'small-h'}, 'Hint'), h('p', {}, d.text || 'No hint.'),
        d.move ? h('button', {type: 'button', class: 'small', onclick: () => play(d.move)}, `Play ${d.move}`) : '');
    }
    announce('Hint ready');
  }

  function renderOffer() {
    const offer = screen.state.offer;
    const st = screen.state;
    if (!offer || st.outcome) { offerBox.hidden = true; offerBox.replaceChildren(); return; }
    offerBox.hidden = false;
    const what = offer.offer === 'draw' ? 'a draw' : 'to undo the last move';
    if (mine() && offer.seat !== st.you) {
      offerBox.replaceChildren(h('p', {}, `${seatName(st, offer.seat)} offers ${what}.`),
        h('div', {class: 'buttons'},
          h('button', {type: 'button', class: 'primary', id: 'accept', onclick: () => act('answer', {accept: true})}, 'Accept'),
          h('button', {type: 'button', id: 'decline', onclick: () => act('answer', {accept: false})}, 'Decline')));
    } else {
      offerBox.replaceChildren(h('p', {}, offer.seat === st.you ? `You asked for ${what}; waiting for an answer.` : `${seatName(st, offer.seat)} offers ${what}.`));
    }
  }

  function renderLinks() {
    const st = screen.state;
    const items = [];
    if (st.outcome) {
      const replay = `/replay/${id}${token ? `#seat=${token}` : ''}`;
      items.push(h('p', {}, h('a', {href: replay, 'data-nav': true, id: 'replay-link', class: 'button-link'},
        screen.perfect_information ? 'Replay and analysis' : 'Shared replay with the table (everything revealed)')));
    }
    if (st.rematch) items.push(h('p', {}, 'A rematch is ready: ', h('a', {href: `/t/${st.rematch}${token ? `#seat=${token}` : ''}`, 'data-nav': true}, 'go to it')));
    const watch = absolute(`/t/${id}`);
    items.push(h('p', {class: 'small'}, 'Spectator link ', copyButton(() => watch, 'Copy')));
    if (token) items.push(h('p', {class: 'small'}, 'Your seat link (to play on another device) ', copyButton(() => absolute(`/t/${id}#seat=${token}`), 'Copy')));
    items.push(h('p', {class: 'small'}, h('a', {href: `/rules/${st.game}?variant=${st.variant}`, 'data-nav': true}, 'Rules'),
      ' · ', h('a', {href: `/api/tables/${id}/record`, download: `fourfold-${id}.txt`, id: 'record-link', onclick: downloadRecord},
        token && !st.outcome && !screen.perfect_information ? 'Download the record (with your own cards)' : 'Download the record')));
    links.replaceChildren(...items);
  }

  // A seat's record is its own (its own cards while the game goes on, everything after
  // the end): fetched with the seat's token, then saved from memory.
  async function downloadRecord(event) {
    if (!token) return;  // a spectator's link works as it is
    event.preventDefault();
    const r = await api(`/api/tables/${id}/record`, {token, text: true});
    if (!r.ok) { say(`No record: ${r.error}.`); return; }
    const url = URL.createObjectURL(new Blob([r.data], {type: 'text/plain'}));
    const a = h('a', {href: url, download: `fourfold-${id}.txt`, hidden: true});
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function renderSummary() {
    // Colour-blind aids (on by default): the board in words, from the caller's view.
    // The game's controller says it (its optional words(board)); without one, nothing.
    const b = screen.state.view.board;
    const lines = controller && controller.words ? controller.words(b) : [];
    summary.hidden = !lines.length;
    summary.replaceChildren(h('h2', {class: 'small-h'}, 'The board in words'), ...lines.map((l) => h('p', {}, l)));
  }

  // A table that does not exist: say so once, and stop asking (no socket, no retries).
  let gone = false;
  function missing() {
    gone = true;
    turn.textContent = 'There is no such table: check the link, or start a new one from the lobby.';
    title.textContent = 'No such table';
    document.title = 'No such table · Fourfold';
    if (reconnect) window.clearTimeout(reconnect);
    if (socket) socket.close();
  }

  // -- live --------------------------------------------------------------------------------
  // The board says whether the page is live (data-live="1" once the socket is welcomed);
  // after a drop, a line says the page is reconnecting, and actions go over HTTP meanwhile.
  function showLive(live) {
    if (live) board.dataset.live = '1';
    else delete board.dataset.live;
    if (live) connection.textContent = DROPPED;  // for the next drop
    connection.hidden = live || !reconnecting || gone;
    chat.live(live);  // Send waits for the socket; a welcome reads the chat again
  }
  let reconnecting = false;
  function connect() {
    if (!alive || gone) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/api/tables/${id}/live`);
    socket = ws;
    ws.addEventListener('open', () => {
      ws.send(JSON.stringify({type: 'hello', token: token || null, screen: true}));
      backoff = 500;
    });
    ws.addEventListener('message', (event) => {
      let m;
      try { m = JSON.parse(event.data); } catch (err) { return; }
      if (m.type === 'welcome') {
        welcomed = true;
        showLive(true);
        if (reconnecting) refresh();  // events may have been missed while away
        reconnecting = true;
      } else if ((m.type === 'ack' || m.type === 'pong' || m.type === 'refused') && pending.length) answered(m);
      else if (m.type === 'event') heard(m);
      else if (m.type === 'chat') chat.heard(m);
      else if (m.type === 'rematch') {
        say('A rematch is ready.');
        refresh();
      } else if (m.type === 'closed') {
        say('This table was closed.');
      } else if (m.type === 'refused' && m.status === 404) {
        missing();
      } else if (m.type === 'refused' && m.status === 403) {
        say(m.error);
      }
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;  // an older socket, already replaced
      welcomed = false;
      showLive(false);
      while (pending.length) answered({type: 'refused', status: 0, error: 'the connection dropped; try again'});
      if (!alive || gone) return;
      reconnect = window.setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 8000);
    });
    ws.addEventListener('error', () => { /* the close handler reconnects */ });
  }

  // a window that grows or shrinks past the point where the other layout draws the
  // picture larger: drawn again in that one
  const refit = () => {
    const svg = board.querySelector('svg');
    if (screen && svg && wants(board, svg) !== svg.classList.contains('wide')) renderBoard();
  };
  window.addEventListener('resize', refit);

  refresh();
  connect();
  return () => {
    alive = false;
    window.removeEventListener('resize', refit);
    document.removeEventListener('keydown', usingKeys, true);
    document.removeEventListener('pointerdown', usingPointer, true);
    window.clearInterval(ticker);
    if (reconnect) window.clearTimeout(reconnect);
    if (socket) socket.close();
  };
}
