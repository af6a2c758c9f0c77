"""The bounds and values a game's committed certificates prove, read at once (no search).

A game's ``ProofHooks.folder`` holds its certificates and ``index.json``, written
with them: ``{"certificates": [{"file", "game", "variant", "options", "position",
"claim", "attacker", "moves", "plies", "choices"}, ...]}``. Each is checked by the
tests with ``fourfold.solve.certificates.check``; this module only reads the index.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.solve.pns.hooks import ProofHooks, proof_hooks


@dataclass(frozen=True)
class StoredBound:
    """From one position: for each side, the most moves within which the certificates
    prove it cannot force a win (``no_win_moves[side]``, 0: nothing proven)."""

    position: str
    mover: int
    no_win_moves: tuple[int, ...]

    def no_forced_win_within(self) -> int:
        """Plies from the position within which neither side can force a win: the side
        to move's N moves reach ply 2N - 1, the other side's ply 2N."""
        return min(2 * n - (1 if side == self.mover else 0)
                   for side, n in enumerate(self.no_win_moves))


def index_entries(hooks: ProofHooks) -> list[dict[str, Any]]:
    path = hooks.folder / "index.json"
    if not path.exists():
        return []
    try:
        entries: list[dict[str, Any]] = json.loads(path.read_text())["certificates"]
    except (OSError, ValueError, KeyError) as exc:
        raise FourfoldError(f"{path}: not a readable index of certificates ({exc})") from None
    return entries


def stored_bound(game: Game[Any, Any], state: Any) -> StoredBound | None:
    """The no-win bounds the game's certificates prove for this position (its history
    aside: a bound proven without the repetition rule holds with it, since a draw by
    repetition never gives a side a win), or ``None`` when they prove none for a side."""
    hooks = proof_hooks(game)
    if hooks is None or game.outcome(state) is not None:
        return None
    position = game.format_position(state)
    options = game.info.option_strings()
    best = [0] * game.num_players
    for entry in index_entries(hooks):
        if (entry["game"], entry["variant"], entry["options"], entry["position"],
                entry["claim"]) == (game.name, game.info.variant, options, position, "no-win"):
            side = int(entry["attacker"])
            best[side] = max(best[side], int(entry["moves"]))
    mover = game.to_move(state)
    if mover is None or not all(best):
        return None
    return StoredBound(position, mover, tuple(best))


@dataclass(frozen=True)
class StoredValue:
    """From one position: a side the certificates prove forces a win within ``moves``
    of its moves; ``exact`` when they also prove it cannot within ``moves - 1`` (or
    ``moves`` is 1), so that its quickest forced win takes exactly ``plies()``."""

    position: str
    mover: int
    winner: int
    moves: int
    exact: bool
    #: the winning certificate's first move (the winner to move), as the rules write it
    best_move: str | None

    def plies(self) -> int:
        """The winner's N-th move is ply 2N - 1 if it is to move, else 2N."""
        return 2 * self.moves - (1 if self.winner == self.mover else 0)


def _proof_position(game: Game[Any, Any], state: Any) -> tuple[ProofHooks, int, str] | None:
    """The game's proof hooks, the side to move and the position's text, as the
    certificates name positions; ``None`` when the game has no certificates or the
    position is over or has nobody to move."""
    hooks = proof_hooks(game)
    if hooks is None or game.outcome(state) is not None:
        return None
    mover = game.to_move(state)
    if mover is None:
        return None
    return hooks, mover, game.format_position(state)


