"""Playing a puzzle in the terminal: the board, the goal, tries, hints and the solution.

The player types moves in the game's notation; the opponent's replies of the line are
played for them. A legal move that is not the solution costs a try (``TRIES`` in all);
``hint`` shows the first part of the move (where it starts, or where the piece goes),
``solution`` shows the rest of the line, ``quit`` leaves. Reading and writing are
passed in, so that tests drive a session without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.puzzles.puzzle import WIN, Puzzle
from fourfold.render import presenter_for

TRIES = 3
PROMPT = "your move (hint, solution, quit): "


def goal_text(puzzle: Puzzle, mover: str) -> str:
    """The task in words. A puzzle of a bounded search says its bound: its solution is
    the only move that wins (or holds) within it, which is all that was proven."""
    motifs = puzzle.themes[1:]
    also = f" ({', '.join(motifs)})" if motifs else ""
    if puzzle.goal == WIN:
        moves = "move" if puzzle.win_in == 1 else "moves"
        if puzzle.bound is None:
            return f"{mover} to play and win in {puzzle.win_in} {moves}{also}."
        return (f"{mover} to play: find the only move that wins within {puzzle.win_in}"
                f" {moves}{also}.")
    if puzzle.bound is None:
        return f"{mover} to play: find the only move that does not lose{also}."
    moves = "move" if puzzle.bound == 1 else "moves"
    return (f"{mover} to play: find the only move after which the opponent cannot force a"
            f" win within {puzzle.bound} {moves}{also}.")


def hint_of(move: str) -> str:
    """The first part of a move's notation: up to its first space or dash."""
    for i, char in enumerate(move):
        if char in " -" and i:
            return move[:i + 1] + "..."
    return move[0] + "..."


def play(puzzle: Puzzle, read: Callable[[str], str], write: Callable[[str], None],
         *, colour: bool = False, tries: int = TRIES) -> bool:
    """Play one puzzle; ``True`` when it is solved (with or without hints)."""
    game, state = puzzle.load()
    presenter = presenter_for(game)
    mover = game.player_name(game.to_move(state) or 0)
    write(presenter.draw(game, state, None, colour=colour))
    write(f"Puzzle (rating {puzzle.rating}): {goal_text(puzzle, mover)}")
    line = puzzle.solution
    step, left, last = 0, tries, None
    while step < len(line):
        try:
            text = read(PROMPT).strip()
        except EOFError:
            write("")
            write("The input ended before the puzzle was solved.")
            return False
        if text in ("quit", "q", "exit"):
            write(f"The solution: {' '.join(line)}")
            return False
        if text == "solution":
            write(f"The solution from here: {' '.join(line[step:])}")
            _show_end(game, state, line[step:], write, colour)
            return False
        if text == "hint":
            write(f"Hint: {hint_of(line[step])}")
            continue
        if not text:
            continue
        try:
            move = game.parse_move(state, text)
        except FourfoldError as error:
            write(f"{text!r}: {error}")
            continue
        if move not in game.legal_moves(state):
            write(f"{text}: not a legal move here; {presenter.describe_turn(game, state)}")
            continue
        if game.format_move(state, move) != line[step]:
            left -= 1
            miss = "does not win" if puzzle.goal == WIN else "loses"
            if left == 0:
                write(f"{text}: that {miss}. No tries left; the solution: {' '.join(line)}")
                _show_end(game, state, line[step:], write, colour)
                return False
            write(f"{text}: that {miss}. {left} {'try' if left == 1 else 'tries'} left.")
            continue
        state, last, step = _advance(game, state, line[step]), move, step + 1
        if step < len(line):
            reply = line[step]
            before = state
            state, step = _advance(game, state, reply), step + 1
            last = game.parse_move(before, reply)
            write(presenter.draw(game, state, last, colour=colour))
            write(f"Right. The reply: {reply}. Your move again.")
    write(presenter.draw(game, state, last, colour=colour))
    write("Solved!")
    return True


def _advance(game: Any, state: Any, text: str) -> Any:
    return game.next_state(state, game.parse_move(state, text))


def _show_end(game: Any, state: Any, rest: tuple[str, ...], write: Callable[[str], None],
              colour: bool) -> None:
    """The board once the rest of the solution is played out, so the finish is seen."""
    last = None
    for text in rest:
        last = game.parse_move(state, text)
        state = game.next_state(state, last)
    write(presenter_for(game).draw(game, state, last, colour=colour))
    write("After the solution.")
