"""No Quatrefoil view, record, error message or repr carries what its viewer may not know.

Viewers are the four seats and the spectator (``None``).

The test is by counterfactuals: for a seat, every other deal that the seat cannot tell
apart from the real one (same own and face-up cards, same signals after every action,
and in Dual the same corners for the pushes seen) must give exactly the same view,
the same text of the view, the same record written for that seat and the same error
messages. If anything hidden leaked, some such deal would change it. The deals are
enumerated here by brute force, independently of the bots' inference code.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import fourfold
from fourfold.core.errors import FourfoldError, RecordError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record
from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS, push_corner
from fourfold.games.quatrefoil.state import Action, Deal, Observation, QuatrefoilState

CASES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("base", {}),
    ("nothing-to-hide", {}),
    ("half-and-half", {"face-up": "colour"}),
    ("half-and-half", {"face-up": "position"}),
    ("race-the-clock", {"clock-seconds": 30}),
    ("dual", {}),
    ("dual", {"clock": "true", "clock-seconds": 20}),
)
GAMES = [fourfold.load("quatrefoil", v, **o) for v, o in CASES]
POSITIONS = [tuple(p) for p in permutations(range(4))]


def random_match(game: Game[Any, Any], seed: int, choices: list[int]) -> Match[Any, Any]:
    match: Match[Any, Any] = Match(game, game.initial_state(seed), date="2026-11-22")
    for c in choices:
        if match.outcome is not None:
            break
        moves = [m for m in game.legal_moves(match.state)
                 if not (isinstance(m, Action) and m.action == 10) or c % 5 == 0]
        match.play(moves[c % len(moves)])
    return match


def same_for_seat(game: Any, state: QuatrefoilState, other: Deal, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) could not tell ``other`` from the real deal,
    by the rules alone."""
    real = state.deal
    variant = game.info.variant
    face_up = game.info.options.get("face-up")
    if game.outcome(state) is not None and other != real:
        return False  # every card is face up once the game is over
    if variant == "nothing-to-hide" and other != real:
        return False
    own = [] if seat is None else [seat]
    if variant == "dual":
        if other.solution != real.solution or any(
                other.positions[s] != real.positions[s] for s in own):
            return False
        return all(push_corner(a) in (None, other.positions[s]) for s, a in state.history)
    if any(other.colour(s) != real.colour(s) or other.positions[s] != real.positions[s]
           for s in own):
        return False
    if face_up == "colour" and (
        any(other.colour(s) != real.colour(s) for s in range(4)) or other.north != real.north
    ):
        return False
    if face_up == "position" and other.positions != real.positions:
        return False
    alt = QuatrefoilState(other, state.start, state.history)
    return all(alt.signals(a) == state.signals(a) for a in state.arrangements)


def indistinguishable(
    game: Any, state: QuatrefoilState, seat: int | None
) -> list[QuatrefoilState]:
    out = []
    real = state.deal
    dual = game.info.variant == "dual"
    for solution in ALL_ARRANGEMENTS:
        if solution == state.start:
            continue  # not a deal: the start is never solved
        if dual and solution != real.solution:
            continue  # ``same_for_seat`` refuses it too: a shortcut, not another rule
        for positions in POSITIONS:
            if seat is not None and positions[seat] != real.positions[seat]:
                continue  # the seat's own position card differs: refused there too
            deal = Deal(solution, positions)  # type: ignore[arg-type]
            if same_for_seat(game, state, deal, seat):
                out.append(QuatrefoilState(deal, state.start, state.history))
    return out


def errors_seen_by(game: Any, state: QuatrefoilState, seat: int | None) -> list[str]:
    """The messages of refusals a viewer can provoke in this state: the referee's
    (``apply``) and the ones written from the viewer's own view (``view_error``)."""
    attempts: list[Any] = []
    for s in range(4):
        if game.dual:
            attempts += [Action(a, s, state.version) for a in range(11)]
            attempts += [Action(0, s, max(0, state.version - 1)), Action(8, s, 99)]
        else:
            attempts += [Action(3, seat=s), Action(10, seat=s)]
    messages = []
    view = game.view(state, seat)
    for move in attempts:
        error = game.view_error(view, move)
        messages.append("" if error is None else str(error))
        if seat is not None and move.seat == seat:
            try:
                game.apply(state, move)
            except FourfoldError as exc:
                messages.append(str(exc))
    for text in ("cw", "1:cw@0", "wait 5", "junk", "2:N>NW@1"):
        try:
            messages.append(repr(game.view_parse_move(view, text)))
        except FourfoldError as exc:
            messages.append(str(exc))
    return messages


def replay_with_deal(match: Match[Any, Any], state: QuatrefoilState) -> Match[Any, Any]:
    start = QuatrefoilState(state.deal, match.start.start)
    other: Match[Any, Any] = Match(match.game, start, date=match.date)
    for move in match.moves:
        other.play(move)
    return other


