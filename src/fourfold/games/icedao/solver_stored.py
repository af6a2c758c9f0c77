"""Ice Dao's answers from its stored proof certificates (``fourfold.solve.pns.stored``).

What the committed certificates prove about a position and about each of its moves,
as a ``Solution`` of the bounded solver (``fourfold.games.icedao.solver.solve`` combines
it with a search within the time limit; an exact value the search finds beats a bound).

Colours swapped. **Ruling** (rules.md: the rules name no colour except in who moves first,
and a half turn of the board maps the ``crossed`` start's sides onto each other): a
position with Blue and Green swapped and the board turned a half turn is the same game
with the colours renamed. Every move and every line of four is turned with the board,
and the option ``first`` only picks the start's side to move. So a certificate for a
position answers its colour-swapped twin as well (in the game with ``first`` swapped):
``fourfold solve icedao --option first=green`` gets Green's forced win from the start.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.outcome import Result
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.state import IceDaoState
from fourfold.solve.pns.hooks import proof_hooks
from fourfold.solve.pns.stored import StoredFacts, index_entries, stored_facts
from fourfold.solve.position import MoveValue, Solution, Value

SOURCE = "stored proof certificates"
_FIRST = {"blue": "green", "green": "blue"}
_SQUARE = str.maketrans("abcde12345GB", "edcba54321BG")


def _swapped(game: IceDaoGame, state: IceDaoState) -> tuple[IceDaoGame, IceDaoState] | None:
    """The colour-swapped twin: colours renamed, the board turned a half turn, in the
    game whose option ``first`` is the other colour."""
    from fourfold.core.registry import load

    options = game.info.option_strings()
    if options.get("first") not in _FIRST:
        return None
    twin = load(game.name, game.info.variant, **{**options, "first": _FIRST[options["first"]]})
    assert isinstance(twin, IceDaoGame)
    board, side = game.format_position(state).rsplit(" ", 1)
    rows = ["".join(cell.translate(_SQUARE) for cell in row) for row in board.split("/")]
    turned = "/".join(",".join(reversed(row.split(","))) for row in reversed(rows))
    return twin, twin.parse_position(f"{turned} {side.translate(_SQUARE)}")


#: per configured game: position after a move -> per side, the moves it cannot win within
_AFTER: dict[tuple[str, str, tuple[tuple[str, str], ...]], dict[str, list[int]]] = {}


def _bounds_after(game: IceDaoGame) -> dict[str, list[int]]:
    """The no-win bounds the certificates prove for the positions one move after a
    certified position, read from the claims whose attacker is to move there.

    A *no-win* certificate for the side to move, N moves, is checked by trying every one
    of its moves (``fourfold.solve.certificates``): none may win at once and, N > 1,
    after each one that leaves the game going on the walk goes on with N - 1 moves. So
    after each such move the checked walk proves that the side cannot force a win within
    N - 1 moves. (A node the game's lemma accepts needs more than N moves: more than
    N - 1 after any of its moves.) The claims whose attacker is not to move say nothing
    about every move and are not used."""
    options = game.info.option_strings()
    key = (game.name, game.info.variant, tuple(sorted(options.items())))
    if key in _AFTER:
        return _AFTER[key]
    after: dict[str, list[int]] = {}
    hooks = proof_hooks(game)
    for entry in [] if hooks is None else index_entries(hooks):
        if (entry["claim"], entry["game"], entry["variant"], entry["options"]) != \
                ("no-win", game.name, game.info.variant, options) or int(entry["moves"]) < 2:
            continue
        state = game.parse_position(entry["position"])
        side = int(entry["attacker"])
        if state.to_play != side or game.outcome(state) is not None:
            continue
        for move in game.legal_moves(state):
            child = game.next_state(state, move)
            if game.outcome(child) is None:
                known = after.setdefault(game.format_position(child), [0, 0])
                known[side] = max(known[side], int(entry["moves"]) - 1)
    _AFTER[key] = after
    return after


def _certified(game: IceDaoGame, state: IceDaoState) -> StoredFacts | None:
    """What the certificates prove from ``state`` itself: its own claims, and the bound
    a certified position one move before gives it (``_bounds_after``)."""
    own = stored_facts(game, state)
    if game.outcome(state) is not None:
        return own
    inherited = _bounds_after(game).get(game.format_position(state))
    if inherited is None:
        return own
    if own is None:
        own = StoredFacts(game.format_position(state), state.to_play, (None, None), (0, 0))
    no_win = tuple(max(a, b) for a, b in zip(own.no_win_moves, inherited, strict=True))
    return StoredFacts(own.position, own.mover, own.win_moves, no_win, own.best_move)


def facts(game: IceDaoGame, state: IceDaoState) -> StoredFacts | None:
    """What the certificates prove from ``state`` or from its colour-swapped twin."""
    found = [_certified(game, state)]
    twin = _swapped(game, state)
    if twin is not None:
        other = _certified(*twin)
        if other is not None:
            best = None if other.best_move is None else other.best_move.translate(_SQUARE)
            found.append(StoredFacts(game.format_position(state), 1 - other.mover,
                                     other.win_moves[::-1], other.no_win_moves[::-1], best))
    known = [f for f in found if f is not None]
    if not known:
        return None
    wins = tuple(min((w for f in known if (w := f.win_moves[s]) is not None), default=None)
                 for s in (0, 1))
    no_win = tuple(max(f.no_win_moves[s] for f in known) for s in (0, 1))
    best = next((f.best_move for f in known if f.best_move is not None), None)
    return StoredFacts(known[0].position, known[0].mover, wins, no_win, best)


def _plies(moves: int, winner: int, mover: int) -> int:
    """The winner's N-th move is ply 2N - 1 if it is to move, else 2N."""
    return 2 * moves - (1 if winner == mover else 0)


