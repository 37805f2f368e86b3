"""Policy distillation: the student moves toward its teacher where it has one and stays itself elsewhere; a run
stopped between or inside rounds carries on to the same network as an unbroken one."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
import torch

from bidbluff import envs
from bidbluff.agents.heuristic.spytails import SpytailsHeuristic
from bidbluff.agents.networks import ActorCritic
from bidbluff.agents.policy import PolicyAgent, env_signature, load_network, read_sidecar, save_checkpoint
from bidbluff.training.distill import DistillConfig, distill, main, parse_teachers
from bidbluff.training.run import RunInterruptedError


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> str:
    """A small untrained network's checkpoint: it plays like no teacher (the shipped one is not used here: what
    it already agrees with changes whenever it is retrained)."""
    torch.manual_seed(0)
    game = envs.game("liars_dice_v0")
    net = ActorCritic(game.observation_size, game.codec.n, trunk=64, net_arch=[32])
    with torch.no_grad():
        net.action_head.weight.mul_(300)  # decided preferences (a trained policy's), not near-uniform ones
    meta = {
        **env_signature("liars_dice_v0"),
        "env_options": {},
        "num_players": 4,
        "steps": 0,
        "algorithm": "none (untrained)",
    }
    return str(save_checkpoint(tmp_path_factory.mktemp("fresh") / "fresh.zip", net, meta))


def config(out, init, **changes) -> DistillConfig:
    base = {
        "env": "liars_dice_v0",
        "init": init,
        "out": str(out),
        "teachers": {2: "bayes"},
        "players": [2, 3],
        "rounds": 2,
        "games": 12,
        "epochs": 2,
        "batch_size": 64,
        "learning_rate": 3e-4,
        "seed": 3,
    }
    return DistillConfig(**{**base, **changes})


class CountedHeuristic(SpytailsHeuristic):
    """Spytails' heuristic, keeping every choice it made where it had one (forced moves are played, not
    labelled): a teacher that acted once a labelled decision has exactly the labels' choices here."""

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[int] = []

    def act(self, observation, agent):
        chosen = int(super().act(observation, agent))
        if observation["action_mask"].sum() > 1:
            self.chosen.append(chosen)
        return chosen


def weights(path) -> dict[str, torch.Tensor]:
    return load_network(path, "liars_dice_v0")[0].state_dict()


def test_the_student_learns_the_teacher_of_each_table_size(tmp_path, fresh):
    final = distill(
        config(tmp_path, fresh, teachers={2: "bayes", 3: "heuristic"}, rounds=2, games=30, epochs=8, learning_rate=1e-3)
    )
    rows = [json.loads(line) for line in (tmp_path / "rounds.jsonl").read_text().splitlines()]
    assert [r["played_by"] for r in rows] == ["teacher", "student"]
    before, after = rows[0]["agreement_before_fit"], rows[-1]["agreement_after_fit"]
    for size in ("2", "3"):  # an untrained network plays like neither teacher; then like each at its size
        assert before[size] < 0.3 and after[size] > before[size] + 0.25
    meta = read_sidecar(final, "liars_dice_v0")
    assert meta["distilled_from"] == fresh and len(meta["distillation"]["rounds"]) == 2
    assert "DAgger" in meta["algorithm"]


def test_every_round_is_saved_as_a_student_and_not_as_the_checkpoint_it_started_from(tmp_path, fresh):
    net, meta, _ = load_network(fresh, "liars_dice_v0")
    converted = {"converted_from": {"zip_sha256": "0" * 64}, "evaluation": {"heuristic": 0.5}}
    init = str(save_checkpoint(tmp_path / "converted.zip", net, {**meta, **converted}))
    distill(config(tmp_path / "first", init, rounds=2, games=6, epochs=1))
    for k in (0, 1):
        round_meta = read_sidecar(tmp_path / "first" / f"round_{k}.zip", "liars_dice_v0")
        assert "converted_from" not in round_meta and "evaluation" not in round_meta
        assert round_meta["distilled_from"] == init and len(round_meta["distillation"]["rounds"]) == k + 1
    again = str(tmp_path / "first" / "round_1.zip")
    final = distill(config(tmp_path / "second", again, rounds=1, games=6, epochs=1))
    chain = read_sidecar(final, "liars_dice_v0")["distillation"]
    assert len(chain["rounds"]) == 1 and len(chain["before"]["rounds"]) == 2


