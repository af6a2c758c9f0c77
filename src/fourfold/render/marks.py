"""The marks every text board uses: a cell is drawn between two characters, with styles
(``rich`` style names) that only ever add emphasis to what the marks already say."""

EMPTY = "·"  # an empty cell
LAST = ("[", "]")  # where the last move put a piece
LINE = ("*", "*")  # a cell of the winning line
PLAIN = (" ", " ")
LAST_STYLE = "reverse"
LINE_STYLE = "underline"
EMPTY_STYLE = "dim"
LABEL_STYLE = "dim"  # column and row labels
