"""The batched trainer's equilibrium terms (MMD: the reverse KL from the rollout's policy and toward a trailing
magnet, an annealed entropy, a ReLU choice, the compact observation) and its exact exploitability at each
checkpoint, with the CPU time it leaves out."""

from __future__ import annotations

import csv
import math

import pytest
import torch

from bidbluff import agents
from bidbluff.agents.networks import ActorCritic
from bidbluff.agents.policy import load_trainer_state, read_sidecar
from bidbluff.training.batched import BatchedConfig, BatchedTrainer, reverse_kl, trail

pytest.importorskip("pyspiel")

SMALL = {"dice": 1}


def test_reverse_kl_by_hand_over_the_legal_actions_only():
    policy = torch.log(torch.tensor([[0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3]]).clamp_min(1e-30))
    reference = torch.log(torch.tensor([[0.25, 0.75, 0.0], [1 / 3, 1 / 3, 1 / 3]]).clamp_min(1e-30))
    mask = torch.tensor([[True, True, False], [True, True, True]])
    by_hand = (0.5 * math.log(0.5 / 0.25) + 0.5 * math.log(0.5 / 0.75) + 0.0) / 2
    assert float(reverse_kl(policy, reference, mask)) == pytest.approx(by_hand, rel=1e-6)
    assert float(reverse_kl(policy, policy, mask)) == 0.0


def test_the_magnet_trails_the_network():
    net, magnet = ActorCritic(6, 3, 0, [4]), ActorCritic(6, 3, 0, [4])
    before = [p.clone() for p in magnet.parameters()]
    trail(magnet, net, 0.25)
    for was, now, target in zip(before, magnet.parameters(), net.parameters(), strict=True):
        assert torch.allclose(now, was + 0.25 * (target - was))
    trail(magnet, net, 1.0)
    assert all(torch.equal(a, b) for a, b in zip(magnet.parameters(), net.parameters(), strict=True))


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def config(tmp_path, **extra):
    base = dict(
        env="liars_dice_v0", players=2, env_options={**SMALL, "observation": "compact"}, opponents=[],
        pool_fraction=0.0, pool_max=0, num_games=16, rollout_steps=512, minibatch_size=256, n_epochs=2, trunk=0,
        net_arch=[32, 32], activation="relu", total_steps=1024, checkpoint_every=512, eval_games=0,
        exploitability=True, kl_coef=0.1, magnet_coef=0.1, magnet_rate=0.5, ent_coef=0.05, ent_coef_final=0.0,
        out=str(tmp_path / "run"),
    )  # fmt: skip
    return BatchedConfig(**{**base, **extra})


def test_the_terms_are_trained_logged_and_resumed(tmp_path):
    trainer = BatchedTrainer(config(tmp_path), progress_bar=False)
    assert trainer.entropy_coefficient() == 0.05
    trainer.run()
    assert trainer.entropy_coefficient() == 0.0  # annealed to the final value at total_steps
    rows = read_csv(tmp_path / "run" / "progress.csv")
    assert [float(r["ent_coef"]) for r in rows] == [0.05, 0.025]
    assert all(float(r["kl_rollout"]) >= 0 and float(r["kl_magnet"]) > 0 for r in rows)
    exploit = read_csv(tmp_path / "run" / "exploitability.csv")
    assert [int(r["step"]) for r in exploit] == [512, 1024]
    assert 0 < float(exploit[-1]["exploitability"]) < 1
    assert float(exploit[-1]["cpu_s"]) <= float(rows[-1]["cpu_s"]) + 1.0
    final = tmp_path / "run" / "final.zip"
    meta = read_sidecar(final)
    assert meta["network"]["activation"] == "relu" and meta["observation_shape"] == [248]
    assert meta["exploitability"]["step"] == 1024
    saved = load_trainer_state(final)
    for key, tensor in trainer.magnet.state_dict().items():
        assert torch.equal(saved["magnet"][key], tensor)

    resumed = BatchedTrainer(config(tmp_path, total_steps=1536), resume=True, progress_bar=False)
    for key, tensor in resumed.magnet.state_dict().items():
        assert torch.equal(saved["magnet"][key], tensor), "a resumed run trails the magnet it saved"
    assert resumed.cpu_before == saved["cpu_s"] > 0
    resumed.run()
    exploit = read_csv(tmp_path / "run" / "exploitability.csv")
    assert [int(r["step"]) for r in exploit] == [512, 1024, 1536]
    assert float(exploit[-1]["cpu_s"]) > float(exploit[1]["cpu_s"]), "the CPU time carries on across a resume"