def test_a_size_without_a_teacher_is_taught_by_the_starting_network(tmp_path, fresh):
    distill(config(tmp_path, fresh, teachers={}, rounds=1, learning_rate=0.0))
    row = json.loads((tmp_path / "rounds.jsonl").read_text())
    assert row["agreement_before_fit"] == {"2": 1.0, "3": 1.0} == row["agreement_after_fit"]


class StopDuring:
    """A stop signal that arrives ``after`` checks into round 1 (the run checks before each game, after the
    games and before each minibatch: 12 games, then 2 epochs of 2 minibatches here)."""

    def __init__(self, out, after: int) -> None:
        self.out, self.checks, self.after, self.received = out, 0, after, None

    def __bool__(self) -> bool:
        if (self.out / "round_0.zip").is_file():
            self.checks += 1
            if self.checks > self.after:
                self.received = "SIGTERM"
        return self.received is not None


@pytest.mark.parametrize("after", [3, 14])  # inside round 1's games; inside its fit
def test_a_stopped_run_carries_on_to_the_network_an_unbroken_run_ends_with(tmp_path, fresh, after):
    unbroken = distill(config(tmp_path / "unbroken", fresh))
    stop = StopDuring(tmp_path / "stopped", after)
    with pytest.raises(RunInterruptedError) as stopped:
        distill(config(tmp_path / "stopped", fresh), stop)
    assert stop.received == "SIGTERM"
    assert stopped.value.signal_name == "SIGTERM" and stopped.value.steps == 1
    assert (tmp_path / "stopped" / "round_0.zip").is_file() and not (tmp_path / "stopped" / "round_1.zip").exists()
    assert not (tmp_path / "stopped" / "final.zip").exists()
    resumed = distill(config(tmp_path / "stopped", fresh))
    for key, tensor in weights(unbroken).items():
        assert torch.equal(tensor, weights(resumed)[key]), key
    rows = (tmp_path / "stopped" / "rounds.jsonl").read_text().splitlines()
    assert [json.loads(r)["round"] for r in rows] == [0, 1]


def test_a_run_carried_on_with_another_learning_rate_fits_at_that_rate(tmp_path, fresh, monkeypatch):
    import bidbluff.training.distill as module

    distill(config(tmp_path, fresh, rounds=1, learning_rate=3e-4))
    rates = []
    fitted = module.fit

    def fit(cfg, net, optimizer, *args, **kwargs):
        rates.append(optimizer.param_groups[0]["lr"])
        return fitted(cfg, net, optimizer, *args, **kwargs)

    monkeypatch.setattr(module, "fit", fit)
    distill(config(tmp_path, fresh, rounds=2, learning_rate=1e-5))
    assert rates == [1e-5]  # round 1 only, at the new rate (the saved optimizer state says 3e-4)


def test_teacher_sizes_and_bad_arguments(tmp_path, fresh, capsys):
    assert parse_teachers(["2=bayes", "3-4=heuristic"]) == {2: "bayes", 3: "heuristic", 4: "heuristic"}
    with pytest.raises(ValueError, match="SIZE=SPEC"):
        parse_teachers(["two=bayes"])
    for argv, message in (
        (["--teacher", "9=bayes"], "seats 2-6 players, not \\[9\\]"),
        (["--rounds", "0"], "at least 1"),
        (["--teacher", "2:bayes"], "SIZE=SPEC"),
        (["--sharpen", "0"], "in \\(0, 1\\]"),
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["liars_dice_v0", "--init", fresh, "--out", str(tmp_path / "x"), *argv])
        assert exit_.value.code == 2
        assert np.any([m in capsys.readouterr().err for m in [message.replace("\\", "")]])


