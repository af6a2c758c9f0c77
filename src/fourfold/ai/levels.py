"""Levels 1 to 5: one name per strength, mapped to a bot and its thinking budget.

The mapping is data (``LEVELS``, with a game's own levels in the ``levels`` of its
``bots`` part, ``fourfold.ai.game_bots``) so that ``fourfold bots`` and docs/bots.md
show exactly what each level is. Budgets are counted in nodes or iterations, not
seconds, so that a seeded match replays move for move on any machine; a ``Limit``
with ``seconds`` given to a level caps its time as well.

A level plays one of the generic kinds (``KINDS``), or one of its game's own bots:
then ``Level.own`` is a ``LevelBot``, which builds that bot for the level and says
what it plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from fourfold.ai.alphabeta import AlphaBetaBot
from fourfold.ai.base import Bot, Limit
from fourfold.ai.endgame import EndgamePlan
from fourfold.ai.game_bots import game_bots, spec_bots
from fourfold.ai.greedy import GreedyBot
from fourfold.ai.mcts import MCTSBot
from fourfold.ai.random_bot import RandomBot
from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game

if TYPE_CHECKING:
    from fourfold.ai.game_bots import GameBots

KINDS = "random, beginner, greedy, mcts, alphabeta, or a game's own bot (Level.own)"


class LevelBot(Protocol):
    """A game's own bot as a level plays it (``Level.own``)."""

    def build(self, level: Level, game: Game[Any, Any], player: int, seed: int | None,
              limit: Limit | None) -> Bot:
        """The bot of ``level`` (``limit`` overrides its budget, and may cap seconds)."""
        ...

    def describe(self, level: Level) -> str:
        """What ``level`` plays, in one line."""
        ...


@dataclass(frozen=True)
class Level:
    """What a level plays: a bot and its budget per move. ``own`` (a ``LevelBot``) makes
    the level play its game's own bot, named ``bot``; the budget fields mean what that
    bot makes of them."""

    level: int
    bot: str
    nodes: int | None = None
    iterations: int | None = None
    depth: int | None = None
    endgame: EndgamePlan | None = None
    own: LevelBot | None = None

    def describe(self) -> str:
        if self.own is not None:
            return self.own.describe(self)
        if self.bot == "random":
            return "random: any legal move, uniformly"
        if self.bot == "beginner":
            return (f"beginner: wins at once, else checks {self.nodes} random move(s) for one "
                    "that does not hand over a win")
        if self.bot == "greedy":
            return "greedy: wins at once, never hands over a win it can avoid"
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


def check_speed(bot: str, game: Game[Any, Any]) -> None:
    """Refuse a bot the game's ``bots`` part lists as too slow for it, with the reason."""
    bots = game_bots(game)
    if bot in bots.too_slow:
        raise ConfigurationError(f"the {bot} bot is too slow for {game.info.label()}:"
                                 f" {bots.too_slow_reason}")


def _pick(bots: GameBots, level: int) -> Level:
    if level not in LEVELS:
        raise ConfigurationError(
            f"unknown level {level}; valid levels: {', '.join(map(str, LEVELS))}")
    return bots.levels.get(level, LEVELS[level])


def level_of(game: Game[Any, Any], level: int) -> Level:
    """What ``level`` plays in a configured game."""
    return _pick(game_bots(game), level)


def level_for(game_name: str, level: int, variant: str | None = None) -> Level:
    """What ``level`` plays in a registered game's variant (its default variant when
    ``variant`` is None), without configuring the game."""
    from fourfold.core.registry import get_spec

    return _pick(spec_bots(get_spec(game_name), variant), level)


def make_level(
    level: int, game: Game[Any, Any], player: int, seed: int | None, limit: Limit | None
) -> Bot:
    bot = build(level_of(game, level), game, player, seed, limit)
    bot.name = f"level{level}"
    return bot


def build(
    spec: Level, game: Game[Any, Any], player: int, seed: int | None, limit: Limit | None
) -> Bot:
    """The bot a level describes (``limit`` overrides its budgets, and may cap seconds)."""
    if spec.own is not None:
        return spec.own.build(spec, game, player, seed, limit)
    seconds = limit.seconds if limit is not None else None
    if spec.bot == "random":
        bot: Bot = RandomBot(game, player, seed, limit)
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
