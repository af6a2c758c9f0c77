"""The puzzle page's server side (issue 32): the shipped starter set served by id
(``catalog``), tries checked move by move against the certified line without sending
the line ahead (``routes``), hints and the solution, Glicko-2 ratings of puzzles and
solvers, a solver being a browser's random id and no account (``ratings``, ``store``),
and a daily puzzle."""
