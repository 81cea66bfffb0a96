"""A bot whose words are hostile to whoever shows them (for tests/runner/test_bot_text.py): its
Hello
name and the message of the exception it raises carry a terminal escape, NUL, a right-to-left
override, rich markup and ``<!--<script>`` (which would stop a page's script from running)."""

from hegemon.sdk import Bot, run

HOSTILE = "\x1b[2J\x1b]0;owned\x07<!--<script>\u202e[bold red]x[/]\x00&amp;</script>"


class HostileText(Bot):
    name = "hostile " + HOSTILE
    decisions = 0

    def decide(self, view, decision):
        self.decisions += 1
        if self.decisions == 3:
            raise RuntimeError(HOSTILE)
        return super().decide(view, decision)


if __name__ == "__main__":
    run(HostileText())
