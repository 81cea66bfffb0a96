"""The folder bot's own helper module."""

from hegemon.sdk import border_territories


def pick_strongest(view):
    return max(border_territories(view), key=lambda t: view.armies[t])
