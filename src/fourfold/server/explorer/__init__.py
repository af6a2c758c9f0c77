"""The explorer page's server side (issue 32): the value and distance of every legal
move of a position of a solved game (Dao, Quarto, the solved Folio rulesets), worked
out in the bounded job pool (``work`` in a worker process, ``routes``)."""
