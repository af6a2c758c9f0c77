"""Proof certificates for bounded forced wins, and their independent checker.

A certificate proves one claim about one position of a configured game:

* ``win``: the attacker (a seat) forces a win within N of its own moves;
* ``no-win``: the attacker cannot force a win within N of its own moves.

It holds only the choices of the side that must choose: the attacker's moves for
``win``, the defender's replies for ``no-win``, as indices into the readable
rules' ``legal_moves`` list, in the order of a depth-first walk. The other side's
moves are not stored: the checker tries every one of them. So a certificate is the
tree of moves that proves the claim, and the checker replays it with the readable
rules only (``legal_moves``, ``next_state``, ``outcome``; never a kernel or the
search that wrote it) and accepts it, or refuses it naming the first wrong node.

The walk, shared by the writer and the checker (node = a position with the
attacker to move and N moves left):

* ``win``: read a choice; the move must win at once, or (N > 1, the game going on)
  every defender reply must not end the game and must leave a node with N - 1
  moves that is checked in turn;
* ``no-win``: no attacker move may win at once; with N > 1, after each move that
  leaves the game going on, read a choice: the defender's reply, which either ends
  the game (a defender win) or leaves a node with N - 1 moves.

A node is checked once: when the walk meets a position it has already accepted with
the same moves left, it reads nothing and goes on. Positions are taken without their
history (the game's ``ProofHooks.forget``): a certificate speaks of the game without
the repetition rule, and each game's docs say why its claims then hold with it.

A certificate may name a lemma of the game's rules (``bound``: the game's
``ProofHooks.bound_name``): the fewest moves the attacker needs to win, computed from
the readable state (for Ice Dao, ``games/icedao/proof_bound.py``). The walk of a
``no-win`` claim then accepts an attacker node with N moves left at once, reading
nothing, when the lemma says the attacker needs more than N.

File: one JSON object (``format``, the game, variant and options, ``position``, the
claim, ``attacker``, ``moves``, ``choices``: how many, ``data``: the choices as
LEB128 numbers, LZMA-compressed, in base64; format 2 adds ``bound``, the lemma's
name).
"""

from __future__ import annotations

import base64
import json
import lzma
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.outcome import Result
from fourfold.core.registry import load

FORMAT = "fourfold-certificate 1"
FORMAT_BOUND = "fourfold-certificate 2"  # with a lemma (``bound``)


class CertificateError(FourfoldError):
    """A file that is not a readable certificate."""

CLAIMS = ("win", "no-win")

#: ``choose(state, moves, left) -> index``: the writer's choice among ``moves`` (the
#: readable rules' legal moves at ``state``); ``left``: the attacker's moves left after it
Chooser = Callable[[Any, list[Any], int], int]


