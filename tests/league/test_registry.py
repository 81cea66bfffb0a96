"""Registering bots: files copied by content hash, versions, the check game, removal."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from hegemon.leaderboard import paths
from hegemon.leaderboard.botspec import PYBOOT
from hegemon.leaderboard.registry import (
    RegistryError,
    add_bot,
    bot_command,
    check_source,
    content_hash,
    find_source,
    lookup_bot,
    parse_bot_ref,
    remove_bots,
)
from hegemon.leaderboard.seasons.schedule import make_schedule
from hegemon.leaderboard.store import SeasonRow
from tests.helpers.league import home, saved_id, store  # noqa: F401  (home, store: fixtures)

POLITE = """\
from hegemon.sdk import Bot, run


class Polite(Bot):
    name = "polite"


if __name__ == "__main__":
    run(Polite())
"""

ILLEGAL = """\
from hegemon.sdk import Attack, Bot, run


class Illegal(Bot):
    name = "illegal"

    def decide(self, view, decision):
        return Attack(0, 0, 99)


run(Illegal())
"""

CRASH = "import sys; sys.exit(3)\n"


def write(folder: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return folder


def stored(bot) -> Path:
    return paths.bot_dir(bot.content_hash)


# ---------------------------------------------------------------------------------- hashing
def test_content_hash_covers_paths_bytes_and_modes(tmp_path):
    a = write(tmp_path / "a", {"bot.py": "print(1)\n", "lib/util.py": "X = 1\n"})
    b = write(tmp_path / "b", {"lib/util.py": "X = 1\n", "bot.py": "print(1)\n"})
    assert content_hash(a) == content_hash(b)  # written in another order, same content
    write(b, {"__pycache__/bot.cpython-311.pyc": "junk", ".git/HEAD": "ref", "lib/x.pyc": "junk"})
    assert content_hash(a) == content_hash(b)  # caches and git are not the bot
    write(b, {"node_modules/dep/index.js": "module.exports = 1\n"})
    assert content_hash(a) != content_hash(b)  # node_modules are (a JS bot needs them)
    c = write(tmp_path / "c", {"bot.py": "print(2)\n", "lib/util.py": "X = 1\n"})
    assert content_hash(a) != content_hash(c)
    d = write(tmp_path / "d", {"main.py": "print(1)\n", "lib/util.py": "X = 1\n"})
    assert content_hash(a) != content_hash(d)  # renamed
    os.chmod(a / "bot.py", 0o755)
    assert content_hash(a) != content_hash(b)


# ---------------------------------------------------------------------------------- sources
def test_commands_are_inferred(tmp_path):
    py = write(tmp_path / "py", {"bot.py": "", "helper.py": ""})
    assert find_source(str(py)).command == ("python", "bot.py")
    assert find_source(str(py / "helper.py")).command == ("python", "helper.py")
    assert set(find_source(str(py / "helper.py")).files) == {"helper.py"}
    js = write(tmp_path / "js", {"index.js": "", "node_modules/x/package.json": "{}"})
    source = find_source(str(js))
    assert source.command == ("node", "index.js") and source.language == "javascript"
    assert "node_modules/x/package.json" in source.files
    exe = write(tmp_path / "exe", {"run": "#!/bin/sh\n"})
    os.chmod(exe / "run", 0o755)
    assert find_source(str(exe / "run")).command == ("./run",)
    ruby = write(tmp_path / "rb", {"bot.rb": ""})
    source = find_source(str(ruby), command="ruby bot.rb")
    assert source.command == ("ruby", "bot.rb") and source.language == "ruby"
    sample = find_source("planner")
    assert sample.command == ("python", "-m", "sample_bots.planner") and sample.sample == "planner"
    assert {
        "sample_bots/planner.py",
        "sample_bots/continental.py",
        "sample_bots/__init__.py",
    } <= set(sample.files)


@pytest.mark.parametrize(
    "files, spec, command, message",
    [
        ({}, "nowhere", None, "no such file or folder"),
        ({"README.md": "hi"}, "dir", None, "a bot folder needs one of"),
        ({"bot.rb": ""}, "dir/bot.rb", None, "not a .py or .js file"),
        ({"bot.rb": ""}, "dir", "'unclosed", "--command"),
    ],
)
def test_bad_sources(tmp_path, monkeypatch, files, spec, command, message):
    write(tmp_path / "dir", files)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RegistryError, match=message):
        find_source(spec, command)


# ---------------------------------------------------------------------------------- registering
def test_files_are_copied_by_content_hash(store, tmp_path):
    src = write(tmp_path / "mybot", {"bot.py": POLITE, "data/weights.txt": "1 2 3\n"})
    result = add_bot(store, "mybot", str(src), check=False)
    bot = result.bot
    assert result.new and bot.version == 1 and bot.language == "python"
    assert bot.command == ["python", "bot.py"] and bot.source == str(src)
    folder = stored(bot)
    assert folder == paths.home() / "bots" / bot.content_hash
    assert bot.content_hash == content_hash(src) == content_hash(folder)
    assert (folder / "data" / "weights.txt").read_text() == "1 2 3\n"
    assert sorted(p.name for p in paths.bots_dir().iterdir()) == [
        bot.content_hash
    ]  # no staging left

    # Editing the original later does not touch the stored copy...
    (src / "bot.py").write_text(POLITE + "# tuned\n")
    assert (folder / "bot.py").read_text() == POLITE
    assert content_hash(folder) == bot.content_hash
    # ...and registering the new content makes v2.
    second = add_bot(store, "mybot", str(src), check=False)
    assert second.new and second.bot.version == 2
    assert second.bot.content_hash != bot.content_hash and stored(second.bot).is_dir()
    # The same content again is no new version.
    again = add_bot(store, "mybot", str(src), check=False)
    assert not again.new and again.bot.version == 2
    assert [b.version for b in store.bots("mybot")] == [1, 2]


def test_bot_command_runs_the_stored_copy(store, tmp_path):
    src = write(tmp_path / "b", {"bot.py": POLITE})
    bot = add_bot(store, "b", str(src), check=False).bot
    command = bot_command(bot)
    # run through the launcher that keeps the bot's folder last on sys.path
    assert command.argv == (sys.executable, "-P", str(PYBOOT), str(stored(bot) / "bot.py"))
    assert command.cwd == str(stored(bot)) and command.name == "b@v1"
    sample = add_bot(store, "rnd", "random", check=False).bot
    assert bot_command(sample, "random").argv == (sys.executable, "-m", "sample_bots.random")
    assert (stored(sample) / "sample_bots" / "random.py").is_file()
    import shutil

    shutil.rmtree(stored(bot))
    with pytest.raises(RegistryError, match="files are missing"):
        bot_command(bot)


def test_bad_names(store, tmp_path):
    src = write(tmp_path / "b", {"bot.py": POLITE})
    for name in ("", "a b", "x@v1", "a,b", "-x"):
        with pytest.raises(RegistryError, match="bad bot name"):
            add_bot(store, name, str(src), check=False)


def test_lookup_by_reference(store, tmp_path):
    src = write(tmp_path / "b", {"bot.py": POLITE})
    add_bot(store, "b", str(src), check=False)
    (src / "bot.py").write_text(POLITE + "\n# v2\n")
    add_bot(store, "b", str(src), check=False)
    assert parse_bot_ref("b@v2") == ("b", 2) and parse_bot_ref("b@1") == ("b", 1)
    assert parse_bot_ref("b") == ("b", None)
    assert lookup_bot(store, "b").version == 2
    assert lookup_bot(store, "b@v1").version == 1
    with pytest.raises(RegistryError, match=r"no version 3 \(registered: v1, v2\)"):
        lookup_bot(store, "b@v3")
    with pytest.raises(RegistryError, match=r"unknown bot 'c' \(registered: b\)"):
        lookup_bot(store, "c")


def test_remove(store, tmp_path):
    src = write(tmp_path / "b", {"bot.py": POLITE})
    first = add_bot(store, "b", str(src), check=False).bot
    twin = add_bot(store, "twin", str(src), check=False).bot  # same files, another name
    assert twin.content_hash == first.content_hash
    (src / "bot.py").write_text(POLITE + "\n# v2\n")
    second = add_bot(store, "b", str(src), check=False).bot
    others = [add_bot(store, f"o{i}", "random", check=False).bot for i in range(2)]
    ids = [saved_id(second), *(saved_id(o) for o in others)]
    store.create_season(
        SeasonRow(
            name="s",
            preset="classic",
            options={},
            players=3,
            games=3,
            startup_time=10,
            decision_time=2,
            time_bank=60,
            max_strikes=5,
            seed=1,
        ),
        ids,
        make_schedule(ids, 3, 3, 1),
    )
    with pytest.raises(RegistryError, match="b@v2 plays in season s"):
        remove_bots(store, "b")
    assert [b.version for b in store.bots("b")] == [1, 2]  # nothing removed
    assert [b.version for b in remove_bots(store, "b", 1)] == [1]
    assert stored(first).is_dir()  # the twin still uses the files
    remove_bots(store, "twin")
    assert not stored(first).exists()
    with pytest.raises(RegistryError, match="unknown bot 'twin'"):
        remove_bots(store, "twin")
    with pytest.raises(RegistryError, match="no version 7"):
        remove_bots(store, "b", 7)


# ---------------------------------------------------------------------------------- the check game
def test_a_good_bot_passes_and_is_registered(store, tmp_path):
    src = write(tmp_path / "polite", {"bot.py": POLITE})
    result = add_bot(store, "polite", str(src))
    assert result.new and result.check is not None and result.check.ok
    assert result.check.faults == [] and result.check.decisions > 0
    assert '"type"' in result.check.record
    assert store.find_bot("polite").version == 1


@pytest.mark.parametrize(
    "code, reason",
    [
        (CRASH, r"^start-up failure: .*exit code 3"),
        (ILLEGAL, r"^illegal action: "),
    ],
)
def test_a_bad_bot_is_refused_with_a_reason(store, tmp_path, code, reason):
    src = write(tmp_path / "bad", {"bot.py": code})
    check = check_source(find_source(str(src)), "bad")
    assert not check.ok
    assert "\n" not in check.reason
    import re

    assert re.search(reason, check.reason), check.reason
    with pytest.raises(RegistryError, match="bad is refused: " + reason.lstrip("^")):
        add_bot(store, "bad", str(src))
    assert store.bots() == []
    assert list(paths.bots_dir().iterdir()) == []  # nothing stored, no staging left


def test_a_sample_bot_registers_by_name(store):
    result = add_bot(store, "random", "random")
    assert result.new and result.check is not None and result.check.ok
    bot = result.bot
    assert bot.command == ["python", "-m", "sample_bots.random"] and bot.source == "sample:random"
    assert content_hash(stored(bot)) == bot.content_hash
    again = add_bot(store, "random", "random", check=False)
    assert not again.new and again.bot.id == bot.id


# ---------------------------------------------------------------------------------- archives
def test_another_home_materialises_a_bot_from_the_database(store, tmp_path, monkeypatch):
    import sqlalchemy as sa

    from hegemon.leaderboard.registry import materialise
    from hegemon.leaderboard.store.archives import BotArchiveRow

    src = write(tmp_path / "b", {"bot.py": POLITE, "data/w.txt": "1\n"})
    os.chmod(src / "data" / "w.txt", 0o755)  # the mode is part of the hash: it must travel
    bot = add_bot(store, "b", str(src), check=False).bot
    assert store.has_archive(bot.content_hash)
    # A second machine: its own home, empty, and the same database.
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "other"))
    folder = materialise(store, bot)
    assert folder == tmp_path / "other" / "bots" / bot.content_hash
    assert content_hash(folder) == bot.content_hash
    assert os.access(folder / "data" / "w.txt", os.X_OK)
    assert bot_command(bot).cwd == str(folder)
    assert materialise(store, bot) == folder  # second use: the cache
    # A forged archive (same hash, other files) is refused and leaves nothing behind.
    from hegemon.leaderboard.registry.archive import pack

    forged = write(tmp_path / "forged", {"bot.py": POLITE + "# evil\n", "data/w.txt": "1\n"})
    with store.session(write=True) as s:
        s.execute(
            sa.update(BotArchiveRow)
            .where(BotArchiveRow.content_hash == bot.content_hash)  # type: ignore[arg-type]
            .values(data=pack(forged)[0])
        )
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "third"))
    with pytest.raises(RegistryError, match="does not match its content hash"):
        materialise(store, bot)
    assert list(paths.bots_dir().iterdir()) == []


def test_an_archive_with_links_or_escapes_is_refused(tmp_path):
    import gzip
    import io
    import tarfile

    from hegemon.leaderboard.registry.archive import unpack

    for name, kind in (("../escape.py", tarfile.REGTYPE), ("link", tarfile.SYMTYPE)):
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w") as tar:
            info = tarfile.TarInfo(name)
            info.type = kind
            info.linkname = "/etc/passwd" if kind == tarfile.SYMTYPE else ""
            tar.addfile(info, io.BytesIO(b""))
        target = tmp_path / f"t-{kind!r}"
        target.mkdir()
        with pytest.raises(RegistryError, match="forbidden entry"):
            unpack(gzip.compress(raw.getvalue()), target)
        assert not (tmp_path / "escape.py").exists()


def test_adding_registered_files_on_a_second_machine_keeps_a_copy(store, tmp_path, monkeypatch):
    src = write(tmp_path / "b", {"bot.py": POLITE})
    bot = add_bot(store, "b", str(src), check=False).bot
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "other"))
    again = add_bot(store, "b", str(src), check=False)
    assert not again.new and again.bot.id == bot.id
    assert content_hash(stored(bot)) == bot.content_hash


def test_removing_the_last_version_drops_its_archive(store, tmp_path):
    src = write(tmp_path / "b", {"bot.py": POLITE})
    bot = add_bot(store, "b", str(src), check=False).bot
    remove_bots(store, "b")
    assert not store.has_archive(bot.content_hash)
