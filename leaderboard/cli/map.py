"""``hegemon map compose|show``: Risiko! Master worlds composed from tiles (seed 003)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from .common import console, fail

map_app = typer.Typer(
    name="map",
    help="Compose Risiko! Master worlds from tiles, and draw maps.",
    no_args_is_help=True,
    add_completion=False,
)


@map_app.command("compose")
def compose_command(
    tiles: str | None = typer.Option(
        None,
        "--tiles",
        help="Six tile names, west to east and north to south, e.g. "
        "'Delta,Tau,Epsilon,Omega,Alfa,Sigma' (default: drawn from --seed).",
    ),
    players: int = typer.Option(..., "--players", min=3, max=6, help="Players in the game."),
    seed: int = typer.Option(
        0, "--seed", help="Seed that draws the tiles when --tiles is not given."
    ),
    columns: int = typer.Option(3, "--columns", min=2, max=6, help="Tiles in each row."),
    out: Path | None = typer.Option(None, "--out", help="Write the map file here."),
) -> None:
    """Lay six tiles into a world and check it (matching borders, a territory count that is a
    multiple of the players); print the layout and the map's name for `--option map=...`."""
    from hegemon.referee.board import MapError
    from hegemon.referee.compose import compose, draw_layout, layout_of

    try:
        if tiles:
            layout = layout_of([t.strip() for t in tiles.split(",")], columns)
        else:
            layout = draw_layout(seed, players, columns)
        composed = compose(layout, players)
    except MapError as exc:
        fail(f"refused: {exc}")
    board = composed.board
    width = max(len(n) for row in layout.rows for n in row) + 2
    for row in layout.rows:
        console.print("".join(f"{n:<{width}}" for n in row), highlight=False)
    console.print(
        f"{board.size} territories, total value {board.total_value()}, "
        f"{len(board.borders())} borders ({len(composed.data['sea_borders'])} by sea)",
        highlight=False,
    )
    console.print(f"map: {layout.spec}", highlight=False, soft_wrap=True)
    if out is not None:
        out.write_text(json.dumps(composed.data, indent=1, ensure_ascii=False) + "\n", "utf-8")
        console.print(f"wrote {out}", highlight=False)


@map_app.command("show")
def show_command(
    map_name: str = typer.Argument(
        ..., metavar="MAP", help="A map file written by `map compose`, or a map's name."
    ),
    png: Path = typer.Option(..., "--png", help="Write the picture here (PNG)."),
) -> None:
    """Draw a composed world: tiles, territories with code and value, borders and sea links."""
    from hegemon.referee.board import MapError
    from hegemon.referee.compose import compose, parse_spec

    from ..mapdraw import draw_png

    name = map_name
    path = Path(map_name)
    if path.is_file():
        try:
            name = json.loads(path.read_text("utf-8"))["name"]
        except (ValueError, KeyError, TypeError):
            fail(f"{path}: not a map file written by `hegemon map compose`")
    try:
        composed = compose(parse_spec(name))
    except MapError as exc:
        fail(str(exc))
    draw_png(composed, png)
    console.print(f"wrote {png}", highlight=False)
