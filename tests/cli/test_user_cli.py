"""``hegemon user …`` and ``hegemon game void`` as an organiser runs them in a shell: every
mistake one clear line (exit 2), secrets printed once and never stored."""

from __future__ import annotations

import pytest

from tests.helpers.league import hegemon


def one_line_error(result, text: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert text in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.slow
def test_users_are_added_listed_disabled_and_enabled(tmp_path):
    home = tmp_path / "home"
    typed = hegemon("user", "add", "ada", "--admin", home=home, stdin="typed twice, long\n" * 2)
    assert typed.returncode == 0, typed.stderr
    assert "user ada added (admin)" in typed.stdout
    piped = hegemon("user", "add", "bob", "--password-stdin", home=home, stdin="bob's password\n")
    assert piped.returncode == 0 and "user bob added (member)" in piped.stdout
    one_line_error(
        hegemon("user", "add", "bob", "--password-stdin", home=home, stdin="another password\n"),
        "the name bob is taken",
    )
    one_line_error(
        hegemon("user", "add", "cy", "--password-stdin", home=home, stdin="short\n"),
        "at least 10 characters",
    )
    one_line_error(hegemon("user", "add", "no spaces", home=home), "not a user name")
    assert hegemon("user", "disable", "bob", home=home).stdout.strip() == "user bob disabled"
    listed = hegemon("user", "list", home=home).stdout
    assert "ada" in listed and "admin" in listed
    assert next(line for line in listed.splitlines() if "bob" in line).count("disabled") == 1
    assert hegemon("user", "enable", "bob", home=home).returncode == 0
    assert "disabled" not in hegemon("user", "list", home=home).stdout
    one_line_error(hegemon("user", "disable", "nobody", home=home), "no such user: nobody")
    database = (home / "arena.db").read_bytes()
    assert b"typed twice" not in database and b"bob's password" not in database


@pytest.mark.slow
def test_invitations_and_tokens_are_shown_once_and_tokens_revoked(tmp_path):
    home = tmp_path / "home"
    hegemon("user", "add", "ada", "--admin", "--password-stdin", home=home, stdin="x" * 12 + "\n")
    invited = hegemon(
        "user", "invite", "--expires", "12h", "--url", "https://arena.example/", home=home
    )
    assert invited.returncode == 0, invited.stderr
    assert "https://arena.example/signup?code=inv_" in invited.stdout
    one_line_error(hegemon("user", "invite", "--expires", "soon", home=home), "--expires 'soon'")
    made = hegemon("user", "token", "ada", "--name", "laptop", home=home)
    value = made.stdout.strip().splitlines()[-1]
    assert made.returncode == 0 and value.startswith("hgm_")
    listed = hegemon("user", "tokens", "ada", home=home).stdout
    assert "laptop" in listed and "never" in listed and "active" in listed and value not in listed
    assert hegemon("user", "revoke", "ada", "1", home=home).returncode == 0
    assert "revoked" in hegemon("user", "tokens", "ada", home=home).stdout
    one_line_error(hegemon("user", "revoke", "ada", "7", home=home), "no such token: 7")
    one_line_error(hegemon("user", "token", "nobody", home=home), "no such user: nobody")
    one_line_error(hegemon("game", "void", "99", home=home), "no such game: 99")
    database = (home / "arena.db").read_bytes()
    code = invited.stdout.split("code=")[1].split()[0]
    assert value.encode() not in database and code.encode() not in database
