"""Names that people read: when two user or bot names are the same name to a reader.

Two names collide when their *skeletons* are equal. The skeleton follows Unicode TS #39
("confusable detection"): the name in NFKC, case folded, each character that looks like another
replaced by that one's prototype (``0`` → ``o``; ``1``, ``i`` and ``|`` → ``l``, since a
capital ``I`` is a small ``l`` to the eye; ``rn`` → ``m``, …), and NFKC again. So ``RANDOM``,
``rand0m`` and ``Random`` are all ``random``, and ``p1anner`` is ``planner``.

The table below is a small one: names are ASCII letters, digits, ``_``, ``.`` and ``-``
(:data:`NAME`), so it holds the look-alikes among those. A name taken before this rule keeps
working; only a *new* name is refused beside an existing one with the same skeleton.
"""

from __future__ import annotations

import re
import unicodedata

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""What a user or bot name may be, matched against the whole (stripped) string."""

# On the folded text: single characters, then the letter pairs TS #39 lists as one letter's
# look-alike. i goes with l because a folded capital I (which looks like l) is i.
_CHARACTERS = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "!": "l"})
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def is_name(text: str) -> bool:
    """Whether ``text``, exactly as given, is a possible name (no stray space or newline)."""
    return NAME.fullmatch(text) is not None


def skeleton(name: str) -> str:
    """The form of ``name`` that every look-alike of it shares (see the module's docstring)."""
    text = unicodedata.normalize("NFKC", name).casefold().translate(_CHARACTERS)
    for pair, letter in _PAIRS:
        text = text.replace(pair, letter)
    return unicodedata.normalize("NFKC", text)
