"""Tests of engine/cpu/: the levels, the Hard network, training, matches, reviews."""
