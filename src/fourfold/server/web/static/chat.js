// Table chat (issue 31): two people at a two-player table talk; everyone at the table
// reads it (server/chat/). Lines are written as text, never as markup. "Mute" hides the
// chat and stops new lines from showing, and is remembered (localStorage) for every
// table. A table without chat (Quatrefoil: its rules limit what the team may tell each
// other to the signal; a game against a bot) says why instead.
//
// mountChat({id, token, send}) -> {element, start(), heard(message)}: ``start`` reads the
// chat so far (the page calls it once its board is drawn); ``send`` sends a message
// over the table's socket and resolves with its answer (``ack`` or ``refused``);
// ``heard`` takes each ``chat`` message the socket delivers.

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
  const say = h('button', {type: 'submit', id: 'chat-send'}, 'Send');
  const form = h('form', {class: 'chat-form', id: 'chat-form'}, input, say);
  const mute = h('button', {type: 'button', id: 'chat-mute', 'aria-pressed': 'false'}, 'Mute chat');
  const seen = new Set();
  const early = [];  // lines heard before the chat so far was read
  let loaded = false;
  let enabled = false;
  let maxChars = 300;

  function show(line) {
    if (seen.has(line.id)) return;
    seen.add(line.id);
    // textContent only: a line is never markup
    const who = h('span', {class: 'chat-who'});
    who.textContent = `${line.name}: `;
    const what = h('span', {class: 'chat-text'});
    what.textContent = line.text;
    log.append(h('li', {class: 'chat-line', 'data-seat': line.seat}, who, what));
    while (log.children.length > 200) log.firstElementChild.remove();
    log.scrollTop = log.scrollHeight;  // the list scrolls, never the page
  }

  function drawMute() {
    const on = muted();
    mute.textContent = on ? 'Unmute chat' : 'Mute chat';
    mute.setAttribute('aria-pressed', on ? 'true' : 'false');
    log.hidden = on;
    form.hidden = on || !enabled || !token;
    note.textContent = on ? 'Chat is muted.' : (!token && enabled ? 'Spectators read the chat; the two players write in it.' : '');
  }

  mute.addEventListener('click', () => { setMuted(!muted()); drawMute(); });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (text.length > maxChars) { note.textContent = `Too long: at most ${maxChars} characters.`; return; }
    say.disabled = true;
    const reply = await send({type: 'chat', text});
    say.disabled = false;
    if (reply && reply.type === 'ack') {
      input.value = '';
      note.textContent = '';
    } else {
      note.textContent = reply ? `Not sent: ${reply.error}.` : 'Not sent: the connection is down; try again.';
    }
    input.focus();
  });

  async function load() {
    const r = await api(`/api/tables/${id}/chat`, {token});
    loaded = true;
    if (!r.ok) return;
    enabled = r.data.enabled;
    maxChars = r.data.max_chars || maxChars;
    if (!enabled) {
      element.replaceChildren(h('p', {class: 'small chat-off', id: 'chat-off'}, `No chat: ${r.data.reason}.`));
      return;
    }
    element.replaceChildren(h('h2', {class: 'small-h'}, 'Chat'), mute, log, form, note);
    for (const line of [...r.data.lines, ...early]) show(line);
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
  };
}
