"""A bot's files are bounded and exact: what is unpacked is exactly what was hashed, Python's
bytecode cache is never read from a bot's folder, and the bombs — a sparse archive, a gzip bomb,
a header that claims a gigabyte, a folder holding a sparse gigabyte — are refused with one line,
in bounded memory, leaving nothing on disk.

Each bomb runs in a child process of its own, which reports its peak resident memory: the
runner or the ``hegemon`` command the bomb is aimed at, measured as it really runs."""

from __future__ import annotations

import gzip
import io
import json
import os
import py_compile
import subprocess
import sys
import tarfile
import textwrap
from importlib.util import cache_from_source
from pathlib import Path

import pytest
import sqlalchemy as sa

from hegemon.leaderboard import paths
from hegemon.leaderboard.registry import RegistryError, add_bot, content_hash
from hegemon.leaderboard.registry.archive import pack, unpack
from hegemon.leaderboard.registry.limits import FileLimits
from hegemon.leaderboard.store import Store
from hegemon.leaderboard.store.archives import BotArchiveRow
from hegemon.referee.runner import pyboot
from hegemon.referee.runner.sandbox.launch import bot_env
from hegemon.referee.runner.sandbox.limits import SandboxLimits
from tests.helpers.league import home, store  # noqa: F401  (fixtures)

GIB = 1 << 30
PEAK_LIMIT_KB = 300 * 1024
"""The most resident memory a process may reach while refusing a bomb (the issue's bound)."""

BOT = "print('a bot')\n"