def test_sharpened_targets_lean_to_the_teachers_choice():
    from bidbluff.training.distill import Decisions, sharpened, stack

    row = np.array([0.6, 0.3, 0.1, 0.0], dtype=np.float32)
    data = stack([Decisions([np.zeros(2, np.float16)], [np.ones(4, bool)], [row], [0.0], [2], [True])])
    assert data["targets"].dtype == torch.float16  # the pool holds them in half, as the observations
    assert np.allclose(data["targets"][0].numpy(), row, atol=1e-3)
    sharp = sharpened(data["targets"][:1], 0.25)[0].numpy()
    assert np.allclose(data["targets"][0].numpy(), row, atol=1e-3)  # the pool keeps the labels as the teacher gave them
    assert sharp.dtype == np.float32 and sharp.sum() == pytest.approx(1.0) and sharp[3] == 0.0
    assert sharp[0] == pytest.approx(0.6**4 / (0.6**4 + 0.3**4 + 0.1**4), rel=1e-3) and sharp[0] > 0.9
    assert np.allclose(sharpened(data["targets"][:1], 1.0)[0].numpy(), row, atol=1e-3)


def test_the_pool_grows_in_place_to_what_joining_gives():
    from bidbluff.training.distill import grow, joined

    a = {"obs": torch.arange(6.0).reshape(3, 2), "own": torch.tensor([True, False, True])}
    b = {"obs": torch.arange(4.0).reshape(2, 2) + 10, "own": torch.tensor([False, False])}
    expected = {"obs": torch.arange(10.0).reshape(5, 2), "own": torch.tensor([True, False, True, False, False])}
    expected["obs"][3:] = b["obs"]
    for key, tensor in joined(a, b).items():
        assert torch.equal(tensor, expected[key]), key
    pool = dict(a)
    grow(pool, b)
    for key in expected:
        assert torch.equal(pool[key], expected[key]), key
    assert pool["obs"].shape == (5, 2) and a["obs"].shape == (3, 2)  # a's own tensors are not touched


def test_agreement_read_in_chunks_is_the_agreement_read_at_once(monkeypatch):
    from bidbluff.training import distill as distill_module

    torch.manual_seed(0)
    net = ActorCritic(6, 5, trunk=8, net_arch=(8,))
    masks = torch.rand(23, 5) < 0.7
    masks[:, 0] = True
    data = {"obs": torch.randn(23, 6).half(), "masks": masks, "targets": torch.rand(23, 5) * masks}
    with torch.no_grad():
        whole = net.logits(data["obs"].float()).masked_fill(~masks, -1e9).argmax(1) == data["targets"].argmax(1)
    monkeypatch.setattr(distill_module, "AGREE_CHUNK", 4)  # 23 rows: five whole chunks and a part
    chunked = distill_module.agrees(net, data)
    assert chunked.shape == (23,) and torch.equal(chunked, whole)
    assert 0 < int(whole.sum()) < 23  # some rows agree and some do not, so a misaligned chunk would show


def test_workers_share_a_round_and_gather_the_data_one_process_would(fresh):
    from bidbluff.training.distill import play_round

    net, meta, _ = load_network(fresh, "liars_dice_v0")
    student = PolicyAgent(net, meta, deterministic=True, name="student")
    for round_, teachers in ((0, {}), (1, {2: "bayes", 3: "heuristic"})):  # the frozen network plays; the student
        cfg = config("unused", fresh, teachers=teachers, games=9)
        alone = play_round(cfg, round_, student, student)
        shared = play_round(replace(cfg, workers=2), round_, student, student)
        assert len(alone.obs) > 9 and alone.players == shared.players and alone.returns == shared.returns
        for name in ("obs", "masks"):
            assert np.array_equal(np.stack(getattr(alone, name)), np.stack(getattr(shared, name))), name
        # a worker's forward pass may sum in another order (its own torch threads): equal up to rounding
        np.testing.assert_allclose(np.stack(alone.targets), np.stack(shared.targets), rtol=0, atol=1e-6)


