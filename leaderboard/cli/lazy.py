"""A command group that imports a command's module only when that command runs or shows its
help, so ``hegemon --help`` loads none of them.

The group lists its commands from a table of ``(name, "module:attribute", short help)``. Until a
command is needed it is a stub carrying only its name and short help (what the group's own help
lists); asking for it by name (to run it, or for its ``--help``) imports the module and builds the
real command. ``tests/cli/test_cli_startup.py`` checks that each short help agrees with the
command's
own docstring.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

LazyCommand = tuple[str, str, str]
"""``(name, "package.module:attribute", short help)``; the attribute is a command function or a
:class:`typer.Typer` sub-app."""


def load(name: str, target: str, package: str, markup: Any) -> Any:
    """The real click command of ``target`` (``module:attribute``, relative to ``package``),
    its help formatted in the root's ``markup`` mode."""
    from typer.main import get_command

    module_name, attribute = target.split(":")
    found = getattr(import_module(module_name, package), attribute)
    if isinstance(found, typer.Typer):
        found.rich_markup_mode = markup
        command = get_command(found)
    else:
        single = typer.Typer(add_completion=False, rich_markup_mode=markup)
        single.command(name)(found)
        command = get_command(single)
    command.name = name
    return command


class LazyGroup(TyperGroup):
    """A :class:`TyperGroup` whose commands come from :attr:`lazy_commands`, loaded on use."""

    lazy_commands: tuple[LazyCommand, ...] = ()
    package = __package__

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self._targets = {name: target for name, target, _ in self.lazy_commands}
        self._listing = False
        for name, _, short in self.lazy_commands:
            self.commands[name] = TyperCommand(name, help=short, short_help=short)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        target = self._targets.get(cmd_name)
        if target is not None and not self._listing:
            self.commands[cmd_name] = load(cmd_name, target, self.package, self.rich_markup_mode)
            del self._targets[cmd_name]
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True  # the list of commands needs only their names and short help
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False
