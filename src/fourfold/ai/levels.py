"""Levels 1 to 5: one name per strength, mapped to a bot and its thinking budget.

The mapping is data (``LEVELS``, with per-game overrides in ``GAME_LEVELS``)
so that ``fourfold bots`` and docs/bots.md show exactly what each level is.
Budgets are counted in nodes or iterations, not seconds, so that a seeded
match replays move for move on any machine; a ``Limit`` with ``seconds``
given to a level caps its time as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.ai.alphabeta import AlphaBetaBot
from fourfold.ai.base import Bot, Limit
from fourfold.ai.endgame import EndgamePlan
from fourfold.ai.freeform import FreeformBot
from fourfold.ai.greedy import GreedyBot
from fourfold.ai.mcts import MCTSBot
from fourfold.ai.quatrefoil import DEFAULT_CURIOSITY, QuatrefoilBot
from fourfold.ai.random_bot import RandomBot
from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game

KINDS = "random, beginner, greedy, mcts, alphabeta, freeform, quatrefoil"


@dataclass(frozen=True)
class Level:
    """What a level plays: a bot and its budget per move. A ``quatrefoil`` seat has no
    budget: ``curiosity`` weighs information against progress, and ``reads_team`` says
    whether it reads its team-mates' actions as the choices their bots would make."""

    level: int
    bot: str
    nodes: int | None = None
    iterations: int | None = None
    depth: int | None = None
    endgame: EndgamePlan | None = None
    curiosity: float = 0.0
    reads_team: bool = False

    def describe(self) -> str:
        if self.bot == "random":
            return "random: any legal move, uniformly"
        if self.bot == "beginner":
            return (f"beginner: wins at once, else checks {self.nodes} random move(s) for one "
                    "that does not hand over a win")
        if self.bot == "greedy":
            return "greedy: wins at once, never hands over a win it can avoid"
        if self.bot == "freeform":
            return _describe_freeform(self.depth, self.nodes)
        if self.bot == "quatrefoil":
            return _describe_quatrefoil(self.curiosity, self.reads_team)
        if self.bot == "mcts":
            return f"MCTS (UCT, greedy playouts), {self.iterations:,} iterations per move"
        text = f"alpha-beta (iterative deepening, TT), {self.nodes:,} nodes per move"
        if self.depth is not None:
            text += f", at most {self.depth} plies deep"
        if self.endgame is not None:
            plan = self.endgame
            text += (f"; exact endgame once at most {plan.max_moves} moves are legal (a "
                     f"search solver gets {plan.nodes:,} nodes, a table answers at once)")
            if plan.squeeze:
                text += ", pressing among drawn moves"
        return text


def _describe_freeform(depth: int | None, nodes: int | None) -> str:
    if depth == 0:
        return ("freeform beginner: wins at once, challenges a broken grid, else a random "
                "cell centre and a random give")
    if depth is None or depth == 1:
        return ("freeform: wins at once, gives no piece that wins at a cell centre, "
                "challenges exactly when a challenge wins")
    return (f"freeform look-ahead: {depth} plies over cell-centre placements and safe gives, "
            f"{nodes:,} placements per move")


def _describe_quatrefoil(curiosity: float, reads_team: bool) -> str:
    reads = ("its cards, the signals and its team-mates' actions" if reads_team
             else "its cards and the signals (not its team-mates' actions)")
    aim = (f"weighs progress against what the next signals would teach (curiosity"
           f" {curiosity:g})" if curiosity else "heads for the nearest possible solution")
    return f"quatrefoil seat: reads {reads}; {aim}; stacks only when sure"


#: the exact endgame of the strongest level: solve once at most 64 moves are legal, and
#: among drawn moves press the opponent (``fourfold.ai.endgame``)
STRONG_ENDGAME = EndgamePlan(nodes=1_000_000, max_moves=64, squeeze=1_000_000)

LEVELS: dict[int, Level] = {
    1: Level(1, "random"),
    2: Level(2, "beginner", nodes=3),
    3: Level(3, "greedy"),
    4: Level(4, "mcts", iterations=5_000),
    5: Level(5, "alphabeta", nodes=1_000_000, endgame=STRONG_ENDGAME),
}

#: Quatrefoil is cooperative, with hidden cards: the search bots do not play it. Its
#: levels are the quatrefoil seat reading more and planning better. Measured with
#: ``fourfold.ai.quatrefoil.play_turns`` on the 1,000 deals of seeds 10000-10999 (four
#: seats of one level, base game): mean actions to the solution 7.59 (4 deals lost),
#: 4.91, 4.71, 4.63 for levels 2 to 5 (fewer is better). Where the solution is face up
#: (nothing-to-hide, Dual) levels 2 to 5 all follow a shortest path.
QUATREFOIL_LEVELS: dict[int, Level] = {
    1: Level(1, "random"),
    2: Level(2, "quatrefoil"),
    3: Level(3, "quatrefoil", curiosity=DEFAULT_CURIOSITY),
    4: Level(4, "quatrefoil", reads_team=True),
    5: Level(5, "quatrefoil", curiosity=DEFAULT_CURIOSITY, reads_team=True),
}

