"""Puzzles certified by perfect play (issue 32; docs/puzzles.md).

Mined from self-play (``mine``), each verified by the game's solver when it is mined
(``certify``: exactly one winning move at every step of the line, a win in N, or
exactly one move that avoids losing; a game with a bounded solver certifies its own,
within a stated bound, through its ``puzzles`` part: ``hooks``), with themes derived
from the line (``themes``) and a starting rating. A starter set ships in the package
(``starter``), so a fresh install has puzzles at once.
"""

from fourfold.puzzles.certify import certify
from fourfold.puzzles.mine import mine
from fourfold.puzzles.puzzle import HOLD, WIN, Puzzle

__all__ = ["HOLD", "WIN", "Puzzle", "certify", "mine"]