def test_a_signal_ends_a_shared_round_at_once(fresh):
    from bidbluff.training.distill import play_round

    class Stopped:
        received = "SIGTERM"

        def __bool__(self) -> bool:
            return True

    net, meta, _ = load_network(fresh, "liars_dice_v0")
    student = PolicyAgent(net, meta, deterministic=True, name="student")
    cfg = config("unused", fresh, teachers={2: "ismcts:2000"}, players=[2], games=50, workers=2)
    assert play_round(cfg, 0, student, student, Stopped()).obs == []


def test_a_teacher_that_only_chooses_gives_one_hot_targets_and_acts_once_a_decision(fresh):
    """Spytails' heuristic says no probabilities: its choice is the target, and where it sits in the learner's
    seat (round 0) the action it was labelled with is the one played, with no second ``act``."""
    from bidbluff import agents
    from bidbluff.training.distill import play_games

    cfg = config("unused", fresh, env="spytails_v0", opponents="random", players=[2], games=2)
    for round_ in (0, 1):
        teacher = CountedHeuristic()
        student = agents.make("random", env_name="spytails_v0", seed=5)
        data = play_games(cfg, round_, [(0, 2, 0), (1, 2, 1)], student, {2: teacher})
        targets, masks = np.stack(data.targets), np.stack(data.masks)
        assert len(targets) > 10 and np.all(targets.sum(1) == 1) and np.all(targets.max(1) == 1)
        assert np.all(masks[np.arange(len(targets)), targets.argmax(1)]), "every target is a legal action"
        assert teacher.chosen == targets.argmax(1).tolist(), "one act per labelled decision, none more"


def test_a_search_teacher_searches_once_a_decision_in_its_own_seat(fresh):
    """A search gives its visits and its move together: in the learner's seat (round 0) the move played is the
    labelled search's, not a second search's; in a later round it labels the student's decisions the same way."""
    from bidbluff import agents
    from bidbluff.training.distill import play_games

    cfg = config("unused", fresh, opponents="heuristic", players=[2], games=2)
    for round_ in (0, 1):
        teacher = agents.make("ismcts:6,rollout=random", env_name="liars_dice_v0", seed=2)
        searches = []
        search = teacher.search

        def counted(observation, agent, search=search, searches=searches):
            searches.append(search(observation, agent))
            return searches[-1]

        teacher.search = counted
        student = agents.make("random", env_name="liars_dice_v0", seed=5)
        data = play_games(cfg, round_, [(g, 2, g % 2) for g in range(6)], student, {2: teacher})
        assert len(data.targets) > 8 and len(searches) == len(data.targets), "one search a labelled decision"
        assert all(np.array_equal(t, r.policy.astype(np.float32)) for t, r in zip(data.targets, searches, strict=True))