#: games whose levels differ from ``LEVELS`` (``name`` or ``name/variant`` -> level ->
#: Level). Folio freeform places on a continuous table (about a thousand candidate
#: points per ply, each needing a grid fit), where the generic bots take minutes per
#: game, so every level there is the freeform bot at a different depth. Dao's level 5
#: plays from the retrograde table (perfect, pressing among drawn moves); Dao games run
#: long, so the searches below it are smaller. Ice Dao has no exact endgame (its solver
#: is only bounded): its levels are searches of growing size.
GAME_LEVELS: dict[str, dict[int, Level]] = {
    "folio/freeform": {
        1: Level(1, "random"),
        2: Level(2, "freeform", depth=0),
        3: Level(3, "freeform", depth=1),
        4: Level(4, "freeform", depth=2, nodes=400),
        5: Level(5, "freeform", depth=3, nodes=1_500),
    },
    "dao": {
        2: Level(2, "greedy"),
        3: Level(3, "mcts", iterations=300),
        4: Level(4, "alphabeta", nodes=50_000),
        5: Level(5, "alphabeta", nodes=300_000, endgame=STRONG_ENDGAME),
    },
    "icedao": {
        2: Level(2, "greedy"),
        3: Level(3, "alphabeta", nodes=2_000),
        4: Level(4, "alphabeta", nodes=20_000),
        5: Level(5, "alphabeta", nodes=300_000),
    },
    "quatrefoil": QUATREFOIL_LEVELS,
}


#: Bots that would be built for a game but cannot play it at a usable speed, by
#: ``name`` or ``name/variant``, with the reason ``make_bot`` gives when refusing them.
#: Folio freeform has about a thousand candidate placements a ply, each needing a grid
#: fit, on the reference rules (no kernel): one placement by greedy, alpha-beta or MCTS
#: took over two minutes (measured, a 0.2 s time limit given), so its levels use the
#: freeform bot.
TOO_SLOW: dict[str, tuple[frozenset[str], str]] = {
    "folio/freeform": (frozenset({"greedy", "alphabeta", "mcts"}),
                       "over two minutes a placement on a freeform table, where a ply has"
                       " about a thousand candidate placements; play freeform or a level"),
}


def check_speed(bot: str, game: Game[Any, Any]) -> None:
    """Refuse a bot listed in ``TOO_SLOW`` for this game, with the reason."""
    for key in (f"{game.name}/{game.info.variant}", game.name):
        names, why = TOO_SLOW.get(key, (frozenset(), ""))
        if bot in names:
            raise ConfigurationError(f"the {bot} bot is too slow for {game.info.label()}:"
                                     f" {why}")


def level_for(game_name: str, level: int, variant: str | None = None) -> Level:
    for key in (f"{game_name}/{variant}", game_name):
        if level in GAME_LEVELS.get(key, {}):
            return GAME_LEVELS[key][level]
    return LEVELS[level]


def make_level(
    level: int, game: Game[Any, Any], player: int, seed: int | None, limit: Limit | None
) -> Bot:
    bot = build(level_for(game.name, level, game.info.variant), game, player, seed, limit)
    bot.name = f"level{level}"
    return bot


def build(
    spec: Level, game: Game[Any, Any], player: int, seed: int | None, limit: Limit | None
) -> Bot:
    """The bot a level describes (``limit`` overrides its budgets, and may cap seconds)."""
    seconds = limit.seconds if limit is not None else None
    if spec.bot == "freeform":
        nodes = limit.nodes if limit and limit.nodes else spec.nodes
        depth = 1 if spec.depth is None else spec.depth
        bot: Bot = FreeformBot(game, player, seed, Limit(seconds=seconds, nodes=nodes),
                               careful=depth > 0, depth=max(depth, 1))
    elif spec.bot == "random":
        bot = RandomBot(game, player, seed, limit)
    elif spec.bot == "quatrefoil":
        bot = QuatrefoilBot(game, player, seed, limit, curiosity=spec.curiosity,
                            trusted=None if spec.reads_team else frozenset())
    elif spec.bot in ("greedy", "beginner"):
        bot = GreedyBot(game, player, seed, limit, careful=spec.bot == "greedy",
                        attention=spec.nodes)
    elif spec.bot == "mcts":
        iterations = limit.iterations if limit and limit.iterations else spec.iterations
        bot = MCTSBot(game, player, seed, Limit(seconds=seconds, iterations=iterations))
    elif spec.bot == "alphabeta":
        nodes = limit.nodes if limit and limit.nodes else spec.nodes
        bot = AlphaBetaBot(game, player, seed, Limit(seconds=seconds, nodes=nodes),
                           max_depth=spec.depth or 64, endgame=spec.endgame)
    else:
        raise ConfigurationError(
            f"unknown bot kind {spec.bot!r} for level {spec.level}; valid kinds: {KINDS}")
    return bot


def level_factory(level: int) -> Any:
    """A ``BotFactory`` for ``fourfold.ai.BOTS``."""

    def factory(
        game: Game[Any, Any], player: int, seed: int | None = None, limit: Limit | None = None
    ) -> Bot:
        return make_level(level, game, player, seed, limit)

    factory.__doc__ = f"Level {level} (see fourfold.ai.levels.LEVELS)."
    return factory
