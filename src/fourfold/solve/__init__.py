"""Exact solvers, generic over the games: the one interface (``position``).

Each game's solvers live in its folder (``games/<game>/solver...``) and are reached
through its extension bundle (the part ``solver``; see ``fourfold.solve.position``).
"""