def stored_value(game: Game[Any, Any], state: Any) -> StoredValue | None:
    """The value the game's certificates prove for this position (a *win* claim from
    it; its history aside: a quickest forced win never repeats a position, so a win
    proven without the repetition rule holds with it from a position without history),
    or ``None`` when they prove none."""
    from fourfold.solve.certificates import Certificate

    found = _proof_position(game, state)
    if found is None:
        return None
    hooks, mover, position = found
    options = game.info.option_strings()
    wins: dict[int, dict[str, Any]] = {}
    no_win = [0] * game.num_players
    for entry in index_entries(hooks):
        if (entry["game"], entry["variant"], entry["options"], entry["position"]) != \
                (game.name, game.info.variant, options, position):
            continue
        side = int(entry["attacker"])
        if entry["claim"] == "no-win":
            no_win[side] = max(no_win[side], int(entry["moves"]))
        elif entry["claim"] == "win" and (side not in wins
                                          or int(entry["moves"]) < wins[side]["moves"]):
            wins[side] = entry
    if not wins:
        return None
    winner, entry = min(wins.items(), key=lambda item: int(item[1]["moves"]))
    moves = int(entry["moves"])
    best = None
    if winner == mover:
        certificate = Certificate.read_all(hooks.folder / entry["file"])[int(entry["item"])]
        legal = game.legal_moves(state)
        if certificate.choices and certificate.choices[0] < len(legal):
            best = game.format_move(state, legal[certificate.choices[0]])
    return StoredValue(position, mover, winner, moves,
                       moves == 1 or no_win[winner] >= moves - 1, best)


def write_index(hooks: ProofHooks) -> list[dict[str, Any]]:
    """Rewrite ``index.json`` from the certificate files in the game's folder."""
    from fourfold.solve.certificates import Certificate

    entries = []
    for path in sorted(hooks.folder.glob("*.json")):
        if path.name == "index.json":
            continue
        for i, certificate in enumerate(Certificate.read_all(path)):
            entries.append({"file": path.name, "item": i, **certificate.summary()})
    (hooks.folder / "index.json").write_text(
        json.dumps({"certificates": entries}, indent=1) + "\n")
    return entries


@dataclass(frozen=True)
class StoredFacts:
    """Everything the certificates prove from one position (its history aside), per side:
    ``win_moves[side]``, the fewest of its moves within which it forces a win (``None``:
    no win proven), and ``no_win_moves[side]``, the most within which it cannot (0:
    nothing proven). ``best_move``: the winning certificate's first move when the side
    to move is the winner."""

    position: str
    mover: int
    win_moves: tuple[int | None, ...]
    no_win_moves: tuple[int, ...]
    best_move: str | None = None


_INDEX: dict[str, list[dict[str, Any]]] = {}


def _cached_entries(hooks: ProofHooks) -> list[dict[str, Any]]:
    key = str(hooks.folder)
    if key not in _INDEX:
        _INDEX[key] = index_entries(hooks)
    return _INDEX[key]


def stored_facts(game: Game[Any, Any], state: Any) -> StoredFacts | None:
    """What the game's certificates prove from this position, or ``None`` when they
    prove nothing about it (or it is over, or the game has no certificates)."""
    from fourfold.solve.certificates import Certificate

    found = _proof_position(game, state)
    if found is None:
        return None
    hooks, mover, position = found
    key = (game.name, game.info.variant, game.info.option_strings(), position)
    wins: list[int | None] = [None] * game.num_players
    no_win = [0] * game.num_players
    first: dict[int, dict[str, Any]] = {}
    for entry in _cached_entries(hooks):
        if (entry["game"], entry["variant"], entry["options"], entry["position"]) != key:
            continue
        side, moves = int(entry["attacker"]), int(entry["moves"])
        if entry["claim"] == "no-win":
            no_win[side] = max(no_win[side], moves)
        elif entry["claim"] == "win":
            known = wins[side]
            if known is None or moves < known:
                wins[side] = moves
                first[side] = entry
    if not any(wins) and not any(no_win):
        return None
    best = None
    if mover in first:
        entry = first[mover]
        certificate = Certificate.read_all(hooks.folder / entry["file"])[int(entry["item"])]
        legal = game.legal_moves(state)
        if certificate.choices and certificate.choices[0] < len(legal):
            best = game.format_move(state, legal[certificate.choices[0]])
    return StoredFacts(position, mover, tuple(wins), tuple(no_win), best)
