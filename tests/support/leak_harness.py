"""The leak property of the hidden-information rulesets, driven through real tables.

For one ruleset, one recipient (a seat or the spectator) and one seeded script of
attempted actions (legal and illegal, from any seat, junk text, stale versions,
offers, answers, resignations, clock time-outs), ``run_case``:

1. plays the script on a ``Table`` (inline bots, a ``ManualClock``) and records, as
   wire JSON, everything the recipient is sent: its events, its view and legal moves
   after each step, the error (or answer) of its own actions, and its record;
2. picks a *twin deal*: another deal (solution x position cards) that agrees with
   everything the rules let the recipient know along the histories it saw while the
   game was on (own cards, face-up cards, every signal, Dual pushes that landed),
   found by enumerating the 2,880 deals (``knowable_deals``, worked out from the rules
   and not from the views, so that a view showing too much is caught as well);
3. plays the same script on a second table dealt the twin, and checks that the
   recipient's transcript is byte-identical. Once the game is over every card is face
   up by the rules, so from then on the cards (and only they) may differ.

In Dual a push lands only on the pusher's own corner, which the recipient may not
know: a twin under which another seat's refused push would land makes a different
game, so such twins are skipped (the next candidate is tried). In turn-based
variants what lands never depends on a hidden card, so there the histories must agree.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import fourfold
from fourfold.ai import make_bot
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game, View
from fourfold.games.quatrefoil.arrangement import (
    ACTION_NAMES,
    ALL_ARRANGEMENTS,
    INDEX,
    act,
    push_corner,
)
from fourfold.games.quatrefoil.bots_seat import QuatrefoilBot
from fourfold.games.quatrefoil.deals import DEALS, signal_pattern
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.state import Deal, Observation, QuatrefoilState
from fourfold.table import ManualClock, Seat, Table
from fourfold.wire import (
    WireError,
    apply_client_message,
    event_to_json,
    parse_client_message,
    record_to_json,
    view_to_json,
)

#: every hidden-information ruleset: (label, variant, options)
RULESETS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("base", "base", {}),
    ("nothing-to-hide", "nothing-to-hide", {}),
    ("half-and-half/colour", "half-and-half", {"face_up": "colour"}),
    ("half-and-half/position", "half-and-half", {"face_up": "position"}),
    ("race-the-clock", "race-the-clock", {"clock_seconds": 20}),
    ("race-the-clock/120", "race-the-clock", {}),
    ("dual", "dual", {"clock": False}),
    ("dual/clock", "dual", {"clock": True, "clock_seconds": 15}),
)
RECIPIENTS: tuple[int | None, ...] = (None, 0, 1, 2, 3)
HIDDEN_KEYS = ("colour_cards", "position_cards", "north", "solution")
#: the deal in a referee position (a full record's Setup): the solution and the cards
FULL_DEAL = re.compile(r" (solution|cards)=\S+")

_GAMES: dict[str, Game[Any, Any]] = {}


def game_of(label: str) -> Game[Any, Any]:
    if label not in _GAMES:
        _, variant, options = next(r for r in RULESETS if r[0] == label)
        _GAMES[label] = fourfold.load("quatrefoil", variant, **options)
    return _GAMES[label]


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, allow_nan=False, separators=(",", ":"))


# -- scripts -------------------------------------------------------------------------------

def make_script(rng: random.Random, dual: bool, length: int) -> list[tuple[Any, ...]]:
    """Attempted actions; versions are relative (``"now"``, ``"stale"``, ``"future"``)."""
    steps: list[tuple[Any, ...]] = []
    for _ in range(length):
        seat = rng.randrange(4)
        roll = rng.random()
        version = rng.choice(("none", "now", "now", "now", "stale", "future"))
        if roll < 0.55:
            name = rng.choice(ACTION_NAMES[:-1] if rng.random() < 0.9 else ACTION_NAMES)
            if rng.random() < 0.1:
                name = name.upper()
            if dual:
                who = seat if rng.random() < 0.9 else rng.randrange(4)
                text = (who + 1, name, rng.choice(("now", "now", "stale", "future")))
            else:
                text = (None, name, None)
            steps.append(("play", seat, text, version))
        elif roll < 0.62:
            junk = rng.choice(("", "wait", "x", "N>>NW", "5:cw@0", "1:cw", "stack stack",
                               "1:N>NW@", "\u00e9", "cw@3", " cw "))
            steps.append(("play", seat, (None, junk, None), version))
        elif roll < 0.70:
            steps.append(("message", seat, rng.choice((
                '{"type":"move","move":"cw","version":%d}', '{"type":"ping"}',
                '{"type":"resign","version":true}', '{"type":"offer","offer":"undo",'
                '"version":%d}', '{"type":"answer","accept":1}', "[1,2", '{"type":"move"}',
                '{"type":"answer","accept":true}', '{"type":"move","move":"1:cw@%d",'
                '"version":%d}'))))
        elif roll < 0.80:
            steps.append(("offer", seat, rng.choice(("undo", "undo", "draw", "peace")),
                          version))
            if rng.random() < 0.5:
                for other in range(4):
                    if other != seat:
                        steps.append(("answer", other, rng.random() < 0.8))
        elif roll < 0.84:
            steps.append(("answer", seat, rng.random() < 0.5))
        elif roll < 0.87:
            steps.append(("resign", seat, version))
        else:
            steps.append(("advance", rng.choice((0.25, 1.0, 2.5, 4.0, 7.0))))
    return steps


# -- one run -------------------------------------------------------------------------------

@dataclass
class Run:
    """What one table did: the recipient's transcript and the referee's history."""

    transcript: list[tuple[int, str, str]] = field(default_factory=list)  # (version, tag, json)
    observations: list[Observation] = field(default_factory=list)
    history: list[tuple[str, ...]] = field(default_factory=list)
    end_version: int | None = None
    steps: int = 0


def _version_of(mode: str, table: Table) -> int | None:
    return {"none": None, "now": table.version, "stale": max(table.version - 1, 0) - (
        table.version == 0), "future": table.version + 1}[mode]


def run_script(label: str, start: QuatrefoilState, recipient: int | None,
               script: list[tuple[Any, ...]], bot: str | None, seed: int) -> Run:
    game = game_of(label)
    clock = ManualClock()
    seats = [Seat.human(f"P{p + 1}") for p in range(4)]
    if bot is not None and recipient is not None:
        robot: Any = (QuatrefoilBot(game, recipient, seed) if bot == "quatrefoil"
                      else make_bot(bot, game, recipient, seed))
        seats[recipient] = Seat.of_bot(robot, pace=1.5)
    run = Run()
    table = Table(game, seats, start=start, clock=clock, seed=seed, inline_bots=True)

    def note(tag: str, value: Any) -> None:
        if table.outcome is not None and run.end_version is None:
            run.end_version = table.version
        run.transcript.append((table.version, tag, canon(value)))

    def seen(view: View, version: int) -> None:
        if run.end_version is None or version < run.end_version:
            assert isinstance(view.observation, Observation)
            run.observations.append(view.observation)

    def listener(event: Any) -> None:
        if event.kind.value == "end" and run.end_version is None:
            run.end_version = event.version
        if table.outcome is not None and run.end_version is None:
            run.end_version = event.version
        seen(event.view, event.version)
        run.transcript.append((event.version, "event", canon(event_to_json(game, event))))

    table.subscribe(recipient, listener)
    try:
        for step in script:
            kind, *args = step
            actor: int | None = args[0] if kind not in ("advance",) else None
            try:
                if kind == "play":
                    who, name, when = args[1]
                    text = name if who is None else (
                        f"{who}:{name}@{_version_of(when, table)}")
                    result = table.play(actor, text, _version_of(args[2], table))
                elif kind == "message":
                    raw = args[1]
                    if "%d" in raw:
                        raw = raw.replace("%d", str(table.version))
                    result = apply_client_message(table, actor, parse_client_message(raw))
                elif kind == "offer":
                    result = table.offer(actor, args[1], _version_of(args[2], table))
                elif kind == "answer":
                    result = table.answer(actor, args[1])
                elif kind == "resign":
                    table.resign(actor, _version_of(args[1], table))
                    result = "resigned"
                else:
                    clock.advance(args[0])
                    table.advance()
                    result = "advanced"
                answer = {"ok": result}
            except (FourfoldError, WireError) as error:
                answer = {"error": str(error)}
            run.steps += 1
            run.history.append((*table.referee_record().moves, str(table.outcome)))
            if actor == recipient and actor is not None:
                note("answer", answer)
            view = table.view(recipient)
            if table.outcome is None:
                seen(view, table.version)
            note("view", view_to_json(game, view))
            note("legal", table.legal_moves(recipient))
            note("clocks", [round(c, 3) for c in table.clocks()])
        note("record", record_to_json(table.record_for(recipient)))
    finally:
        table.close()
    return run


# -- twins ---------------------------------------------------------------------------------

def knowable_deals(game: Game[Any, Any], deal: Deal, recipient: int | None,
                   observations: list[Observation]) -> list[int]:
    """Every deal that agrees with what the rules let ``recipient`` know, given the
    (public) histories it saw while the game was on: its own cards, the variant's face-up
    cards, every seat's signal after each of those histories, and in Dual the corner of
    every push that landed. Worked out from the rules, not from the views, so that a
    view showing too much is caught too."""
    assert isinstance(game, QuatrefoilGame)
    truth = deal_index(deal)
    histories = {o.history for o in observations}
    arrangements = {INDEX[act_all(observations[0].start, h[:i])]
                    for h in histories for i in range(len(h) + 1)}
    pushes = {(seat, push_corner(a)) for h in histories for seat, a in h
              if push_corner(a) is not None}
    want = {i: signal_pattern(i, truth) for i in arrangements}
    face_up, dual = game.face_up, game.dual
    colours = tuple(deal.colour(k) for k in range(4))
    out = []
    for d, (s, p) in enumerate(DEALS):
        sol = ALL_ARRANGEMENTS[s]
        if (dual or face_up == "all") and sol != deal.solution:
            continue
        if face_up in ("all", "position") and p != deal.positions:
            continue
        if face_up == "colour" and (sol[4] != deal.north or any(
                sol[p[k]] != colours[k] for k in range(4))):
            continue
        if recipient is not None and (p[recipient] != deal.positions[recipient]
                                      or sol[p[recipient]] != colours[recipient]):
            continue
        if dual:
            if any(p[seat] != corner for seat, corner in pushes):
                continue
        elif any(signal_pattern(i, d) != w for i, w in want.items()):
            continue
        out.append(d)
    return out


def act_all(start: Any, history: tuple[tuple[int, int], ...]) -> Any:
    for _, a in history:
        start = act(start, a)
    return start


def deal_index(deal: Deal) -> int:
    return DEALS.index((ALL_ARRANGEMENTS.index(deal.solution), deal.positions))


def twin_state(start: QuatrefoilState, d: int) -> QuatrefoilState:
    s, p = DEALS[d]
    return QuatrefoilState(Deal(ALL_ARRANGEMENTS[s], p), start.start)


def masked(run: Run) -> list[tuple[str, str]]:
    """The transcript with the cards hidden after the game ended (they are then face up)."""
    out = []
    for version, tag, text in run.transcript:
        if run.end_version is not None and version >= run.end_version:
            out.append((tag, canon(_mask(json.loads(text)))))
        else:
            out.append((tag, text))
    return out


def _mask(value: Any) -> Any:
    if isinstance(value, dict):
        result = {}
        for k, v in value.items():
            if k in HIDDEN_KEYS:
                result[k] = "masked"
            elif k == "position" and isinstance(v, str):
                result[k] = v.split(" seen=")[0]
            elif k == "setup" and isinstance(v, str):  # the full record, once it is over
                result[k] = FULL_DEAL.sub(r" \1=masked", v)
            elif k == "tags" and isinstance(v, dict):
                result[k] = {t: ("masked" if t == "Seen" else x) for t, x in v.items()}
            else:
                result[k] = _mask(v)
        return result
    if isinstance(value, list):
        return [_mask(v) for v in value]
    return value


@dataclass
class CaseResult:
    label: str
    recipient: int | None
    compared: int  # twin runs compared (0: no other consistent deal)
    trivial: bool  # the twin is the deal itself (nothing hidden from this recipient)
    skipped: int  # Dual twins skipped because a refused push would have landed
    failure: str | None = None


def run_case(label: str, recipient: int | None, seed: int) -> CaseResult:
    """One case: a deal, a script, a twin, two tables, one comparison."""
    rng = random.Random(seed)
    game = game_of(label)
    start = game.initial_state(seed=rng.randrange(1 << 30))
    dual = game.info.variant == "dual"
    script = make_script(rng, dual, rng.randrange(4, 40))
    bot = rng.choice((None, None, "random", "quatrefoil")) if recipient is not None else None
    table_seed = rng.randrange(1 << 30)
    a = run_script(label, start, recipient, script, bot, table_seed)
    candidates = knowable_deals(game, start.deal, recipient, a.observations)
    own = deal_index(start.deal)
    if own not in candidates:
        return CaseResult(label, recipient, 0, False, 0,
                          f"the real deal is not among the consistent ones (seed {seed})")
    others = [d for d in candidates if d != own]
    rng.shuffle(others)
    skipped = 0
    for d in others[:6] or [own]:
        b = run_script(label, twin_state(start, d), recipient, script, bot, table_seed)
        if a.history != b.history:
            if dual:
                skipped += 1
                continue
            return CaseResult(label, recipient, 1, False, skipped,
                              f"a turn-based twin played differently (seed {seed}, deal {d})")
        ma, mb = masked(a), masked(b)
        if ma != mb:
            i = next((i for i, (x, y) in enumerate(zip(ma, mb, strict=False)) if x != y),
                     min(len(ma), len(mb)))
            left = ma[i] if i < len(ma) else None
            right = mb[i] if i < len(mb) else None
            where = f"entry {i}: {left} != {right}"
            return CaseResult(label, recipient, 1, d == own, skipped,
                              f"leak (seed {seed}, recipient {recipient}, twin deal {d}): {where}")
        return CaseResult(label, recipient, 1, d == own, skipped)
    return CaseResult(label, recipient, 0, False, skipped)