def test_a_copied_magnet_is_refreshed_every_so_many_updates(tmp_path):
    trainer = BatchedTrainer(
        config(tmp_path, total_steps=1536, magnet_every=2, kl_coef=0.0, exploitability=False), progress_bar=False
    )
    first = {k: v.clone() for k, v in trainer.magnet.state_dict().items()}
    trainer.run()  # three updates: the magnet was copied after the second
    assert trainer.updates == 3
    assert not all(torch.equal(first[k], v) for k, v in trainer.magnet.state_dict().items())
    saved = load_trainer_state(tmp_path / "run" / "final.zip")
    assert saved["updates"] == 3


@pytest.mark.parametrize("frozen_after", [1.0, 0.5])
def test_a_frozen_magnet_stays_where_it_was_for_the_last_stretch(tmp_path, frozen_after):
    """Copied after every update, the magnet ends as the network; frozen after half the run (768 of 1,536
    decisions: the third update starts from 1,024) it keeps the second update's copy through the third."""
    trainer = BatchedTrainer(
        config(tmp_path, total_steps=1536, magnet_every=1, magnet_frozen_after=frozen_after, exploitability=False),
        progress_bar=False,
    )
    copies = []
    recording_magnets(trainer, copies)
    trainer.run()
    assert trainer.updates == 3 == len(copies)
    net = trainer.net.state_dict()
    ends_as_network = all(torch.equal(net[k], v) for k, v in trainer.magnet.state_dict().items())
    assert ends_as_network == (frozen_after == 1.0)
    if frozen_after < 1.0:
        assert all(torch.equal(copies[1][k], v) for k, v in copies[2].items())
        assert not all(torch.equal(copies[0][k], v) for k, v in copies[1].items()), "copied before the freeze"


def recording_weights(trainer, into):
    """Wrap ``trainer.update`` to append (the step its rollout began at, the weights after it) to ``into``."""
    update = trainer.update

    def recorded(*args, **kwargs):
        began = trainer.steps
        out = update(*args, **kwargs)
        into.append((began, {k: v.clone() for k, v in trainer.net.state_dict().items()}))
        return out

    trainer.update = recorded


def recording_magnets(trainer, into):
    """Wrap ``trainer.update`` to append the magnet's weights after it to ``into``."""
    update = trainer.update

    def recorded(*args, **kwargs):
        out = update(*args, **kwargs)
        into.append({k: v.clone() for k, v in trainer.magnet.state_dict().items()})
        return out

    trainer.update = recorded


def mean_of(states):
    return {k: torch.stack([s[k] for s in states]).mean(0) for k in states[0]}


def test_the_average_is_the_mean_of_the_weights_after_each_update_from_its_share_on_and_resumes(tmp_path):
    """From 0.3 of 1,536 decisions (step 461) the updates whose rollouts began at 512 and 1,024 are averaged;
    resumed to 2,048 (the share is then step 614), the fourth joins the saved mean."""
    trainer = BatchedTrainer(config(tmp_path, total_steps=1536, average_from=0.3), progress_bar=False)
    seen = []
    recording_weights(trainer, seen)
    trainer.run()
    assert [began for began, _ in seen] == [0, 512, 1024]
    run = tmp_path / "run"
    average = agents.make(str(run / "average.zip"), env_name="liars_dice_v0")
    expected = mean_of([state for _, state in seen[1:]])
    for key, tensor in average.network.state_dict().items():
        assert torch.allclose(tensor, expected[key], atol=1e-6), key
    assert not torch.allclose(average.network.state_dict()[key], trainer.net.state_dict()[key])
    meta = read_sidecar(run / "average.zip")
    assert meta["average"] == {"updates": 2, "from_step": 460}
    assert meta["exploitability"]["step"] == 1536 and 0 < meta["exploitability"]["exploitability"] < 1
    rows = read_csv(run / "average.csv")
    assert [(int(r["step"]), int(r["updates_averaged"])) for r in rows] == [(1024, 1), (1536, 2)]
    assert load_trainer_state(run / "final.zip")["averaged"] == 2

    resumed = BatchedTrainer(config(tmp_path, total_steps=2048, average_from=0.3), resume=True, progress_bar=False)
    assert resumed.averaged == 2
    recording_weights(resumed, seen)
    resumed.run()
    expected = mean_of([state for _, state in seen[1:]])
    saved = load_trainer_state(run / "final.zip")
    assert saved["averaged"] == 3
    for key, tensor in saved["average"].items():
        assert torch.allclose(tensor, expected[key], atol=1e-6), key
    assert [int(r["step"]) for r in read_csv(run / "average.csv")] == [1024, 1536, 2048]