@dataclass(frozen=True)
class Certificate:
    game: str
    variant: str
    options: dict[str, str]
    position: str
    claim: str
    attacker: int
    moves: int
    choices: tuple[int, ...]
    bound: str = ""  # the name of the lemma the walk uses, or none

    def plies(self) -> int:
        """The plies the claim covers from the position (the attacker's N-th move is
        ply 2N - 1 if it is to move, else 2N)."""
        return 2 * self.moves - (1 if self.attacker_to_move else 0)

    @property
    def attacker_to_move(self) -> bool:
        game = self.load_game()
        return game.to_move(game.parse_position(self.position)) == self.attacker

    def load_game(self) -> Game[Any, Any]:
        return load(self.game, self.variant, **{k: v for k, v in self.options.items()
                                                 if v != "none"})

    def to_json(self) -> str:
        data = bytearray()
        for c in self.choices:
            while True:
                low, c = c & 0x7F, c >> 7
                data.append(low | (0x80 if c else 0))
                if not c:
                    break
        packed = base64.b64encode(lzma.compress(bytes(data))).decode("ascii")
        head: dict[str, Any] = {"format": FORMAT_BOUND if self.bound else FORMAT}
        if self.bound:
            head["bound"] = self.bound
        return json.dumps({
            **head, "game": self.game, "variant": self.variant,
            "options": self.options, "position": self.position, "claim": self.claim,
            "attacker": self.attacker, "moves": self.moves, "choices": len(self.choices),
            "data": packed,
        }, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str = "certificate") -> Certificate:
        try:
            raw = json.loads(text)
            if raw.get("format") not in (FORMAT, FORMAT_BOUND):
                raise CertificateError(f"format is {raw.get('format')!r}, not {FORMAT!r}"
                                       f" or {FORMAT_BOUND!r}")
            bound = raw.get("bound", "") if raw["format"] == FORMAT_BOUND else ""
            if raw["format"] == FORMAT_BOUND and not (isinstance(bound, str) and bound):
                raise CertificateError("format 2 names no lemma (bound)")
            if raw["claim"] not in CLAIMS:
                raise CertificateError(f"claim {raw['claim']!r} is not one of {', '.join(CLAIMS)}")
            data = lzma.decompress(base64.b64decode(raw["data"]))
            choices: list[int] = []
            value = shift = 0
            for byte in data:
                value |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    choices.append(value)
                    value = shift = 0
            if shift or len(choices) != raw["choices"]:
                raise CertificateError(f"{len(choices)} choices decoded, the header says"
                                 f" {raw['choices']}")
            return cls(raw["game"], raw["variant"], dict(raw["options"]), raw["position"],
                       raw["claim"], int(raw["attacker"]), int(raw["moves"]), tuple(choices),
                       bound)
        except (CertificateError, ValueError, KeyError, TypeError, lzma.LZMAError) as exc:
            raise CertificateError(f"{where}: not a readable certificate ({exc})") from None

    @classmethod
    def read(cls, path: str | Path) -> Certificate:
        try:
            text = Path(path).read_text()
        except OSError as exc:
            raise FourfoldError(f"{path}: cannot read the certificate ({exc.strerror})") from None
        return cls.from_json(text, str(path))

    @classmethod
    def read_all(cls, path: str | Path) -> list[Certificate]:
        """The certificates of a file holding one, or a JSON list of them."""
        try:
            text = Path(path).read_text()
            raw = json.loads(text)
        except OSError as exc:
            raise FourfoldError(f"{path}: cannot read the certificate ({exc.strerror})") from None
        except ValueError as exc:
            raise FourfoldError(f"{path}: not a readable certificate ({exc})") from None
        items = raw if isinstance(raw, list) else [raw]
        return [cls.from_json(json.dumps(item), f"{path} [{i}]") for i, item in enumerate(items)]

    def summary(self) -> dict[str, Any]:
        """What an index of certificates lists about this one."""
        summary = {"game": self.game, "variant": self.variant, "options": self.options,
                   "position": self.position, "claim": self.claim, "attacker": self.attacker,
                   "moves": self.moves, "plies": self.plies(), "choices": len(self.choices)}
        if self.bound:
            summary["bound"] = self.bound
        return summary


@dataclass(frozen=True)
class Verdict:
    """The checker's answer: accepted, or the first wrong node (its line of moves from
    the certificate's position and why)."""

    accepted: bool
    nodes: int
    line: tuple[str, ...] = ()
    reason: str = ""

    def describe(self) -> str:
        if self.accepted:
            return f"accepted ({self.nodes} nodes checked)"
        where = " ".join(self.line) or "the position itself"
        return f"refused at {where}: {self.reason}"


