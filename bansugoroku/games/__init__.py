"""The game service: players, tables, games and their turn-by-turn history.

A Django app (label "games"): models, the services that change them, the reads, and
the replay that checks the history. The engine decides the rules; nothing here does.
"""