@pytest.mark.parametrize("source", ["network", "average"])
def test_the_magnet_copies_the_mean_of_the_weights_once_it_has_begun(tmp_path, source):
    """Copied after every update: with the network as its source the magnet ends as the last iterate; with the
    mean as its source it is the network until the mean begins (after the first update here, before 461 of
    1,536 decisions), then the mean of the weights after the second and third updates."""
    trainer = BatchedTrainer(
        config(tmp_path, total_steps=1536, magnet_every=1, average_from=0.3, magnet_source=source,
               exploitability=False),
        progress_bar=False,
    )  # fmt: skip
    seen, magnets = [], []
    recording_weights(trainer, seen)
    recording_magnets(trainer, magnets)
    trainer.run()
    assert len(seen) == len(magnets) == 3
    first = seen[0][1]
    assert all(torch.equal(magnets[0][k], v) for k, v in first.items()), "the network's copy before the mean"
    expected = seen[2][1] if source == "network" else mean_of([state for _, state in seen[1:]])
    for key, tensor in magnets[2].items():
        assert torch.allclose(tensor, expected[key], atol=1e-6), key
    last = trainer.net.state_dict()
    assert all(torch.equal(magnets[2][k], v) for k, v in last.items()) == (source == "network")


def test_a_magnet_source_without_a_mean_or_a_magnet_is_refused(tmp_path):
    with pytest.raises(ValueError, match="magnet_source"):
        BatchedTrainer(config(tmp_path, magnet_source="iterate"), progress_bar=False)
    with pytest.raises(ValueError, match="needs a magnet"):
        BatchedTrainer(config(tmp_path, magnet_source="average"), progress_bar=False)
    with pytest.raises(ValueError, match="needs a magnet"):
        BatchedTrainer(config(tmp_path, magnet_source="average", average_from=0.5, magnet_coef=0.0),
                       progress_bar=False)  # fmt: skip


def test_a_run_without_an_average_writes_none(tmp_path):
    BatchedTrainer(config(tmp_path), progress_bar=False).run()
    assert not (tmp_path / "run" / "average.zip").exists() and not (tmp_path / "run" / "average.csv").exists()
    assert "average" not in load_trainer_state(tmp_path / "run" / "final.zip")


def test_an_average_from_no_share_of_the_run_is_refused(tmp_path):
    for bad in (-0.1, 1.0):
        with pytest.raises(ValueError, match="average_from"):
            BatchedTrainer(config(tmp_path, average_from=bad), progress_bar=False)


def test_a_magnet_frozen_after_no_share_of_the_run_is_refused(tmp_path):
    for bad in (0.0, 1.5):
        with pytest.raises(ValueError, match="magnet_frozen_after"):
            BatchedTrainer(config(tmp_path, magnet_frozen_after=bad), progress_bar=False)


def test_the_probe_agrees_with_the_exploitability_command(tmp_path):
    """The in-training measurement (one forward pass over every information state) and the command's
    (the checkpoint played as it samples, through the env's observation) give the same figure."""
    from bidbluff.training.exploitability import ExploitabilityProbe, game_tree, nash_conv, tabulate

    trainer = BatchedTrainer(config(tmp_path, total_steps=512), progress_bar=False)
    trainer.run()
    final = str(tmp_path / "run" / "final.zip")
    probe = ExploitabilityProbe("liars_dice_v0", [2], {**SMALL, "observation": "compact"}).measure(trainer.net)
    agent = agents.make(f"{final}:sample", env_name="liars_dice_v0", seed=0)
    tree = game_tree(2, 1, "lying_pirates", ())
    exact = nash_conv(tree, tabulate(agent, tree).policy)
    assert probe["exploitability"] == pytest.approx(exact.exploitability, abs=1e-5)


def test_the_probe_refuses_tables_it_cannot_solve():
    from bidbluff.training.exploitability import ExploitabilityProbe

    with pytest.raises(ValueError, match="at 2 players"):
        ExploitabilityProbe("liars_dice_v0", [2, 3], SMALL)
    with pytest.raises(ValueError, match="at 2 players"):
        ExploitabilityProbe("spytails_v0", [2], {})


