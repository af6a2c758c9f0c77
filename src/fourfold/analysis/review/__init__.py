"""Perfect-play review of finished games (issue 32; docs/review.md).

``review(match)`` values every ply with the game's solver (reached through its
extension bundle), or a bounded search's estimate where the solver cannot answer, and
labels each move ``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder``.
"""

from fourfold.analysis.review.assess import Assessment, assess
from fourfold.analysis.review.judgement import Judgement
from fourfold.analysis.review.labels import LABELS, label
from fourfold.analysis.review.review import Ply, Review, review

__all__ = ["LABELS", "Assessment", "Judgement", "Ply", "Review", "assess", "label", "review"]
