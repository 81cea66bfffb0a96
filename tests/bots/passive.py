"""A bot that never attacks: every answer is the SDK's default (it places, passes and never
fortifies). Three of them never end a game whose rules set no round limit, but for the
referee's backstops (issue 32)."""

from hegemon.sdk import Bot, run


class Passive(Bot):
    name = "passive"


if __name__ == "__main__":
    run(Passive())