def test_a_compact_network_of_another_table_is_refused(tmp_path):
    from types import SimpleNamespace

    from bidbluff.training.exploitability import observation_columns

    trainer = BatchedTrainer(config(tmp_path, total_steps=512, exploitability=False), progress_bar=False)
    trainer.run()
    agent = agents.make(str(tmp_path / "run" / "final.zip"), env_name="liars_dice_v0")
    one_die = SimpleNamespace(setting=SimpleNamespace(dice=1, specials=()))
    assert len(observation_columns(agent, one_die)) == 248
    with pytest.raises(ValueError, match="compact observation of 1 dice"):
        observation_columns(agent, SimpleNamespace(setting=SimpleNamespace(dice=2, specials=())))
    assert observation_columns(agents.make("random"), one_die) is None


def test_the_equilibrium_recipe_sets_its_options_under_the_flags_given(tmp_path, capsys):
    import json

    from bidbluff.cli import main

    out = tmp_path / "recipe"
    argv = ["selfplay", "liars_dice_v0", "--recipe", "equilibrium", "--total-steps", "2048", "--checkpoint-every",
            "2048", "--n-epochs", "1", "--option", "preset=classic", "--rollout-steps", "2048", "--num-games", "64",
            "--no-progress", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    config = json.loads((out / "config.json").read_text())
    assert config["magnet_coef"] == 0.4 and config["magnet_every"] == 0 and config["magnet_rate"] == 0.006
    assert config["clip_range"] == 0.1, "classic's tuning leaves the clip"
    assert config["ent_coef"] == 0.05 and config["ent_coef_final"] == 0.002 and config["anneal_lr"] is True
    assert config["average_from"] == 0.5 and config["magnet_source"] == "network"
    assert config["minibatch_size"] == 16384 and config["learning_rate"] == 3e-3  # classic's big batch ...
    assert (config["rollout_steps"], config["num_games"]) == (2048, 64), "... under the flags given"
    assert config["total_steps"] == 2048, "a flag given wins over the recipe"
    assert config["n_epochs"] == 1, "a flag given wins over the recipe"
    assert config["env_options"] == {"dice": 1, "observation": "compact", "preset": "classic"}
    assert read_csv(out / "exploitability.csv")[0]["step"] == "2048"
    printed = capsys.readouterr().out
    assert "--magnet-every" in printed and "exact exploitability" in printed
    with pytest.raises(SystemExit, match="not of --trainer sb3"):
        main(["selfplay", "liars_dice_v0", "--trainer", "sb3", "--recipe", "equilibrium", "--out", str(tmp_path / "x")])


def test_the_recipe_is_tuned_for_the_preset_and_a_flag_given_still_wins():
    from bidbluff.training.configs import with_recipe

    lying_pirates = with_recipe("equilibrium", {})
    assert (lying_pirates["magnet_coef"], lying_pirates["magnet_every"], lying_pirates["ent_coef_final"]) == (
        0.2,
        100,
        0.01,
    )
    classic = with_recipe("equilibrium", {"env_options": {"preset": "classic"}})
    assert (classic["magnet_coef"], classic["magnet_every"], classic["magnet_rate"]) == (0.4, 0, 0.006)
    assert classic["ent_coef_final"] == 0.002 and classic["env_options"]["dice"] == 1
    assert (classic["rollout_steps"], classic["total_steps"], classic["learning_rate"]) == (32768, 39_321_600, 3e-3)
    assert lying_pirates["rollout_steps"] == 2048 and lying_pirates["magnet_source"] == "average"
    given = with_recipe("equilibrium", {"env_options": {"preset": "classic"}, "magnet_coef": 0.3})
    assert given["magnet_coef"] == 0.3 and given["magnet_rate"] == 0.006


@pytest.mark.parametrize("name", sorted(agents.EQUILIBRIUM))
def test_a_shipped_equilibrium_network_is_as_exploitable_as_its_sidecar_says(name):
    from bidbluff.training.exploitability import measure

    if not agents.EQUILIBRIUM[name].is_file():
        pytest.skip(f"{name} is not shipped yet")
    meta = read_sidecar(agents.EQUILIBRIUM[name], "liars_dice_v0")
    block = meta["exploitability"]
    assert block["preset"] == meta["env_options"].get("preset", "lying_pirates")
    assert meta["num_players"] == 2 and meta["env_options"]["dice"] == 1
    result, _ = measure(name, dice=1, preset=block["preset"])
    assert result.exploitability == pytest.approx(block["exploitability"], abs=1e-6)
    assert not agents.make(name, env_name="liars_dice_v0").deterministic, "an equilibrium is played as it samples"
    assert agents.make(f"{name}:greedy", env_name="liars_dice_v0").deterministic
    with pytest.raises(ValueError, match="plays liars_dice_v0 only"):
        agents.make(name, env_name="spytails_v0")
