// Optional sounds: a soft click for a move, two notes for your turn, a chord at the end.
// Made with Web Audio (no files to fetch); muted or not is remembered in this browser.
const KEY = 'fourfold.sound';
let context = null;

let here = true;  // where the browser keeps no storage: for this page only

export function soundOn() {
  try { return localStorage.getItem(KEY) !== '0'; } catch (err) { return here; }
}

export function setSound(on) {
  here = on;
  try { localStorage.setItem(KEY, on ? '1' : '0'); } catch (err) { /* kept in `here` */ }
}

function tone(frequency, start, length, volume = 0.08) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = 'sine';
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(0, context.currentTime + start);
  gain.gain.linearRampToValueAtTime(volume, context.currentTime + start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + start + length);
  osc.connect(gain).connect(context.destination);
  osc.start(context.currentTime + start);
  osc.stop(context.currentTime + start + length + 0.02);
}

const SOUNDS = {
  move: [[660, 0, 0.08]],
  turn: [[523, 0, 0.12], [784, 0.1, 0.18]],
  end: [[523, 0, 0.5], [659, 0.05, 0.5], [784, 0.1, 0.6]],
};

/** Play 'move', 'turn' or 'end' (nothing when muted, or before the page was touched:
 * browsers allow sound only after a person's gesture). */
export function play(name) {
  if (!soundOn() || !window.AudioContext) return;
  try {
    if (!context) context = new AudioContext();
    if (context.state === 'suspended') { context.resume(); return; }
    for (const [f, start, length] of SOUNDS[name] || []) tone(f, start, length);
  } catch (err) { /* no sound: nothing lost */ }
}