class _Refused(Exception):
    def __init__(self, line: tuple[str, ...], reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


class _Walk:
    """The depth-first walk of a claim, with the choices supplied by ``next_choice``."""

    def __init__(self, game: Game[Any, Any], forget: Callable[[Any], Any], claim: str,
                 attacker: int, next_choice: Callable[[Any, list[Any], int, tuple[str, ...]],
                                                      int],
                 needed: Callable[[Any], int] | None = None) -> None:
        self.game = game
        self.forget = forget
        self.needed = needed  # the lemma: the fewest moves the attacker needs to win
        self.claim = claim
        self.attacker = attacker
        self.next_choice = next_choice
        self.done: set[tuple[Any, int]] = set()
        self.nodes = 0

    def _winner(self, state: Any) -> int | None:
        """The winner if the game is over with one; refuses any other ending."""
        outcome = self.game.outcome(state)
        if outcome is None:
            return None
        if outcome.result is Result.DRAW or outcome.winner is None:
            return -1
        return int(outcome.winner)

    def _moves(self, state: Any) -> Iterator[tuple[str, Any]]:
        for move in self.game.legal_moves(state):
            yield self.game.format_move(state, move), self.forget(self.game.next_state(state,
                                                                                     move))

    def attacker_node(self, state: Any, n: int, line: tuple[str, ...]) -> None:
        """``state``: the attacker to move, no history, the game going on."""
        if (state, n) in self.done:
            return
        self.nodes += 1
        if self.game.to_move(state) != self.attacker:
            raise _Refused(line, "the attacker is not to move here")
        if self.claim == "no-win" and self.needed is not None and self.needed(state) > n:
            self.done.add((state, n))
            return
        if self.claim == "win":
            moves = list(self.game.legal_moves(state))
            i = self.next_choice(state, moves, n - 1, line)
            move = moves[i]
            text = self.game.format_move(state, move)
            child = self.forget(self.game.next_state(state, move))
            winner = self._winner(child)
            if winner == self.attacker:
                self.done.add((state, n))
                return
            if winner is not None:
                raise _Refused((*line, text), "the game ends without the attacker winning")
            if n == 1:
                raise _Refused((*line, text), "the attacker's last move does not win")
            for reply_text, grandchild in self._moves(child):
                at = (*line, text, reply_text)
                if self._winner(grandchild) is not None:
                    raise _Refused(at, "this defender reply ends the game")
                self.attacker_node(grandchild, n - 1, at)
        else:
            for text, child in self._moves(state):
                winner = self._winner(child)
                if winner == self.attacker:
                    raise _Refused((*line, text), "the attacker wins at once with this move")
                if winner is not None or n == 1:
                    continue
                replies = list(self.game.legal_moves(child))
                i = self.next_choice(child, replies, n - 1, (*line, text))
                reply = replies[i]
                reply_text = self.game.format_move(child, reply)
                grandchild = self.forget(self.game.next_state(child, reply))
                winner = self._winner(grandchild)
                if winner is None:
                    self.attacker_node(grandchild, n - 1, (*line, text, reply_text))
                elif winner == self.attacker:
                    raise _Refused((*line, text, reply_text), "the defender's reply loses")
        self.done.add((state, n))

    def root(self, state: Any, n: int) -> None:
        """Start the walk at ``state`` (either side to move)."""
        if self._winner(state) is not None:
            raise _Refused((), "the game is already over")
        if self.game.to_move(state) == self.attacker:
            self.attacker_node(state, n, ())
            return
        # the defender moves first: every reply (win) or one chosen reply (no-win)
        if self.claim == "win":
            for text, child in self._moves(state):
                if self._winner(child) is not None:
                    raise _Refused((text,), "this defender reply ends the game")
                self.attacker_node(child, n, (text,))
            return
        replies = list(self.game.legal_moves(state))
        i = self.next_choice(state, replies, n, ())
        text = self.game.format_move(state, replies[i])
        child = self.forget(self.game.next_state(state, replies[i]))
        winner = self._winner(child)
        if winner == self.attacker:
            raise _Refused((text,), "the defender's reply loses")
        if winner is None:
            self.attacker_node(child, n, (text,))


def _hooks(game: Game[Any, Any]) -> Any:
    from fourfold.solve.pns.hooks import proof_hooks

    hooks = proof_hooks(game)
    if hooks is None:
        raise FourfoldError(f"{game.info.label()} has no proof hooks: no certificates")
    return hooks


def _needed(game: Game[Any, Any], hooks: Any, bound: str, attacker: int
            ) -> Callable[[Any], int] | None:
    """The lemma named ``bound`` for ``attacker`` (``None`` for no lemma)."""
    if not bound:
        return None
    if hooks.bound is None or hooks.bound_name != bound:
        raise FourfoldError(f"{game.info.label()} has no lemma named {bound!r}")
    lemma = hooks.bound
    return lambda state: int(lemma(game, state, attacker))


def check(certificate: Certificate) -> Verdict:
    """Replay ``certificate`` with the readable rules: accepted, or the first wrong node."""
    game = certificate.load_game()
    hooks = _hooks(game)
    forget = hooks.forget
    try:
        needed = _needed(game, hooks, certificate.bound, certificate.attacker)
    except FourfoldError as exc:
        return Verdict(False, 0, (), str(exc))
    state = forget(game.parse_position(certificate.position))
    choices = iter(certificate.choices)

    def next_choice(at: Any, moves: list[Any], n: int, line: tuple[str, ...]) -> int:
        i = next(choices, None)
        if i is None:
            raise _Refused(line, "the certificate ends here: a choice is missing")
        if i >= len(moves):
            raise _Refused(line, f"choice {i} but only {len(moves)} legal moves")
        return i

    walk = _Walk(game, forget, certificate.claim, certificate.attacker, next_choice, needed)
    try:
        walk.root(state, certificate.moves)
    except _Refused as refused:
        return Verdict(False, walk.nodes, refused.line, refused.reason)
    left = sum(1 for _ in choices)
    if left:
        return Verdict(False, walk.nodes, (), f"{left} choices left over after the proof")
    return Verdict(True, walk.nodes)


def write(game: Game[Any, Any], state: Any, claim: str, attacker: int, moves: int,
          choose: Chooser, bound: str = "") -> Certificate:
    """The certificate of ``claim`` from ``state``, with the choices from ``choose``
    (``choose`` raises ``FourfoldError`` where it has no good choice), using the
    game's lemma ``bound`` if named."""
    if claim not in CLAIMS:
        raise FourfoldError(f"claim {claim!r} is not one of {', '.join(CLAIMS)}")
    hooks = _hooks(game)
    forget = hooks.forget
    needed = _needed(game, hooks, bound, attacker)
    out: list[int] = []

    def next_choice(at: Any, legal: list[Any], n: int, line: tuple[str, ...]) -> int:
        i = choose(at, legal, n)
        out.append(i)
        return i

    walk = _Walk(game, forget, claim, attacker, next_choice, needed)
    try:
        walk.root(forget(state), moves)
    except _Refused as refused:
        raise FourfoldError(f"cannot certify: {' '.join(refused.line)}: {refused.reason}"
                            ) from None
    return Certificate(game.name, game.info.variant, game.info.option_strings(),
                       game.format_position(state), claim, attacker, moves, tuple(out), bound)


def main(argv: list[str] | None = None) -> int:
    """``python -m fourfold.solve.certificates FILE...``: check every certificate in the
    files (a file holds one or a JSON list); exit 1 if any is refused."""
    import sys
    import time

    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: python -m fourfold.solve.certificates FILE...", file=sys.stderr)
        return 2
    failed = False
    for path in paths:
        try:
            certificates = Certificate.read_all(path)
        except FourfoldError as exc:
            print(f"error: {exc}", file=sys.stderr)
            failed = True
            continue
        for i, certificate in enumerate(certificates):
            start = time.perf_counter()
            verdict = check(certificate)
            side = certificate.load_game().player_name(certificate.attacker)
            print(f"{path} [{i}] {side} {certificate.claim} within {certificate.moves} moves"
                  f" ({certificate.plies()} plies) from {certificate.position}:"
                  f" {verdict.describe()}, {time.perf_counter() - start:.1f} s", flush=True)
            failed = failed or not verdict.accepted
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
