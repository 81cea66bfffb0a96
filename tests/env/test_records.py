"""Records as learning data (hegemon.env.records): the test learns nothing; it checks that the
(observation, mask, action) samples read from real recorded games replay exactly — through the
encoder into the recorded engine actions, and through the AEC environment, whose observation of
the seat at each step is the sample's."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from hegemon.env import aec
from hegemon.env.records import Sample, canonical, decisions, stack
from hegemon.referee import Game, make_rules
from hegemon.referee.actions import Action, action_from_list
from hegemon.referee.encoding import PASS, Partial, answer, layout_of, to_action
from hegemon.referee.policies import random_action
from hegemon.referee.record import Recorder, game_from_record, parse, record_seed
from hegemon.referee.rules import rules_from_dict
from hegemon.referee.view import view_for
from hegemon.sdk import Bot, play_local
from tests.helpers.env import players_of

PRESETS = (
    "classic",
    "mission-2004",
    "capital-2000",
    "two-player-classic",
    "risiko-master-master",
    "two-player-2004-active",
)


class MaskedRandom(Bot):
    """Answers with the encoder's own steps, drawn at random among the legal ones (see
    :func:`eager`), and notes every tenth decision (a private line in the record)."""

    asked = 0

    def answer(self, view):
        rng = view.context.rng  # the game's seeded rng: the game replays
        self.asked += 1  # (this seat's own count: an instance attribute from here on)
        if self.asked % 10 == 0:
            view.note(f"decision {self.asked}")
        return answer(view, view.pending, lambda obs, mask: eager(rng, mask))


def eager(rng: random.Random, mask: np.ndarray) -> int:
    """A legal index at random, passing only one time in five when anything else is legal
    (conquests, so cards and trades, within a few turns)."""
    legal = [int(i) for i in np.flatnonzero(mask)]
    if len(legal) > 1 and legal[0] == PASS and rng.random() < 0.8:
        legal = legal[1:]
    return rng.choice(legal)


def names(preset: str) -> list[str]:
    return ["alpha@v1", "beta@v2", "alpha@v3"][: players_of(preset)]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A folder of real records (play_local, the referee's own loop), one a preset, named as
    `hegemon games download` names them."""
    folder = tmp_path_factory.mktemp("games")
    for number, preset in enumerate(PRESETS, 1):
        bots = [type("Named", (MaskedRandom,), {"name": name})() for name in names(preset)]
        game = play_local(bots, preset, seed=number, options={"turn_limit": 4}, strict=True)
        (folder / f"game-{number}.jsonl").write_text(game.record, encoding="utf-8")
    return folder


def recorded_actions(path: Path) -> list[dict]:
    """The action lines of a record."""
    return [line for line in parse(path.read_text()) if line["type"] == "action"]


def replayed(
    path: Path, seat: int, samples: list[Sample]
) -> dict[int, tuple[Action | None, Action]]:
    """Per record line of ``seat`` that has samples: (the action its samples' indices rebuild
    through ``to_action`` from the seat's own view with one Partial, the recorded action).
    Checks on the way that every mask allows its action and only the last step completes."""
    by_line: dict[int, list[Sample]] = defaultdict(list)
    for sample in samples:
        by_line[sample.n].append(sample)
    lines = parse(path.read_text())
    game = game_from_record(lines)
    pairs: dict[int, tuple[Action | None, Action]] = {}
    for line in lines:
        if line["type"] != "action":
            continue
        action = action_from_list(line["action"])
        if line["n"] in by_line:
            view = view_for(game, seat)
            assert view.pending is not None
            partial = Partial()
            results = []
            for sample in by_line[line["n"]]:
                assert sample.mask[sample.action] == 1, f"action {line['n']}: a forbidden step"
                results.append(to_action(sample.action, view, view.pending, partial))
            assert results[:-1] == [None] * (len(results) - 1)
            pairs[line["n"]] = (results[-1], action)
        game.apply(action)
    return pairs


def test_every_decision_of_a_seat_is_read_in_order_and_replays_into_the_recorded_action(
    played: Path,
):
    """Every seat of every preset: a sample for each step of each of its decisions, in record
    order, none left out; the steps rebuild exactly the recorded actions, of every kind."""
    kinds = set()
    for path in sorted(played.glob("*.jsonl")):
        lines = recorded_actions(path)
        head = parse(path.read_text())[0]
        assert '"type":"note"' in path.read_text()  # private lines between the actions
        for seat in range(head["players"]):
            skipped: list[str] = []
            samples = list(decisions(path, seat=seat, skipped=skipped))
            assert skipped == []
            assert {s.game for s in samples} == {path.stem}
            assert {s.seat for s in samples} == {seat}
            mine = [line["n"] for line in lines if line["player"] == seat]
            ns = [s.n for s in samples]
            assert sorted(set(ns)) == mine and ns == sorted(ns)
            pairs = replayed(path, seat, samples)
            assert all(got == recorded for got, recorded in pairs.values())
            kinds |= {recorded.tag for _, recorded in pairs.values()}
    assert kinds >= {
        *("claim", "capital", "place", "trade", "attack", "defend", "occupy", "fortify", "pass"),
        *("place_neutral", "build_centre", "reinforce_ally", "bribe"),
    }


