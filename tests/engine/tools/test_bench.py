"""`make bench` still runs end to end, on a tiny sample; its figures are not checked."""

from __future__ import annotations

import pytest

from engine.tools import bench

pytestmark = pytest.mark.slow


def test_the_benchmark_prints_the_command_beside_legal_plays(capsys):
    bench.main(["--positions", "20", "--requests", "30", "--rounds", "1"])
    out = capsys.readouterr().out
    assert "legal_plays finish=iri: 20 positions" in out
    assert "legal command: 30 mixed requests" in out
    for figure in ("legal_plays alone", "answer() in process", "through a pipe"):
        assert f"  {figure}: best " in out
