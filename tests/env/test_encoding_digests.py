"""The encoder's output pinned by digests recorded before it was compiled: the observation and
mask encoded afresh from the referee's redaction (``encode(view_for(...))``, what a bot using the
SDK's policy sees) at every step of random masked play, every seat's, on every preset, and the
single-seat environment's observations. A change of one feature of one step changes a digest.

(:mod:`tests.env.test_fast_observation` pins the AEC environment's kept observations the same
way.) To remake the digests after a change of the observation on purpose::

    python -m tests.env.test_encoding_digests
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from hegemon.env import aec, single
from hegemon.referee.encoding import action_mask, encode
from hegemon.referee.rules import PRESETS
from hegemon.referee.view import view_for
from tests.helpers.env import players_of


def fresh_digest(preset: str, seed: int = 11, max_iter: int = 1_500) -> str:
    """The sha256 of every seat's observation and mask encoded afresh at every step of one
    random masked AEC game of ``preset`` (a seat not asked: facing no decision)."""
    env = aec(preset, players_of(preset), options={"turn_limit": 4})
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()
    for _agent in env.agent_iter(max_iter=max_iter):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        for seat in range(len(env.possible_agents)):
            view = view_for(env.game, seat)
            partial = env.partial if view.pending is not None else None
            digest.update(encode(view, view.pending, partial).tobytes())
            digest.update(action_mask(view, view.pending, partial).tobytes())
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return digest.hexdigest()


def single_digest(preset: str, seed: int = 5, max_steps: int = 600) -> str:
    """The sha256 of the single-seat environment's observations, masks and rewards in one
    random masked game of ``preset`` against random bots."""
    env = single(preset, ["random"] * (players_of(preset) - 1), options={"turn_limit": 4})
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()
    try:
        obs, _ = env.reset(seed=seed)
        for _ in range(max_steps):
            digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            digest.update(repr((reward, terminated, truncated)).encode())
            if terminated or truncated:
                digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
                break
    finally:
        env.close()
    return digest.hexdigest()


RECORDED: dict[str, tuple[str, str]] = {
    "classic": (
        "5bd44c1ba1381cfa6df35cf1bcac171543738844f8d087e3da0973cd41e3ce0c",
        "3609a78ec7d2e2e606d0b411ffe45cd2e7100adde372e50b50e85f8ca3a0eb3b",
    ),
    "classic-2004": (
        "217dfc7827078effa18744326515b11992264faebef9c1627a8a648cf638848e",
        "866ff6f4036f79920e28a586185eae4fb13a6ce04274094ed438307b708335f8",
    ),
    "classic-2000": (
        "eb3bd0c50bc1b3af3db9f0ed4f8a94b599f0b4b450d2479fda28cd9de5bb014b",
        "669ed325dbb12cffa0d9fb1bc5cfb562c0a9987980e5c8e3c444d7bc9157a5fb",
    ),
    "mission-2000": (
        "a8044277dfa730f1fa69429f90a1a10d2fd2f13ac0761fcd0df4221fd1c7e31a",
        "ab9fcc0324e90550fa80ae778cb7d00e1cb5d2726a0f56962b9b57d460b26eae",
    ),
    "capital-2000": (
        "6818de5606d83409d2cdfcea370ea9716aade7babd19187e105958b0670fb651",
        "eb4f686698ab249e0c635d7edcff7c31b7076a12c37fbed9899f84aba08540c5",
    ),
    "mission-2004": (
        "f303e879592e0406ee180b885d5965d665963d2b6db6d003d1edeb881a3d2526",
        "6ed0533380eb2bb321bb04dee210157b928e96664edc69c06fdabc233643491e",
    ),
    "team-2004": (
        "243635cb44b4bf603e2824351df33d77649316b9438303b8d50f52e72bd59b41",
        "277919e2ff9130d4cc00fd64e2f22fc3b0e60087bbe563bb69c36bd1428f5760",
    ),
    "two-player-2000": (
        "c6fa8f3af415d1d70c54e5073d0981ac4f47e158d091d73344997a202f469323",
        "321f1f703ab21b21ac41865d91d0de0b6140ac5620a530f3ba28a863b146b5cd",
    ),
    "two-player-capital-2000": (
        "8c420a3693e6c597d674a6343f241b56cb200246fade642b822338f681d87977",
        "d89d3eb1c9955380e4e2bbc52e9b8e21ec6a0a320530c34f523dcc601fce4617",
    ),
    "two-player-classic": (
        "97f4464e3aa6b8d9983299fa4c0ab926c3667b25f873698c2373435cafb8fb81",
        "ca054b20a038ef28c658699077e58a227d0366a466567552330de37df5835aea",
    ),
    "two-player-2004-passive": (
        "889da79d6d160414b13ae2a5544b500ca62df004253234e3ff6f5304ee7268db",
        "f5d25ba78a7fd5747664de874635400aeabbe447b9279c8a8c7629e2c5b5eed9",
    ),
    "two-player-2004-active": (
        "395f0470b11c58e8dd735b439faa17a211211df6956055c4b387f64607cef730",
        "eb5a056825cbe1de325e8cd77ff17f05de1916dadb4c2f4d2bdb0221638cb6a7",
    ),
    "risiko-master-base": (
        "5507a8c0163cc3195c3a7af77e2875133ba0fffdb572cdc12d09bbb5575abd74",
        "811343412cd365a1499ff66004e5f8bbdc878c7819266c872e41bfb19bafa417",
    ),
    "risiko-master-expert": (
        "152af63ea04bea6af996968862d8cb9cfa3b0805c37c7d0a192b93df9543819b",
        "9a3cb002af02e929f61b0e137b0f82f61fb7381a982a17e067caa95e2ab47efd",
    ),
    "risiko-master-master": (
        "df15058d83eadf1fb2ae4a0bb1f4a0e9a82fdeb40247fa41b3744e3d538e8247",
        "b0aeb6fa75cf05ed133ba9921779a312602213015919767a844c4b2ed7201330",
    ),
}
"""Per preset: the digests of :func:`fresh_digest` and of :func:`single_digest`."""


def test_the_digests_cover_every_preset():
    assert set(RECORDED) == set(PRESETS)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_seats_fresh_encoding_is_byte_identical_to_the_recorded_one(preset):
    assert fresh_digest(preset) == RECORDED[preset][0], (
        f"{preset}: the encoding changed; if on purpose, remake the digests (see the module's doc)"
    )


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_single_seat_environment_is_byte_identical_to_the_recorded_one(preset):
    assert single_digest(preset) == RECORDED[preset][1], (
        f"{preset}: the single-seat observations changed; if on purpose, remake the digests"
    )


if __name__ == "__main__":
    print("RECORDED: dict[str, tuple[str, str]] = {")
    for name in PRESETS:
        print(f'    "{name}": (')
        print(f'        "{fresh_digest(name)}",\n        "{single_digest(name)}",\n    ),')
    print("}")