def check_no_leak(game: Any, match: Match[Any, Any], seat: int | None) -> int:
    """Assert the viewer's view, record and errors are the same under every twin deal."""
    state = match.state
    view = game.view(state, seat)
    obs = view.observation
    assert isinstance(obs, Observation)
    record = format_record(match.record_for(seat))
    moves = [game.view_format_move(view, m) for m in game.view_legal_moves(view)]
    mask = game.view_legal_action_mask(view)
    text = game.view_position(view)
    errors = errors_seen_by(game, state, seat)
    twins = indistinguishable(game, state, seat)
    assert state in twins
    for twin in twins:
        other_view = game.view(twin, seat)
        assert other_view == view
        assert repr(other_view) == repr(view) and str(other_view) == str(view)
        assert errors_seen_by(game, twin, seat) == errors
        assert [game.view_format_move(other_view, m)
                for m in game.view_legal_moves(other_view)] == moves
        assert game.view_legal_action_mask(other_view) == mask
        assert game.view_position(other_view) == text
        if twin.deal != state.deal:
            assert format_record(replay_with_deal(match, twin).record_for(seat)) == record
    if game.outcome(state) is not None:
        return len({t.deal for t in twins})
    # The fields themselves: no other seat's face-down card, no face-down north.
    variant, face_up = game.info.variant, game.info.options.get("face-up")
    for s in range(4):
        if s != seat and variant in ("base", "race-the-clock", "dual"):
            assert obs.position_cards[s] is None
        if s != seat and (variant in ("base", "race-the-clock", "dual") or face_up == "position"):
            assert obs.colour_cards[s] is None
    if variant in ("base", "race-the-clock") or face_up == "position":
        assert obs.north is None and obs.solution is None
    return len({t.deal for t in twins})


@given(
    case=st.integers(0, len(CASES) - 1),
    seed=st.integers(0, 10**6),
    choices=st.lists(st.integers(0, 10**4), max_size=12),
    seat=st.one_of(st.none(), st.integers(0, 3)),
)
def test_views_records_and_errors_leak_nothing(
    case: int, seed: int, choices: list[int], seat: int | None
) -> None:
    game = GAMES[case]
    match = random_match(game, seed, choices)
    check_no_leak(game, match, seat)


def test_many_seeded_deals_and_the_check_is_not_vacuous() -> None:
    rng = random.Random(2026)
    ambiguous = 0
    for seed in range(24):
        for game in GAMES:
            choices = [rng.randrange(10**4) for _ in range(rng.randrange(8))]
            match = random_match(game, seed, choices)
            for seat in (None, 0, 1, 2, 3):
                if check_no_leak(game, match, seat) > 1:
                    ambiguous += 1
    # Most hidden-information views have several deals behind them, so a leak would show.
    assert ambiguous > 24 * 5 * 3


def test_a_seat_record_cannot_be_replayed_and_shows_only_own_cards() -> None:
    game = fourfold.load("quatrefoil")
    match = random_match(game, 11, [1, 2, 3])
    text = format_record(match.record_for(2))
    assert '[Viewer "Player 3"]' in text
    seen = next(line for line in text.splitlines() if line.startswith("[Seen"))
    assert seen.count("?") == 2 * 3 + 1  # three other seats' two cards each, and north
    assert "solution=" not in text
    try:
        Match.from_record(parse_record(text))
    except RecordError as exc:
        assert "player's or spectator's view" in str(exc)
    else:
        raise AssertionError("a seat's record must not replay")


def test_error_messages_show_the_public_position_only() -> None:
    game = fourfold.load("quatrefoil", "dual")
    state = game.initial_state(4)
    try:
        game.apply(state, Action(8, 0, 3))
    except FourfoldError as exc:
        message = str(exc)
    assert "solution" not in message and "cards" not in message
    assert game.public_position(state) in message


def test_the_spectator_sees_no_card_during_play_and_every_card_after() -> None:
    game = fourfold.load("quatrefoil")
    match = random_match(game, 5, [1, 2])
    obs = game.view(match.state, None).observation
    assert obs.seat is None and obs.solution is None and obs.north is None
    assert set(obs.colour_cards) == {None} and set(obs.position_cards) == {None}
    assert game.view_legal_moves(game.view(match.state, None)) == []
    match.play(Action(10))
    while match.outcome is None:
        match.play(Action(10))
    final = game.view(match.state, None).observation
    assert final.solution == match.state.deal.solution
    assert None not in final.colour_cards and None not in final.position_cards


def test_a_declared_ending_reveals_every_card() -> None:
    game = fourfold.load("quatrefoil", "race-the-clock")
    match = random_match(game, 3, [1])
    assert match.view(0).observation.solution is None
    match.declare(game.time_out(match.state, None))
    assert match.view(0).observation.solution == match.state.deal.solution
    assert "clock ran out" in match.outcome.reason