def aec_of(path: Path):
    """The AEC environment of a record's game: its rule set, players and revealed seed."""
    lines = parse(path.read_text())
    head = lines[0]
    env = aec(rules_from_dict(head["rules"]), head["players"])
    env.reset(seed=record_seed(lines))
    return env


def test_the_samples_of_every_seat_drive_the_aec_environment_through_the_recorded_game(
    played: Path,
):
    """Each sample's observation and mask are the AEC environment's for that seat at that
    step; its action, stepped, completes the recorded engine action; the game ends as
    recorded."""
    for path in sorted(played.glob("*.jsonl")):
        lines = parse(path.read_text())
        head, actions = lines[0], [line for line in lines if line["type"] == "action"]
        queue: dict[int, list[Sample]] = defaultdict(list)
        for seat in range(head["players"]):
            for sample in decisions(path, seat=seat):
                queue[sample.n].append(sample)
        env = aec_of(path)
        for line in actions:
            steps = queue.pop(line["n"])
            for sample in steps:
                agent = env.agent_selection
                assert agent == f"seat_{sample.seat}"
                seen = env.observe(agent)
                assert np.array_equal(seen["observation"], sample.observation)
                assert np.array_equal(seen["action_mask"], sample.mask)
                env.step(sample.action)
                assert env.infos.get(agent, {}) == {}, env.infos[agent]
            assert env.game.history[-1] == action_from_list(line["action"])
        assert not queue
        assert env.game.over and list(env.game.places or ()) == lines[-1]["places"]


def test_a_seat_is_chosen_by_label_or_by_bot_name_for_every_version(played: Path):
    """alpha@v1 sits in seat 0, alpha@v3 in seat 2 of the three-player games."""
    games = sorted(played.glob("*.jsonl"))

    def read(seat: int | str) -> set[tuple[str, int, int]]:
        return {(s.game, s.seat, s.n) for path in games for s in decisions(path, seat=seat)}

    assert read("alpha@v3") == read(2) != set()
    three = [i for i, p in enumerate(PRESETS, 1) if players_of(p) == 3]
    assert {(g, s) for g, s, _ in read("alpha")} == {
        *((f"game-{i}", 0) for i in range(1, len(PRESETS) + 1)),
        *((f"game-{i}", 2) for i in three),
    }


def test_a_folder_gives_the_samples_of_one_maps_sizes(played: Path):
    """The first game's map unless another is given: Risiko! Master's drawn tiles are not the
    classic map's 42 territories, so its game is left out, or read alone."""
    skipped: list[str] = []
    classic = {s.game for s in decisions(played, seat=0, skipped=skipped)}
    master = f"game-{PRESETS.index('risiko-master-master') + 1}"
    assert classic == {path.stem for path in played.glob("*.jsonl")} - {master}
    assert len(skipped) == 1 and skipped[0].startswith(f"{master}: a map of ")
    tiles = layout_of(game_from_record(parse((played / f"{master}.jsonl").read_text())).board)
    assert tiles.territories != 42
    assert {s.game for s in decisions(played, seat=0, layout=tiles)} == {master}


def test_stack_gives_arrays_a_classifier_takes(played: Path):
    observations, masks, actions = stack(decisions(played / "game-1.jsonl", seat=0))
    assert observations.dtype == np.float32 and masks.dtype == np.int8
    assert len(observations) == len(masks) == len(actions) > 0
    assert (masks[np.arange(len(actions)), actions] == 1).all()


def policy_record(preset: str, seed: int) -> str:
    """A record of the engine's random policy: attacks with any number of dice, which the
    encoder (always the most dice) cannot express."""
    players = players_of(preset)
    game = Game(make_rules(preset, {"turn_limit": 4}), players, seed)
    recorder = Recorder(game, {"seats": names(preset)})
    rng = random.Random(seed)
    while not game.over:
        recorder.apply(random_action(game, rng))
    return recorder.text()