def measured(code: str, env: dict[str, str]) -> dict[str, object]:
    """Run ``code`` in a fresh Python process; its result: the JSON it printed last, plus its
    peak resident memory in kB (its own and its children's)."""
    wrapper = textwrap.dedent(
        """
        import json, resource, sys
        result = {}
        exec(compile(sys.argv[1], "<bomb>", "exec"))
        # this process's own peak: VmHWM starts afresh at exec (ru_maxrss would carry the
        # pytest worker's it was forked from); its children were forked from this small one
        status = open("/proc/self/status").read().split("VmHWM:")[1]
        own = int(status.split()[0])
        kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        result["peak_kb"] = max(own, kids)
        print(json.dumps(result))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", wrapper, code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return json.loads(out.stdout.splitlines()[-1])


def tar_of(*members: tuple[tarfile.TarInfo, bytes]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return raw.getvalue()


def zero_bomb(header: bytes, zeros: int) -> bytes:
    """A gzip stream of ``header`` then ``zeros`` zero bytes, about a thousandth of that size:
    gzip members of 4 MiB of zeros, concatenated (a reader unpacks them as one stream)."""
    block = gzip.compress(bytes(4 << 20), mtime=0)
    return gzip.compress(header, mtime=0) + block * (zeros // (4 << 20))


def large_header(name: str, size: int, kind: bytes = tarfile.REGTYPE) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = size
    info.type = kind
    return info.tobuf(tarfile.USTAR_FORMAT)


def registered(store: Store, tmp_path: Path):
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "bot.py").write_text(BOT)
    return add_bot(store, "b", str(folder), check=False).bot


def plant(store: Store, digest: str, data: bytes) -> None:
    """Replace the database's archive of ``digest`` by ``data``, as a hostile row would."""
    with store.session(write=True) as s:
        s.execute(
            sa.update(BotArchiveRow)
            .where(BotArchiveRow.content_hash == digest)  # type: ignore[arg-type]
            .values(data=data)
        )


MATERIALISE = """
from hegemon.leaderboard.registry import RegistryError, lookup_bot, materialise
from hegemon.leaderboard.store import Store
try:
    materialise(Store(), lookup_bot(Store(), "b"))
    result["error"] = None
except RegistryError as exc:
    result["error"] = str(exc)
"""


def materialised_elsewhere(tmp_path: Path, name: str) -> tuple[dict[str, object], Path]:
    """A runner with an empty home of its own materialises bot ``b`` from the database."""
    other = tmp_path / name
    env = {**os.environ, "HEGEMON_HOME": str(other)}
    env["HEGEMON_DB"] = str(Path(os.environ["HEGEMON_HOME"]) / "arena.db")
    return measured(MATERIALISE, env), other


def left_on_disk(home: Path) -> list[str]:
    bots = home / "bots"
    return sorted(p.name for p in bots.iterdir()) if bots.is_dir() else []


# ------------------------------------------------------------------------------ exactness
def test_an_archive_row_with_planted_bytecode_is_refused(store, tmp_path):
    """The content hash skips ``__pycache__/*.pyc``, so a planted ``.pyc`` would pass the hash
    check; unpacking refuses it, so what runs is exactly what was hashed."""
    bot = registered(store, tmp_path)
    planted = tar_of(
        (tarfile.TarInfo("bot.py"), BOT.encode()),
        (tarfile.TarInfo("__pycache__/bot.cpython-311.pyc"), b"planted"),
    )
    plant(store, bot.content_hash, gzip.compress(planted, mtime=0))
    result, other = materialised_elsewhere(tmp_path, "runner")
    assert result["error"] == (
        "the archive holds '__pycache__/bot.cpython-311.pyc', which a bot's files never include"
    )
    assert left_on_disk(other) == []


def test_the_same_files_always_pack_to_the_same_bytes_and_unpack_to_their_hash(tmp_path):
    folder = tmp_path / "bot"
    (folder / "pkg").mkdir(parents=True)
    (folder / "bot.py").write_text(BOT)
    (folder / "pkg" / "data.bin").write_bytes(os.urandom(3 << 20))  # several chunks
    first, size, count = pack(folder)
    assert pack(folder) == (first, size, count)
    assert (size, count) == ((3 << 20) + len(BOT), 2)
    target = tmp_path / "out"
    target.mkdir()
    unpack(first, target)
    assert content_hash(target) == content_hash(folder)


def test_a_bots_folder_never_supplies_python_bytecode(tmp_path):
    """Bytecode in a bot's folder (a ``__pycache__`` the author left, one planted with an
    unchecked hash so it runs whatever the source says, or a bare ``.pyc``) is never read: the
    bot's modules are compiled from the sources its hash covers."""
    folder = tmp_path / "bot"
    folder.mkdir()
    for module in ("helper", "orphan"):
        (folder / f"{module}.py").write_text("print('planted')\n")
        py_compile.compile(
            str(folder / f"{module}.py"),
            cfile=cache_from_source(str(folder / f"{module}.py")),
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )
    (folder / "helper.py").write_text("print('from the source')\n")
    os.replace(cache_from_source(str(folder / "orphan.py")), folder / "orphan.pyc")
    (folder / "orphan.py").unlink()
    (folder / "bot.py").write_text(
        "import helper\ntry:\n    import orphan\nexcept ImportError:\n    print('no orphan')\n"
    )
    env = bot_env((), "unix:/nowhere", SandboxLimits())
    out = subprocess.run(
        [sys.executable, "-P", pyboot.__file__, "bot.py"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout == "from the source\nno orphan\n"


# ---------------------------------------------------------------------------------- bombs
def test_a_sparse_archive_is_refused_before_anything_is_written(store, tmp_path):
    """389 bytes that unpack to a gigabyte: GNU tar's sparse member."""
    bot = registered(store, tmp_path)
    src = tmp_path / "sparse"
    src.mkdir()
    with open(src / "bot.py", "wb") as f:
        f.truncate(GIB)
    bomb = tmp_path / "bomb.tgz"
    subprocess.run(
        ["tar", "--sparse", "--format=posix", "-czf", str(bomb), "-C", str(src), "bot.py"],
        check=True,
    )
    assert bomb.stat().st_size < 4096
    plant(store, bot.content_hash, bomb.read_bytes())
    result, other = materialised_elsewhere(tmp_path, "runner")
    assert result["error"] == "the archive holds a forbidden entry 'bot.py'"
    assert int(str(result["peak_kb"])) < PEAK_LIMIT_KB
    assert left_on_disk(other) == []


@pytest.mark.parametrize(
    ("header", "error"),
    [
        (
            large_header("bot.py", GIB),
            f"the archive: its files take {GIB} bytes (at most 64 MiB; "
            "set HEGEMON_BOT_MAX_BYTES to change)",
        ),
        (
            large_header("././@PaxHeader", GIB, tarfile.XHDTYPE),
            "the archive unpacks to more than the arena's limit for a bot",
        ),
    ],
    ids=["a member of a gigabyte", "a header of a gigabyte"],
)
def test_a_gzip_bomb_is_refused_in_bounded_memory(store, tmp_path, header, error):
    """About a megabyte of gzip that unpacks to a gigabyte of zeros."""
    bot = registered(store, tmp_path)
    plant(store, bot.content_hash, zero_bomb(header, GIB))
    result, other = materialised_elsewhere(tmp_path, "runner")
    assert result["error"] == error
    assert int(str(result["peak_kb"])) < PEAK_LIMIT_KB
    assert left_on_disk(other) == []


def test_adding_a_folder_with_a_sparse_gigabyte_is_refused_in_bounded_memory(home, tmp_path):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(BOT)
    with open(folder / "weights.bin", "wb") as f:
        f.truncate(GIB)
    hegemon = Path(sys.executable).with_name("hegemon")
    code = (
        "import subprocess\n"
        f"p = subprocess.run([{str(hegemon)!r}, 'bot', 'add', 'big', {str(folder)!r}],"
        " capture_output=True, text=True)\n"
        "result.update(code=p.returncode, out=p.stdout + p.stderr)\n"
    )
    result = measured(code, dict(os.environ))
    assert result["code"] != 0
    lines = str(result["out"]).strip().splitlines()
    assert len(lines) == 1, lines
    assert f"its files take {GIB + len(BOT)} bytes (at most 64 MiB" in lines[0]
    assert int(str(result["peak_kb"])) < PEAK_LIMIT_KB
    assert left_on_disk(home) == []


def test_a_folder_over_the_file_count_is_refused_while_it_is_walked(tmp_path, monkeypatch):
    monkeypatch.setenv("HEGEMON_BOT_MAX_FILES", "10")
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(BOT)
    for i in range(50):
        (folder / f"m{i}.py").write_text("")
    from hegemon.leaderboard.registry import find_source

    with pytest.raises(RegistryError, match="more than 10 files"):
        find_source(str(folder))


def test_the_arena_sets_its_own_limits(monkeypatch):
    monkeypatch.setenv("HEGEMON_BOT_MAX_BYTES", "2M")
    monkeypatch.setenv("HEGEMON_BOT_MAX_FILES", "7")
    assert FileLimits.from_env() == FileLimits(max_bytes=2 << 20, max_files=7)
    monkeypatch.setenv("HEGEMON_BOT_MAX_BYTES", "lots")
    with pytest.raises(RegistryError, match="HEGEMON_BOT_MAX_BYTES='lots': give a whole number"):
        FileLimits.from_env()


def test_a_bot_within_the_limits_round_trips_through_the_database(store, tmp_path, monkeypatch):
    bot = registered(store, tmp_path)
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "second"))
    from hegemon.leaderboard.registry import materialise

    folder = materialise(store, bot)
    assert content_hash(folder) == bot.content_hash
    assert paths.bot_dir(bot.content_hash) == folder
