// Table chat (issue 31): two people at a two-player table talk; everyone at the table
// reads it (server/chat/). Lines are written as text, never as markup. "Mute" hides the
// chat and stops new lines from showing, and is remembered (localStorage) for every
// table. A table without chat (Quatrefoil: its rules limit what the team may tell each
// other to the signal; a game against a bot) says why instead.
//
// mountChat({id, token, send}) -> {element, start(), heard(message), live(on)}: ``start``
// reads the chat so far (the page calls it once its board is drawn); ``send`` sends a
// message over the table's socket and resolves with its answer (``ack`` or ``refused``);
// ``heard`` takes each ``chat`` message the socket delivers; ``live(on)`` says whether
// the socket is welcomed (subscribed) now.
//
// The section carries data-live="1" once a read made since the socket's latest welcome
// has come back: from then on the chat on the page is whole, and every new line comes
// over the socket (the page asks nothing more of the server until the next reconnect).
//
// Lines reach a page only over its socket once it is subscribed, so a line said between
// reading the chat and that moment (or while the socket was down) is heard by nobody:
// each time the socket is welcomed the chat is read again, and its lines merged with
// those shown by their ids (the server's numbering), each line once, in the server's
// order. Send waits for the socket too, and says so.

import {api, h} from './util.js';

const MUTE_KEY = 'fourfold.chat.muted';

function muted() {
  try { return window.localStorage.getItem(MUTE_KEY) === '1'; } catch (err) { return false; }
}

function setMuted(on) {
  try { window.localStorage.setItem(MUTE_KEY, on ? '1' : '0'); } catch (err) { /* private mode */ }
}

export function mountChat({id, token, send}) {
  const element = h('section', {class: 'chat', id: 'chat', 'aria-label': 'Table chat'});
  const log = h('ol', {class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite'});
  const note = h('p', {class: 'small chat-note', id: 'chat-note'});
  const input = h('input', {type: 'text', id: 'chat-input', maxlength: 300, autocomplete: 'off',
    'aria-label': 'Chat message', placeholder: 'Say something to the table'});
  const say = h('button', {type: 'submit', id: 'chat-send', disabled: true, 'aria-describedby': 'chat-wait'}, 'Send');
  const form = h('form', {class: 'chat-form', id: 'chat-form'}, input, say);
  // why Send is greyed out: the page's live connection is not (or no longer) there
  const wait = h('p', {class: 'small chat-wait', id: 'chat-wait', role: 'status'});
  const mute = h('button', {type: 'button', id: 'chat-mute', 'aria-pressed': 'false'}, 'Mute chat');
  const seen = new Set();
  const early = [];  // lines heard before the chat so far was read
  let loaded = false;
  let built = false;  // the chat's parts are in the section (an enabled chat was read)
  let enabled = false;
  let maxChars = 300;
  let isLive = false;
  let wasLive = false;
  let sending = false;

  function show(line) {
    if (seen.has(line.id)) return;
    seen.add(line.id);
    // textContent only: a line is never markup
    const who = h('span', {class: 'chat-who'});
    who.textContent = `${line.name}: `;
    const what = h('span', {class: 'chat-text'});
    what.textContent = line.text;
    const item = h('li', {class: 'chat-line', 'data-seat': line.seat, 'data-id': line.id}, who, what);
    // in the server's order: a line read again after a reconnect may be older than
    // lines heard since
    let after = log.lastElementChild;
    while (after && Number(after.dataset.id) > line.id) after = after.previousElementSibling;
    if (after) after.after(item);
    else log.prepend(item);
    while (log.children.length > 200) log.firstElementChild.remove();
    log.scrollTop = log.scrollHeight;  // the list scrolls, never the page
  }

  function drawSend() {
    say.disabled = sending || !isLive;
    wait.hidden = isLive || form.hidden;
    wait.textContent = isLive ? '' : wasLive
      ? 'The live connection dropped: Send comes back once the page has reconnected.'
      : 'Connecting: Send works once the page is live.';
  }

  function drawMute() {
    const on = muted();
    mute.textContent = on ? 'Unmute chat' : 'Mute chat';
    mute.setAttribute('aria-pressed', on ? 'true' : 'false');
    log.hidden = on;
    form.hidden = on || !enabled || !token;
    note.textContent = on ? 'Chat is muted.' : (!token && enabled ? 'Spectators read the chat; the two players write in it.' : '');
    drawSend();
  }

  mute.addEventListener('click', () => { setMuted(!muted()); drawMute(); });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !isLive || sending) return;
    if (text.length > maxChars) { note.textContent = `Too long: at most ${maxChars} characters.`; return; }
    sending = true;
    drawSend();
    const reply = await send({type: 'chat', text});
    sending = false;
    drawSend();
    if (reply && reply.type === 'ack') {
      input.value = '';
      note.textContent = '';
    } else {
      note.textContent = reply ? `Not sent: ${reply.error}.` : 'Not sent: the connection is down; try again.';
    }
    input.focus();
  });

  // The chat so far, read once the board is drawn and again each time the socket is
  // welcomed; a read asked for while one is on its way is made after it (the one on its
  // way may have been answered before the socket was subscribed).
  let reading = false;
  let readAgain = false;
  let welcomes = 0;  // how many times the socket was welcomed: a read made since the latest counts
  async function load() {
    if (reading) { readAgain = true; return; }
    reading = true;
    try {
      do {
        readAgain = false;
        const since = isLive ? welcomes : -1;
        await readOnce();
        if (since === welcomes && isLive) element.dataset.live = '1';
      } while (readAgain);
    } finally {
      reading = false;
    }
  }

  async function readOnce() {
    const r = await api(`/api/tables/${id}/chat`, {token});
    if (!r.ok) {
      // nothing shown yet: say why (the next welcome reads it again); else keep the lines
      if (!built) element.replaceChildren(h('p', {class: 'small chat-off', id: 'chat-error', role: 'alert'}, `The chat could not be read: ${r.error}.`));
      loaded = true;
      return;
    }
    loaded = true;
    enabled = r.data.enabled;
    maxChars = r.data.max_chars || maxChars;
    if (!enabled) {
      built = false;
      element.replaceChildren(h('p', {class: 'small chat-off', id: 'chat-off'}, `No chat: ${r.data.reason}.`));
      return;
    }
    if (!built) {
      built = true;
      element.replaceChildren(h('h2', {class: 'small-h'}, 'Chat'), mute, log, form, wait, note);
    }
    for (const line of [...r.data.lines, ...early.splice(0)]) show(line);
    drawMute();
  }

  let started = false;
  return {
    element,
    // read once the board is drawn: the chat is not what a page's first second is for
    start() { if (!started) { started = true; load(); } },
    heard(message) {
      if (!loaded) early.push(message);
      else if (enabled) show(message);
    },
    // the table's socket is welcomed (on) or gone (off): lines said meanwhile are read
    live(on) {
      isLive = on;
      delete element.dataset.live;
      if (on) { wasLive = true; welcomes += 1; }
      drawSend();
      if (on && started) load();
    },
  };
}