def test_actions_the_encoder_cannot_express_are_left_out_each_with_its_reason(tmp_path: Path):
    """Every decision of the seat is either read (its steps rebuild the action, placements
    sorted by territory as the encoder gives them) or named in a reason; the reasons say why."""
    reasons = []
    for number, preset in enumerate(PRESETS):
        path = tmp_path / f"policy-{number}.jsonl"
        path.write_text(policy_record(preset, number))
        skipped: list[str] = []
        pairs = replayed(path, 0, list(decisions(path, seat=0, skipped=skipped)))
        assert all(got == canonical(recorded) for got, recorded in pairs.values())
        mine = {line["n"] for line in recorded_actions(path) if line["player"] == 0}
        left_out = {int(r.split("action ")[1].split(" ")[0]) for r in skipped}
        assert set(pairs) | left_out == mine and not set(pairs) & left_out
        reasons += skipped
    assert reasons, "the policy's attacks with fewer dice than the most are named"
    assert all("['attack'," in r and "cannot be encoded" in r for r in reasons), reasons


def test_bad_records_and_missing_seats_are_skipped_with_one_line_reasons(
    played: Path, tmp_path: Path
):
    """A record that does not verify, a file that is no record and a game without the seat
    each give one reason naming the file; the good record is still read whole."""
    good = (played / "game-1.jsonl").read_text()
    lines = good.splitlines()
    at = next(i for i, raw in enumerate(lines) if '"type":"action"' in raw and '"events":[{' in raw)
    line = json.loads(lines[at])
    line["events"][0]["armies"] = line["events"][0].get("armies", 0) + 7
    tampered = [*lines[:at], json.dumps(line, separators=(",", ":")), *lines[at + 1 :]]
    (tmp_path / "game-1.jsonl").write_text(good)
    (tmp_path / "game-2.jsonl").write_text("\n".join(tampered) + "\n")
    (tmp_path / "game-3.jsonl").write_text("not a record\n")
    (tmp_path / "game-4.jsonl").write_bytes(b"\xff\xfe")
    skipped: list[str] = []
    samples = list(decisions(tmp_path, seat="beta", skipped=skipped))
    assert {s.game for s in samples} == {"game-1"}
    assert len(samples) == len(list(decisions(played / "game-1.jsonl", seat=1)))
    assert [r.split(":")[0] for r in skipped] == ["game-2", "game-3", "game-4"]
    assert "does not verify: line" in skipped[0] and "differs" in skipped[0]
    assert all("\n" not in r and str(tmp_path) not in r for r in skipped)
    missing: list[str] = []
    assert list(decisions(tmp_path / "game-1.jsonl", seat="gamma", skipped=missing)) == []
    assert missing == ["game-1: no seat 'gamma' (seats: alpha@v1, beta@v2, alpha@v3)"]


def test_the_referees_stand_in_after_a_fault_is_no_sample_of_the_seat(played: Path, tmp_path: Path):
    """A fault line of the seat (private, as the arbiter writes it) before its action marks
    that action as the referee's default answer: left out, with its reason; nothing else."""
    lines = (played / "game-1.jsonl").read_text().splitlines()
    at = next(i for i, raw in enumerate(lines) if '"type":"action"' in raw and '"player":1' in raw)
    n = json.loads(lines[at])["n"]
    fault = {"type": "fault", "seat": 1, "fault": "timeout", "detail": "slow", "n": 0}
    lines.insert(at, json.dumps(fault, separators=(",", ":")))
    path = tmp_path / "game-1.jsonl"
    path.write_text("\n".join(lines) + "\n")
    skipped: list[str] = []
    read = {s.n for s in decisions(path, seat=1, skipped=skipped)}
    assert read == {s.n for s in decisions(played / "game-1.jsonl", seat=1)} - {n}
    assert skipped == [f"game-1: action {n} is the referee's, after a fault"]


def test_the_guides_example_reads_a_folder_of_downloaded_records(played: Path, tmp_path: Path):
    """docs/learning.md's example, run as printed in a folder holding games/ (as `hegemon
    games download games` leaves it), with alpha's games as the guide's "mybot"."""
    root = Path(__file__).resolve().parents[2]
    guide = (root / "docs" / "learning.md").read_text(encoding="utf-8")
    example = next(b for b in re.findall(r"```python\n(.*?)```", guide, re.S) if "records" in b)
    shutil.copytree(played, tmp_path / "games")
    (tmp_path / "games" / "notes.jsonl").write_text("not a record\n")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    out = subprocess.run(
        [sys.executable, "-c", example.replace('"mybot"', '"alpha"')],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    rows = len(list(decisions(played, seat="alpha")))
    layout = layout_of(Game(make_rules("classic"), 3, 0).board)
    assert lines[0] == f"({rows}, {layout.features}) ({rows}, {layout.actions}) ({rows},)"
    assert [line.split(":")[:2] for line in lines[1:]] == [
        ["left out", " game-5"],  # the Risiko! Master game's map
        ["left out", " notes"],
    ]
