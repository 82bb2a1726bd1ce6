"""The CPU opponent and what measures it: the three levels (`levels`), the Hard level's
network, its features and its training by self-play, the baselines and the matches
between players, and the review of a finished game's plays against Hard's."""

PLAYERS = ("random", "easy", "normal", "hard", "pipcount", "pipsafe")
"""Every player `python -m engine match` can seat: the three levels and the baselines."""
