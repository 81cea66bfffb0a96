"""``hegemon doctor``: what protection this machine gives a bot, and how to get more."""

from __future__ import annotations

import typer

from .common import console


def doctor_command() -> None:
    """Check bubblewrap, the uid pool, seccomp, cgroups and the fallback; say which mechanism
    bounds and freezes each bot here. Exits 1 when a check fails (its line says the fix)."""
    from hegemon.referee.runner.sandbox import doctor

    checks = doctor.report()
    console.print(doctor.render(checks), highlight=False, markup=False, soft_wrap=True)
    if not all(check.ok for check in checks):
        raise typer.Exit(1)
