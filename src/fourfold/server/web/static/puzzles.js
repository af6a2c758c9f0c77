// The puzzle page (issue 32; server/puzzles): a certified puzzle, tries checked move by
// move by the server (the line is never sent ahead), a hint and the solution, Glicko-2
// ratings for the puzzle and for this browser (a random id in localStorage, no account),
// and the daily puzzle. /puzzles: the next puzzle near your rating (?game=G: of that
// game, chosen in the page's game list); /puzzles/daily; /puzzles/<id>: that puzzle.
import {api, h, navigate} from './util.js';

const KEY = 'fourfold-solver';

export function solverId() {
  let id = null;
  try { id = localStorage.getItem(KEY); } catch (err) { id = null; }
  if (!id || !/^[0-9a-f]{32}$/.test(id)) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    try { localStorage.setItem(KEY, id); } catch (err) { /* private mode: a new id each visit */ }
  }
  return id;
}

function ratingText(r) {
  return `${r.rating} ± ${2 * r.deviation} (${r.plays} ${r.plays === 1 ? 'try' : 'tries'})`;
}

export function puzzlesPage(main, which) {
  const solver = solverId();
  let alive = true;
  let puzzle = null;
  let step = 0;
  let misses = 0;
  let chosen = new URLSearchParams(location.search).get('game') || '';
  const title = h('h1', {}, 'Puzzles');
  const gameSelect = h('select', {id: 'puzzle-game'},
    h('option', {value: ''}, 'Any game'));
  const goal = h('p', {class: 'turn', id: 'puzzle-goal'}, 'Loading…');
  const board = h('div', {class: 'board', id: 'puzzle-board'});
  const feedback = h('p', {id: 'puzzle-feedback', role: 'status', 'aria-live': 'polite'});
  const select = h('select', {id: 'puzzle-move', 'aria-label': 'Your move'});
  const play = h('button', {type: 'button', id: 'puzzle-play', class: 'primary'}, 'Play this move');
  const hint = h('button', {type: 'button', id: 'puzzle-hint'}, 'Hint');
  const solution = h('button', {type: 'button', id: 'puzzle-solution'}, 'Show the solution');
  const next = h('button', {type: 'button', id: 'puzzle-next'}, 'Next puzzle');
  const about = h('p', {class: 'muted', id: 'puzzle-about'});
  const you = h('p', {id: 'puzzle-you'});
  const line = h('p', {id: 'puzzle-line'});
  const moveRow = h('div', {class: 'inline'}, select, ' ', play);
  main.append(h('div', {class: 'table-page'}, h('div', {class: 'table-head'}, title, goal),
    h('div', {class: 'table-layout'},
      h('div', {class: 'board-col'}, board),
      h('div', {class: 'side-col'},
        moveRow, feedback, line,
        h('div', {class: 'buttons'}, hint, solution, next),
        about, you,
        h('p', {class: 'inline'}, h('label', {for: 'puzzle-game'}, 'Puzzles of '), gameSelect),
        h('p', {}, h('a', {href: '/puzzles/daily', 'data-nav': true, id: 'daily-puzzle-link'}, 'The daily puzzle'), ' · ',
          h('a', {href: '/puzzles', 'data-nav': true}, 'A puzzle near your rating'), ' · ',
          h('a', {href: '/explore', 'data-nav': true, id: 'explorer-link'}, 'The explorer of solved games')),
        h('p', {class: 'muted small'}, 'Only your first try of each puzzle is rated: a wrong move, a hint or the solution counts as a miss. Your rating lives in this browser (no account).')))));

  function picture(svg) {
    board.innerHTML = svg;
    const s = board.querySelector('svg');
    if (s) { s.removeAttribute('width'); s.removeAttribute('height'); }
  }

  function choices(legal) {
    select.replaceChildren(...legal.map((m) => h('option', {value: m}, m)));
    const open = legal.length > 0;
    for (const b of [select, play, hint]) b.disabled = !open;
    moveRow.hidden = !open;
  }

  function rated(r) {
    if (r && r.you) you.textContent = `Your rating: ${ratingText(r.you)} · this puzzle: ${ratingText(r.puzzle)}.`;
  }

  async function load() {
    const path = which === 'daily' ? `/api/puzzles/daily?solver=${solver}`
      : which ? `/api/puzzles/${encodeURIComponent(which)}?solver=${solver}`
        : `/api/puzzles?solver=${solver}${chosen ? `&game=${encodeURIComponent(chosen)}` : ''}`;
    const r = await api(path);
    if (!alive) return;
    if (!r.ok) { goal.textContent = `No puzzle: ${r.error}.`; return; }
    puzzle = r.data;
    step = 0;
    misses = 0;
    title.textContent = which === 'daily' ? `Daily puzzle · ${puzzle.day}` : `Puzzle: ${puzzle.theme}`;
    document.title = `${title.textContent} · Fourfold`;
    goal.textContent = puzzle.goal_text;
    about.textContent = `${puzzle.game} (${puzzle.variant}) · themes: ${puzzle.theme}${puzzle.bound ? ` (proven within ${puzzle.bound} ${puzzle.bound === 1 ? 'move' : 'moves'})` : ''} · puzzle rating ${ratingText(puzzle.puzzle_rating)}${puzzle.tried ? ' · you have tried it before: not rated again' : ''}.`;
    feedback.textContent = '';
    line.textContent = '';
    picture(puzzle.svg);
    choices(puzzle.legal);
    solution.disabled = false;
    if (puzzle.you) you.textContent = `Your rating: ${ratingText(puzzle.you)}.`;
    else api(`/api/puzzles/rating?solver=${solver}`).then((x) => { if (alive && x.ok) you.textContent = `Your rating: ${ratingText(x.data)}.`; });
  }

  play.addEventListener('click', async () => {
    if (!puzzle || !select.value) return;
    const move = select.value;
    const r = await api(`/api/puzzles/${puzzle.id}/move`, {method: 'POST', body: {solver, step, move}});
    if (!alive) return;
    if (!r.ok) { feedback.textContent = `Not played: ${r.error}.`; return; }
    rated(r.data.rated);
    if (!r.data.right) {
      misses += 1;
      feedback.textContent = `${move} is not the move: try again (${misses} ${misses === 1 ? 'miss' : 'misses'}).`;
      return;
    }
    step = r.data.step;
    picture(r.data.svg);
    choices(r.data.done ? [] : r.data.legal);
    line.textContent = `${line.textContent}${line.textContent ? ' ' : 'Line: '}${move}${r.data.reply ? ` ${r.data.reply}` : ''}`;
    feedback.textContent = r.data.done ? (misses ? 'Solved, after a miss.' : 'Solved!')
      : `Right: ${move}. The reply: ${r.data.reply}. Your move again.`;
    if (r.data.done) solution.disabled = true;
  });

  hint.addEventListener('click', async () => {
    if (!puzzle) return;
    const r = await api(`/api/puzzles/${puzzle.id}/hint`, {method: 'POST', body: {solver, step}});
    if (!alive) return;
    if (!r.ok) { feedback.textContent = `No hint: ${r.error}.`; return; }
    rated(r.data.rated);
    feedback.textContent = `Hint: the move starts ${r.data.hint}`;
  });

  solution.addEventListener('click', async () => {
    if (!puzzle) return;
    const r = await api(`/api/puzzles/${puzzle.id}/solution`, {method: 'POST', body: {solver, step}});
    if (!alive) return;
    if (!r.ok) { feedback.textContent = `No solution: ${r.error}.`; return; }
    rated(r.data.rated);
    picture(r.data.svg);
    choices([]);
    solution.disabled = true;
    line.textContent = `Solution: ${r.data.solution.join(' ')}`;
    feedback.textContent = 'The solution is on the board.';
  });

  next.addEventListener('click', () => {
    if (which) navigate(chosen ? `/puzzles?game=${encodeURIComponent(chosen)}` : '/puzzles');
    else load();
  });

  gameSelect.addEventListener('change', () => {
    chosen = gameSelect.value;
    if (which) navigate(chosen ? `/puzzles?game=${encodeURIComponent(chosen)}` : '/puzzles');
    else load();
  });

  api('/api/puzzles/games').then((r) => {
    if (!alive || !r.ok) return;
    gameSelect.append(...r.data.games.map((g) => h('option', {value: g.game}, `${g.title} (${g.count})`)));
    gameSelect.value = r.data.games.some((g) => g.game === chosen) ? chosen : '';
  });

  load();
  return () => { alive = false; };
}