def _name(game: IceDaoGame, side: int) -> str:
    return str(game.player_name(side))


def _move(game: IceDaoGame, state: IceDaoState, move: Any, root: StoredFacts,
          forbidden: frozenset[Any], key_of: Any) -> tuple[MoveValue, tuple[int, int]]:
    """The move's value for the side making it from what the certificates prove after
    it, and a sort key (smallest best)."""
    mover = state.to_play
    child = game.next_state(state, move)
    outcome = game.outcome(child)
    if outcome is not None:
        if outcome.result is Result.DRAW:
            return MoveValue(move, Value.DRAW, 1), (1, 0)
        won = outcome.winner == mover
        return MoveValue(move, Value.WIN if won else Value.LOSS, 1), ((0, 1) if won else (2, -1))
    if key_of(child) in forbidden:
        return MoveValue(move, Value.DRAW, 1), (1, 0)
    found = facts(game, child)
    wins = (None, None) if found is None or forbidden else found.win_moves
    no_win = [0, 0] if found is None else list(found.no_win_moves)
    # the mover could not win within N moves from the position: after any of its moves,
    # not within N - 1
    no_win[mover] = max(no_win[mover], root.no_win_moves[mover] - 1)
    other = 1 - mover
    for side in (mover, other):
        n = wins[side]
        if n is None:
            continue
        plies = 1 + _plies(n, side, other)
        exact = n == 1 or no_win[side] >= n - 1
        value = Value.WIN if side == mover else Value.LOSS
        detail = None if exact else f"{_name(game, side)} forces a win within {plies} plies"
        key = (0, plies) if side == mover else (2, -plies)
        return MoveValue(move, value, plies if exact else None, detail), key
    bounds = [f"{_name(game, side)} cannot force a win within"
              f" {1 + _plies(no_win[side], side, other)} plies"
              for side in (mover, other) if no_win[side]]
    return MoveValue(move, Value.UNKNOWN, None, "; ".join(bounds) or None), (1, 0)


def stored_solution(game: IceDaoGame, state: IceDaoState, forbidden: frozenset[Any],
                    key_of: Any) -> Solution | None:
    """The value the certificates prove for ``state`` with what they prove about each
    move, or ``None`` when they prove no value for it. A win is read only when no
    position has been seen twice before (``forbidden`` empty): a quickest forced win
    never repeats a position of its own line, but may pass one the history made a draw."""
    root = facts(game, state)
    if root is None or forbidden:
        return None
    mover = state.to_play
    winners = [side for side in (0, 1) if root.win_moves[side] is not None]
    if not winners:
        return None
    winner = winners[0]
    moves = root.win_moves[winner]
    assert moves is not None
    plies = _plies(moves, winner, mover)
    exact = moves == 1 or root.no_win_moves[winner] >= moves - 1
    name = _name(game, winner)
    if exact:
        detail = (f"{name} forces a win within {moves} of its moves; the quickest forced win"
                  f" takes exactly {plies} plies"
                  + (f" (not within {plies - 2})" if moves > 1 else ""))
    else:
        detail = (f"{name} forces a win within {moves} of its moves; the quickest forced win"
                  f" takes at most {plies} plies")
    valued = [_move(game, state, m, root, forbidden, key_of) for m in game.legal_moves(state)]
    valued.sort(key=lambda item: item[1])
    return Solution(Value.WIN if winner == mover else Value.LOSS, plies if exact else None,
                    tuple(m for m, _ in valued), detail=f"{detail} ({SOURCE})", source=SOURCE)


def settled(solution: Solution) -> bool:
    """Whether a search within seconds has nothing to add: the value's distance is exact
    and every move has an exact value or a proven bound (from the start, the bounds lie
    beyond ten plies, where a search within seconds proves nothing)."""
    return solution.distance is not None and all(
        (m.value is not Value.UNKNOWN and m.distance is not None) or m.detail is not None
        for m in solution.moves)


def combine(game: IceDaoGame, state: IceDaoState, stored: Solution | None,
            found: Solution | None) -> Solution | None:
    """The search's answer where it is exact, the certificates' where it is not."""
    if stored is None or found is None:
        return found if stored is None else stored
    known = {game.format_move(state, m.move): m for m in stored.moves}
    moves = []
    for m in found.moves:
        kept = known.get(game.format_move(state, m.move))
        moves.append(kept if m.value is Value.UNKNOWN and kept is not None else m)
    rank = {id(m): i for i, m in enumerate(stored.moves)}
    moves.sort(key=lambda m: _rank(m, rank))
    return Solution(found.value, found.distance, tuple(moves), found.nodes, found.seconds,
                    detail=None if found.distance is not None else stored.detail,
                    source=f"search, and {SOURCE}")


def _rank(m: MoveValue, stored_rank: dict[int, int]) -> tuple[int, int]:
    from fourfold.solve.position import preference

    if m.value is Value.WIN and m.distance is None:
        return (0, 10_000 + stored_rank.get(id(m), 0))
    if m.value is Value.LOSS and m.distance is None:
        return (2, -10_000 + stored_rank.get(id(m), 0))
    return preference(m.value, m.distance)
