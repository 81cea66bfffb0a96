"""What a member reads of their bot's faults, checks and uploads names no path of the server:
:func:`hegemon.referee.bottext.no_paths` on the texts the runner and the registry make."""

from __future__ import annotations

import pytest

from hegemon.referee.bottext import no_paths

FOLDER = "/srv/arena/bots/6f1d"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (  # an exception naming a file of the bot's own folder
            f"FileNotFoundError: [Errno 2] No such file or directory: '{FOLDER}/data/w.bin'",
            "FileNotFoundError: [Errno 2] No such file or directory: 'data/w.bin'",
        ),
        (
            f"{FOLDER}: a bot folder needs one of bot.py",
            "the bot's folder: a bot folder needs one of bot.py",
        ),
        (  # the referee's own files: their last part only
            '  File "/opt/hegemon/referee/runner/pyboot.py", line 71, in <module>',
            '  File "pyboot.py", line 71, in <module>',
        ),
        # what is no absolute path of the server stays as it was (an address: the bot's own)
        ("listens on unix:/tmp/elsewhere.sock", "listens on unix:/tmp/elsewhere.sock"),
        (
            "see https://example.org/a/b, bot.py:12 and a/b/c",
            "see https://example.org/a/b, bot.py:12 and a/b/c",
        ),
        ("1/2 of 3/4, and/or /tmp", "1/2 of 3/4, and/or /tmp"),
    ],
)
def test_no_path_of_the_server_is_left(text, shown):
    assert no_paths(text, FOLDER) == shown


def test_the_folder_as_it_really_is_counts_too(tmp_path):
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(real)
    assert no_paths(f"open {real}/sub/x.txt", link) == "open sub/x.txt"
