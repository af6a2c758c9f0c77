"""The frame layout of the sliding games' alpha-beta (Dao and Ice Dao kernels).

Their searches run the placement search's loop without recursion: one row of
``frames`` per ply, holding these fields, and a step saying where the loop resumes.
"""

F_DEPTH = 0
F_ALPHA = 1
F_BETA = 2
F_ALPHA0 = 3
F_BEST = 4
F_BEST_MOVE = 5
F_COUNT = 6
F_NEXT = 7
F_KEY = 8
F_CURRENT = 9
F_HORIZON = 10  # the caller's horizon flag, saved while this node's subtree runs
NUM_FRAME = 11

ENTER = 0
NEXT = 1
RETURN = 2
