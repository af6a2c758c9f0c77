"""Solvers and solution tables, one module per game (``fourfold.solve.quatrefoil``...)."""
