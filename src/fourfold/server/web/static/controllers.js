// A game's browser controller turns clicks and taps on the server's SVG into legal moves.
// The moves always come from the server: each event's `screen.choices` lists the
// recipient's legal moves, each {move: NOTATION, action: N, ...parts} with the move in
// named parts from the game's board codec, so no controller parses notation.
//
// The protocol. A game names its controller in its extension bundle (`browser`:
// "package:file.js", a file in the game's own folder); the page learns its URL from
// /api/games and from every screen (`screen.controller`, null for none). The module's
// default export is a function `(kit) => controller` (kit: kit.js), the controller being
//   decorate(svg, screen, ctx)  mark the picture's clickable parts (called after each
//                               draw, only while the seat may act)
//   controls(screen, ctx)       an element of prompts and buttons beside the board, or null
//   reset()                     forget a half-made choice (the position changed)
//   words(board)                (optional) the board in words, a list of lines, for the
//                               colour-blind aid and screen readers
// with ctx = {play(choice), rerender(), focusCell(cell)}. The page then makes the
// picture's buttons (role="button", from kit.actionable) one Tab stop that the arrow keys
// move through (kit.rove, kit.arrowKeys), and Escape calls reset(); a button that takes
// the arrow keys itself carries data-keys. A game without a controller
// (or whose module fails to load) gets `generic()`: one button per legal move.
import * as kit from './kit.js';

const {h} = kit;
const loaded = new Map();

/** The controller at `url` (a module URL from the server), or the generic one. */
export async function controllerFor(url) {
  if (!url) return generic();
  if (!loaded.has(url)) {
    loaded.set(url, import(url).then((m) => m.default).catch((err) => {
      console.warn(`controller ${url} did not load (${err}); playing with buttons`);
      return null;
    }));
  }
  const make = await loaded.get(url);
  return make ? make(kit) : generic();
}

/** Any game: one button per legal move, named by its notation. */
export function generic() {
  function decorate() {}
  function controls(screen, ctx) {
    const choices = screen.choices || [];
    if (!choices.length) return null;
    return h('div', {class: 'controls-inner'}, h('p', {class: 'prompt'}, 'Your move:'),
      h('div', {class: 'buttons', role: 'group', 'aria-label': 'Legal moves'},
        choices.slice(0, 200).map((c) => h('button', {type: 'button', 'data-move': c.move, onclick: () => ctx.play(c)}, c.move))));
  }
  return {decorate, controls, reset() {}};
}
