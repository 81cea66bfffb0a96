"""A learning curve as a PNG, drawn with pillow (no plotting library needed).

:func:`draw_curve` plots one or more series of ``(x, y)`` points on shared axes — e.g. the
learner's win rate and mean score against games played — with the axis ranges labelled, a
legend, and each series smoothed by a moving average so that a trend shows through the noise of
small batches.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from PIL import Image, ImageDraw

__all__ = ["draw_curve", "moving_average", "ticks"]

COLOURS = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189))
WIDTH, HEIGHT, MARGIN = 720, 420, 56


def moving_average(values: Sequence[float], window: int) -> list[float]:
    """The mean of each value and up to ``window - 1`` values before it.

    >>> moving_average([0, 2, 4, 6], 2)
    [0.0, 1.0, 3.0, 5.0]
    """
    out, total = [], 0.0
    for i, v in enumerate(values):
        total += v
        if i >= window:
            total -= values[i - window]
        out.append(total / min(i + 1, window))
    return out


def ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round values from ``low`` to ``high`` for an axis: steps of 1, 2 or 5 times a power of
    ten, at most ``most`` + 1 of them.

    >>> ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> ticks(0, 1300)
    [0.0, 500.0, 1000.0]
    """
    span = high - low
    if span <= 0:
        return [float(low)]
    power = 10 ** math.floor(math.log10(span / most))
    step = next(m * power for m in (1, 2, 5, 10) if span / (m * power) <= most)
    values, k = [], math.ceil(low / step - 1e-9)
    while k * step <= high + 1e-9 * step:
        values.append(float(round(k * step, 10)))
        k += 1
    return values


def draw_curve(
    series: Mapping[str, Sequence[tuple[float, float]]],
    path: str | Path,
    title: str,
    x_label: str,
    y_range: tuple[float, float] = (-1.0, 1.0),
    window: int = 5,
    y_label: str = "",
) -> Path:
    """Write the PNG of ``series`` (name → points) to ``path``; returns the path. Both axes
    have a labelled tick at every round step (:func:`ticks`); ``window`` 1 draws the points
    as they are."""
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = MARGIN, MARGIN // 2 + 8, WIDTH - MARGIN // 2, HEIGHT - MARGIN
    points = [p for s in series.values() for p in s]
    x_max = max((x for x, _ in points), default=1.0) or 1.0
    y_low, y_high = y_range

    def at(x: float, y: float) -> tuple[float, float]:
        y = min(max(y, y_low), y_high)
        return (
            left + (right - left) * x / x_max,
            bottom - (bottom - top) * (y - y_low) / (y_high - y_low),
        )

    draw.rectangle((left, top, right, bottom), outline="black")
    for x in ticks(0.0, x_max):  # a grid line and a label at every tick of both axes
        draw.line((*at(x, y_low), *at(x, y_high)), fill=(230, 230, 230))
        label = f"{x:g}"
        draw.text((at(x, y_low)[0] - 3 * len(label), bottom + 6), label, fill="black")
    for y in ticks(y_low, y_high):
        draw.line((*at(0, y), *at(x_max, y)), fill=(230, 230, 230))
        draw.text((8, at(0, y)[1] - 6), f"{y:g}", fill="black")
    if y_low < 0 < y_high:  # the zero line: better than even, or worse
        draw.line((*at(0, 0), *at(x_max, 0)), fill=(160, 160, 160))
    draw.rectangle((left, top, right, bottom), outline="black")
    draw.text((left, 8), title, fill="black")
    draw.text(((left + right) // 2 - 3 * len(x_label), bottom + 24), x_label, fill="black")
    if y_label:
        draw.text((8, 8 + 12), y_label, fill="black")
    for i, (name, data) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        smooth = moving_average([y for _, y in data], window)
        line = [at(x, y) for (x, _), y in zip(data, smooth, strict=True)]
        if len(line) > 1:
            draw.line(line, fill=colour, width=2)
        elif line:
            x, y = line[0]
            draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=colour)
        key = top + 12 + 14 * i
        draw.line((left + 10, key, left + 26, key), fill=colour, width=2)
        draw.text((left + 32, key - 6), name, fill=colour)
    path = Path(path)
    image.save(path)
    return path
