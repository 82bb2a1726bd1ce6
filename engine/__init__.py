"""Ban-sugoroku rules engine: pure Python, no Django, the single source of the rules."""
