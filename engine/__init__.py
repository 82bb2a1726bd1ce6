"""Ban-sugoroku rules engine: no Django, the single source of the rules.

The Hard level multiplies small matrices (tens of rows) with numpy. OpenBLAS would
spread each over threads, which costs far more than it gains at that size and slowed
Hard's choices threefold on the 2-core machine, so one thread unless told otherwise
(this must be set before numpy is first imported).
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
