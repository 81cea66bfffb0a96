"""A bot folder whose files are named like standard modules (random.py, json.py): they must
not hide the standard library, and its own helper module still imports
(tests/runner/test_bot_forms.py)."""

from helper import pick_strongest  # type: ignore[import-not-found]  # its own module

from hegemon.sdk import Bot, Place, run


class Folder(Bot):
    name = "pyfolder"

    def place(self, view, decision):
        return Place(((pick_strongest(view), decision.armies),))


if __name__ == "__main__":
    run(Folder())
