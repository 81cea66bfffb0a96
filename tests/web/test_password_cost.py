"""Passwords are hashed at argon2id's real cost unless the test suite lowers it, and only the
test suite can: ``HEGEMON_PASSWORD_COST=test`` is honoured beside ``HEGEMON_TESTING=1`` and
refused with one line otherwise (docs/security.md)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers.league import hegemon

HASH = """
from hegemon.leaderboard.accounts.passwords import hash_password, verify_password
stored = hash_password("a long enough password")
assert verify_password(stored, "a long enough password")
print(stored)
"""


def outside_the_suite(**settings: str) -> dict[str, str]:
    """This environment without the suite's hegemon settings, with ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEGEMON_")}
    return {**env, **settings}


def hashed(**settings: str) -> subprocess.CompletedProcess[str]:
    """A password hashed in a process whose only hegemon settings are ``settings``."""
    env = outside_the_suite(**settings)
    return subprocess.run([sys.executable, "-c", HASH], env=env, capture_output=True, text=True)


def test_production_hashes_at_the_real_cost_and_the_suite_at_the_least():
    real = hashed()
    assert real.returncode == 0, real.stderr
    assert real.stdout.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    low = hashed(HEGEMON_PASSWORD_COST="test", HEGEMON_TESTING="1")
    assert low.returncode == 0, low.stderr
    assert low.stdout.startswith("$argon2id$v=19$m=8,t=1,p=1$")
    # a hash names its parameters: a server at the real cost checks one made at the least
    check = (
        f"from hegemon.leaderboard.accounts.passwords import verify_password as v\n"
        f"assert v({low.stdout.strip()!r}, 'a long enough password')\n"
        f"assert not v({low.stdout.strip()!r}, 'another password')"
    )
    env = outside_the_suite()
    done = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_lowered_cost_is_refused_outside_the_suite_in_one_line(tmp_path):
    for settings, why in (
        ({"HEGEMON_PASSWORD_COST": "test"}, "for the test suite only"),
        ({"HEGEMON_PASSWORD_COST": "fast", "HEGEMON_TESTING": "1"}, "is not a setting"),
    ):
        env = outside_the_suite(HEGEMON_HOME=str(tmp_path), **settings)
        out = hegemon("user", "add", "ada", "--password-stdin", env=env, stdin="p" * 12 + "\n")
        assert out.returncode != 0 and why in out.stderr, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
        assert not list(tmp_path.iterdir())  # refused before anything was made
        # and a hash is never made at the lowered cost by a process that got past the command
        direct = hashed(**settings)
        assert direct.returncode != 0 and why in direct.stderr and "$argon2" not in direct.stdout
