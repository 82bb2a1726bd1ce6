"""Tests of engine/tools/: the command line and the benchmark."""
