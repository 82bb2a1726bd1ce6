"""Ban-sugoroku rules engine: no Django, the single source of the rules.

The rules are the modules at this root (positions, dice, legal plays, the turn in
progress, the game as one value, notation); the CPU opponent and its training are in
`engine.cpu`, the command line and the benchmark in `engine.tools`.

The Hard level multiplies small matrices (tens of rows) with numpy. OpenBLAS would
spread each over threads, which costs far more than it gains at that size and slowed
Hard's choices threefold on the 2-core machine, so one thread unless told otherwise
(this must be set before numpy is first imported).
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
