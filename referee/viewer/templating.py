"""The viewer's own Jinja2 templates (``templates/``), escaped by default: a bot's name is
text wherever it is shown, whatever it holds. The site's templates include the viewer's body
from here (:data:`TEMPLATES_DIR`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"

_env = Environment(loader=FileSystemLoader(TEMPLATES_DIR), autoescape=True, auto_reload=False)


def fragment(template: str, **context: Any) -> Markup:
    """The viewer's ``template`` filled with ``context`` (escaped)."""
    return Markup(_env.get_template(template).render(**context))
