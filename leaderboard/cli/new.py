"""``hegemon new NAME [--lang python|node|go]``: a starter bot folder that plays, is tested and
passes ``hegemon bot check`` as created.

Python: ``bot.py`` (a small working bot), ``test_bot.py`` (whole games against the sample bots
in-process, :func:`hegemon.sdk.play_local`), ``README.md`` and a ``pyproject.toml`` that makes
the folder pytest's root; from the templates in ``hegemon/leaderboard/templates/python``.
Node: the JavaScript sample bot (``sample_bots/node``) renamed, with its own copy of
``bot.proto`` so that it runs from anywhere, and its packages installed (``npm ci``) when npm
can.
Go: ``main.go`` (a bot that answers from the referee's legal answers), ``build.sh`` (stubs
generated from its own copy of ``bot.proto``, then the executable ``bot`` the referee runs),
``go.mod`` and a ``README.md``, from ``hegemon/leaderboard/templates/go``; built when Go and
protoc are installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from string import Template

import typer

from ..seasons.setup import suggest
from .common import console, fail

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")
LANGUAGES = ("python", "node", "go")
GO_TOOLS = ("go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc")


def class_name(name: str) -> str:
    """``my-bot`` → ``MyBot``: the bot's class in ``bot.py``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_]", name) if part)


def python_bot(name: str) -> str:
    """The starter ``bot.py``: the docs' minimal bot (``hegemon.sample_bots.minimal``, which the
    tests play on every preset), under the new bot's name and class, after the template's
    opening docstring."""
    from hegemon.sample_bots import minimal

    source = Path(minimal.__file__).read_text(encoding="utf-8")
    body = source[source.index("from hegemon.sdk") :]
    cls = class_name(name)
    renamed = (
        body.replace("class Minimal(Bot):", f"class {cls}(Bot):")
        .replace('    name = "minimal"\n', f'    name = "{name}"\n    version = "0.1"\n')
        .replace("run(Minimal())", f"run({cls}())")
    )
    if "Minimal" in renamed or f'name = "{name}"' not in renamed:
        raise RuntimeError("sample_bots/minimal.py no longer has the shape hegemon new renames")
    header = (TEMPLATES / "python" / "bot.py.head").read_text(encoding="utf-8")
    return Template(header).substitute(name=name) + "\n" + renamed


def write_python(folder: Path, name: str) -> list[str]:
    """The Python starter files in ``folder``: ``bot.py`` and the templates; their names."""
    values = {"name": name, "class_name": class_name(name)}
    (folder / "bot.py").write_text(python_bot(name), encoding="utf-8")
    written = ["bot.py"]
    for template in sorted((TEMPLATES / "python").glob("*.tmpl")):
        target = folder / template.name.removesuffix(".tmpl")
        target.write_text(Template(template.read_text(encoding="utf-8")).substitute(values))
        written.append(target.name)
    return sorted(written)


def protocol_file(lang: str) -> Path:
    """hegemon's ``bot.proto``, which a bot in another language copies; a one-line failure
    when this installation has none."""
    from hegemon.referee.runner.sandbox.binds import project_root

    proto = project_root() / "protos" / "hegemon" / "v1" / "bot.proto"
    if not proto.is_file():
        fail(f"cannot find the protocol file bot.proto (a {lang} bot needs hegemon's source tree)")
    return proto


def write_node(folder: Path, name: str) -> list[str]:
    """The JavaScript starter files in ``folder``: the sample bot, renamed, reading its own
    copy of the protocol; their names."""
    from hegemon.leaderboard.botspec import NODE_SAMPLE

    sample = NODE_SAMPLE  # the sample bot's folder
    for file in ("health.proto", "package-lock.json"):
        shutil.copy(sample / file, folder / file)
    readme = (TEMPLATES / "node" / "README.md.tmpl").read_text(encoding="utf-8")
    (folder / "README.md").write_text(Template(readme).substitute(name=name), encoding="utf-8")
    shutil.copy(protocol_file("node"), folder / "bot.proto")
    script = (sample / "bot.js").read_text(encoding="utf-8")
    script = script.replace("'node-sample'", repr(name)).replace(
        "path.resolve(__dirname, '..', '..', 'protos', 'hegemon', 'v1', 'bot.proto')",
        "path.resolve(__dirname, 'bot.proto')",
    )
    (folder / "bot.js").write_text(script, encoding="utf-8")
    package = (sample / "package.json").read_text(encoding="utf-8")
    (folder / "package.json").write_text(
        package.replace('"hegemon-sample-bot-node"', f'"{name.lower()}"'), encoding="utf-8"
    )
    return ["bot.js", "bot.proto", "health.proto", "package.json", "package-lock.json", "README.md"]


