"""``bidbluff plot RUN_DIR``: the learning curves of both trainers' CSVs as PNGs."""

from __future__ import annotations

import pytest

from bidbluff.cli import main

pytest.importorskip("matplotlib")

BATCHED = """step,seconds,steps_per_s,episodes,truncated,ep_length_mean,learner_win_rate,policy_loss,value_loss,entropy
100,1,100,10,0,5,0.4,-0.01,0.3,1.2
200,2,100,20,0,5,0.5,-0.02,0.2,1.1
"""
SB3 = """step,seconds,steps_per_s,episodes,ep_reward_mean,ep_win_rate,ep_length_mean,policy_loss,value_loss,entropy_loss
100,1,100,10,-0.2,0.4,5,-0.01,0.3,-1.2
200,2,100,20,0.1,0.5,5,,0.2,-1.1
"""
EVAL = """step,opponent,games,win_share,ci_low,ci_high,mean_reward,mean_score,baseline
100,random,20,0.6,0.4,0.78,0.2,0.2,0.5
100,heuristic,20,0.3,0.15,0.5,-0.4,-0.4,0.5
200,random,20,0.7,0.5,0.85,0.4,0.4,0.5
200,heuristic,20,0.4,0.2,0.6,-0.2,-0.2,0.5
"""
PNG = b"\x89PNG"


@pytest.mark.parametrize("progress", [BATCHED, SB3], ids=["batched", "sb3"])
def test_plot_writes_every_curve(progress: str, tmp_path, capsys) -> None:
    (tmp_path / "progress.csv").write_text(progress)
    (tmp_path / "eval.csv").write_text(EVAL)
    assert main(["plot", str(tmp_path)]) == 0
    names = {"reward.png", "win_share.png", "losses.png", "entropy.png"}
    assert {p.name for p in (tmp_path / "plots").iterdir()} == names
    assert all((tmp_path / "plots" / n).read_bytes().startswith(PNG) for n in names)
    assert len(capsys.readouterr().out.split()) == 4


def test_plot_draws_the_exploitability_when_the_run_measured_it(tmp_path) -> None:
    (tmp_path / "progress.csv").write_text(BATCHED)
    (tmp_path / "exploitability.csv").write_text(
        "step,seconds,cpu_s,exploitability,nash_conv,first_seat_value,entropy\n100,1,0.9,0.4,0.8,0.1,1.2\n"
        "200,2,1.8,0.1,0.2,0.05,0.9\n"
    )
    assert main(["plot", str(tmp_path)]) == 0
    assert (tmp_path / "plots" / "exploitability.png").read_bytes().startswith(PNG)
    assert not (tmp_path / "plots" / "win_share.png").exists()


def test_plot_draws_the_mean_of_the_weights_beside_the_last_iterate(tmp_path, monkeypatch) -> None:
    import matplotlib.axes

    header = "step,seconds,cpu_s,exploitability,nash_conv,first_seat_value,entropy"
    (tmp_path / "progress.csv").write_text(BATCHED)
    (tmp_path / "exploitability.csv").write_text(f"{header}\n100,1,0.9,0.4,0.8,0.1,1.2\n200,2,1.8,0.1,0.2,0.05,0.9\n")
    (tmp_path / "average.csv").write_text(f"{header},updates_averaged\n200,2,1.8,0.07,0.14,0.05,0.9,3\n")
    drawn = []
    plot = matplotlib.axes.Axes.plot

    def recorded(self, *args, **kwargs):
        drawn.append((kwargs.get("label"), list(args[1]) if len(args) > 1 else None))
        return plot(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "plot", recorded)
    assert main(["plot", str(tmp_path)]) == 0
    curves = [(label, values) for label, values in drawn if label is not None]
    assert curves.count(("last iterate", [0.4, 0.1])) == 3  # against steps, CPU and wall-clock minutes
    assert curves.count(("mean of the weights (average.zip)", [0.07])) == 3


def test_plot_refuses_a_directory_that_is_no_run(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["plot", str(tmp_path)])
    assert "no progress.csv or eval.csv" in capsys.readouterr().err