def test_labelling_every_seat_labels_each_with_its_own_reward_and_reads_agreement_on_the_learners(fresh, monkeypatch):
    """``label_seats="all"``: the other seats' decisions are labelled too, each with its own seat's reward (a
    2-player game's are opposite), marked as not the learner's; the opponents of the teacher's own spec play the
    choice they were labelled with, so the teacher acts once a labelled decision and no opponent acts on one."""
    from bidbluff.training import distill as distill_module

    class Opponent(SpytailsHeuristic):
        labelled_acts = 0

        def act(self, observation, agent):
            Opponent.labelled_acts += int(observation["action_mask"].sum() > 1)
            return super().act(observation, agent)

    make = distill_module.agent_lib.make
    monkeypatch.setattr(
        distill_module.agent_lib, "make", lambda spec, **kw: Opponent() if spec == "heuristic" else make(spec, **kw)
    )
    for round_ in (0, 1):
        learner_only = config(
            "unused", fresh, env="spytails_v0", opponents="heuristic", teachers={2: "heuristic"}, players=[2]
        )
        every_seat = replace(learner_only, label_seats="all")
        teacher = CountedHeuristic()
        Opponent.labelled_acts = 0
        student = make("random", env_name="spytails_v0", seed=5)
        mine = distill_module.play_games(learner_only, round_, [(0, 2, 1)], student, {2: teacher})
        assert Opponent.labelled_acts > 0, "with the learner's seat alone labelled, the opponent plays itself"
        teacher, Opponent.labelled_acts = CountedHeuristic(), 0
        student = make("random", env_name="spytails_v0", seed=5)
        data = distill_module.play_games(every_seat, round_, [(0, 2, 1)], student, {2: teacher})
        assert Opponent.labelled_acts == 0
        assert teacher.chosen == np.stack(data.targets).argmax(1).tolist()
        own, returns = np.array(data.own), np.array(data.returns)
        assert own.any() and (~own).any() and all(mine.own)
        assert len(set(returns[own])) == 1 and len(set(returns[~own])) == 1
        assert returns[own][0] == -returns[~own][0] != 0
        if round_ == 1:  # the student's own decisions are the same whether or not the others are labelled
            assert np.array_equal(np.stack(data.obs)[own], np.stack(mine.obs))


def test_a_round_row_gives_the_agreement_per_kind_of_decision(tmp_path, fresh):
    cfg = config(tmp_path / "run", fresh, rounds=1)
    distill(cfg)
    row = json.loads((tmp_path / "run" / "rounds.jsonl").read_text().splitlines()[0])
    kinds = row["agreement_before_fit_by_kind"]
    assert set(kinds) <= {"bid", "liar", "exact"} and "bid" in kinds
    assert sum(count for _, count in kinds.values()) == row["decisions"]
    assert all(0 <= share <= 1 for share, _ in kinds.values())


def test_the_exact_teacher_is_taught_on_every_information_state_of_two_players_one_die(tmp_path, fresh):
    """``--exact cfr``: an untrained network, sure of its choices, is very exploitable at 2 x 1; fitted to CFR's
    policy on all 6,144 information states for a few epochs it is far less so (4 games reach few of them)."""
    from bidbluff.training.distill import exact_decisions, exact_probe

    probe = exact_probe()
    before = probe.measure(load_network(fresh, "liars_dice_v0")[0])["exploitability"]
    cfg = config(
        tmp_path, fresh, teachers={}, players=[2], games=4, rounds=1, epochs=6, batch_size=128, learning_rate=3e-3
    )
    final = distill(replace(cfg, exact="cfr"))
    row = json.loads((tmp_path / "rounds.jsonl").read_text())
    assert before > 0.6 and row["exact"]["exploitability"] < before - 0.2 and row["exact"]["agreement"] > 0.6
    assert row["exact"]["exploitability"] == pytest.approx(
        probe.measure(load_network(final, "liars_dice_v0")[0])["exploitability"], abs=1e-4
    )
    assert row["data"] == row["decisions"]  # the exact rows are taught, not gathered or saved
    assert len(np.load(tmp_path / "data_0.npz")["returns"]) == row["decisions"]
    taught, weight = exact_decisions(replace(cfg, exact="cfr"), probe)
    assert len(taught.obs) == len(weight) == 6144 and np.isnan(taught.returns).all()
    # half even, half by the state's own reach: the opening bid (reached always) weighs most
    assert weight.mean() == pytest.approx(1.0) and weight.min() >= 0.5
    opening = [k for k, key in enumerate(probe.keys) if key.endswith("bets -")]
    assert len(opening) == 6 and weight[opening].min() == weight.max() > 10
    for target, mask in zip(taught.targets, taught.masks, strict=True):
        assert target.sum() == pytest.approx(1.0, abs=1e-5) and not target[~mask].any()


def test_exact_is_for_liars_dice(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["spytails_v0", "--init", "x.zip", "--out", str(tmp_path), "--exact", "cfr"])
    assert "--exact teaches liars_dice_v0" in capsys.readouterr().err