def npm_install(folder: Path) -> str:
    """Install the node bot's packages (offline from npm's cache first); what happened."""
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not installed: run `npm ci` in the folder once it is"
    for extra in (["--offline"], []):
        done = subprocess.run(
            [npm, "ci", "--silent", "--no-audit", "--no-fund", *extra],
            cwd=folder,
            capture_output=True,
            check=False,
            text=True,
        )
        if done.returncode == 0:
            return "packages installed (npm ci)"
    return f"`npm ci` failed; run it in the folder: {done.stderr.strip()[-200:]}"


def write_go(folder: Path, name: str) -> list[str]:
    """The Go starter files in ``folder``: the kit of ``templates/go`` under the bot's name,
    with its own copy of the protocol; their names."""
    kit = TEMPLATES / "go"
    shutil.copy(protocol_file("go"), folder / "bot.proto")
    shutil.copy(kit / "go.mod", folder / "go.mod")
    shutil.copy(kit / "build.sh", folder / "build.sh")
    (folder / "build.sh").chmod(0o755)  # an installed wheel may not keep the bit
    source = (kit / "main.go").read_text(encoding="utf-8")
    renamed = source.replace('botName    = "go-starter"', f'botName    = "{name}"')
    if renamed == source:
        raise RuntimeError("templates/go/main.go no longer has the shape hegemon new renames")
    (folder / "main.go").write_text(renamed, encoding="utf-8")
    readme = (kit / "README.md.tmpl").read_text(encoding="utf-8")
    (folder / "README.md").write_text(Template(readme).substitute(name=name), encoding="utf-8")
    return ["README.md", "bot.proto", "build.sh", "go.mod", "main.go"]


def go_build(folder: Path) -> tuple[bool, str]:
    """Build the Go bot (its ``build.sh``) when the tools are installed: whether it was built,
    and what happened."""
    missing = [tool for tool in GO_TOOLS if shutil.which(tool) is None]
    if missing:
        return False, f"not built: {', '.join(missing)} not installed (see README.md)"
    done = subprocess.run(["./build.sh"], cwd=folder, capture_output=True, check=False, text=True)
    if done.returncode == 0:
        return True, "built ./bot (./build.sh)"
    return False, f"./build.sh failed: {done.stderr.strip()[-300:]}"


def new_command(
    name: str = typer.Argument(..., help="The bot's name; also the folder's, unless --dir."),
    lang: str = typer.Option("python", "--lang", help="python, node or go."),
    directory: Path | None = typer.Option(
        None, "--dir", help="Where to create the bot (default: ./NAME).", show_default=False
    ),
) -> None:
    """Create a starter bot folder: a working bot, a test, a README. It passes
    `hegemon bot check` as created."""
    if not NAME.match(name):
        fail(f"'{name}' is not a bot name: a letter, then up to 39 letters, digits, '-' or '_'")
    if lang not in LANGUAGES:
        fail(
            f"--lang must be one of {', '.join(LANGUAGES)}; got '{lang}'{suggest(lang, LANGUAGES)}"
        )
    folder = directory or Path(name)
    if folder.exists() and any(folder.iterdir()):
        fail(f"{folder} exists and is not empty: choose another NAME or --dir")
    folder.mkdir(parents=True, exist_ok=True)
    if lang == "python":
        files = write_python(folder, name)
        steps = ["python -m pytest", "hegemon bot check ."]
    elif lang == "node":
        files = write_node(folder, name)
        console.print(npm_install(folder), highlight=False)
        steps = ["hegemon bot check ."]
    else:
        files = write_go(folder, name)
        built, said = go_build(folder)
        console.print(said, highlight=False)
        steps = ["hegemon bot check ."] if built else ["./build.sh", "hegemon bot check ."]
    console.print(f"created {folder}/: {', '.join(files)}", highlight=False)
    console.print(f"next: cd {folder} && " + " && ".join(steps), highlight=False)
