"""Maximum a-posteriori Plackett–Luce log-strengths for many data sets at once.

Row ``b`` of every array is one problem (the data, or one bootstrap resample) over the same
bots and choice sets. Each maximises, in log-strengths ``θ``,

    f_b(θ) = Σ_i wins_bi θ_i − Σ_s events_bs log Σ_{j∈s} e^{θ_j}
             + Σ_i [u_bi log σ(θ_i) + v_bi log σ(−θ_i)]

(``u_bi`` virtual wins and ``v_bi`` virtual losses against a reference of strength 1: the
prior; the fit's own has ``u = v = prior``, a bootstrap resample weights them at random).
``f_b`` is strictly concave, so Newton's method with a backtracking line search finds its one
maximum in a handful of steps. The exact Hessian costs ``Σ_s |s|²`` per row; for a big board
the Hessian of the full-data fit is used for every row instead (a chord method: a resample's
maximum lies close to the fit's, where the two Hessians barely differ).

**Never fails.** ``f`` is computed exactly at any ``θ`` (the strengths taken relative to the
strongest bot, a log-sum-exp; the prior by ``logaddexp``; nothing clipped), so the line
search sees every overshoot for what it is and refuses it; a step moves no log-strength by
more than :data:`_MAX_STEP`; the Newton system is damped by a hair so a Hessian that rounds
to singular (a bot far beyond everyone, where ``σ(1 − σ)`` underflows) still gives a step; a
row the chord method has not settled in :data:`_CHORD_STEPS` steps goes on with its own
Hessian; and a row whose steps no longer raise ``f`` stops. Without ``u`` or ``v`` a bot that
never lost or never won has no finite maximum, so the weights of the prior are floored at
:data:`_MIN_VIRTUAL`.
"""

from __future__ import annotations

import numpy as np

from .games import Compiled, Floats, Ints, Segments

_MAX_STEP = 3.0
"""Largest move of a log-strength in one Newton step (3 ≈ 520 Elo)."""

_DAMPING = 1e-10
"""Added to the Newton system's diagonal, relative to its largest entry."""

_CHORD_STEPS = 25
"""Chord steps after which a row still moving gets its own Hessian."""

_STALLS = 3
"""Steps that did not raise ``f`` after which a row stops: it is at its maximum to rounding
(a nearly flat maximum, as under a tiny prior, lets rounding noise in the gradient move the
point by more than ``tol`` for ever)."""

_MIN_VIRTUAL = 1e-9
"""Floor of a virtual win or loss weight (a Gamma draw of a small prior can round to 0)."""


def _log_sigmoid(x: Floats) -> Floats:
    """``log σ(x)`` without overflow."""
    out: Floats = -np.logaddexp(0.0, -x)
    return out


class Problem:
    """The structure shared by all rows: the bots and their choice sets."""

    def __init__(self, compiled: Compiled):
        self.n = compiled.n_bots
        members, sets = compiled.set_members, compiled.member_set
        self.set_sums = Segments(sets, members, compiled.n_sets)
        self.member_sums = Segments(members, sets, self.n)
        self._members, self._sizes = members, np.bincount(sets, minlength=compiled.n_sets)
        self._pairs: tuple[Segments, Ints, Ints] | None = None
        self.steps: Ints = np.zeros(0, dtype=np.int64)
        """Newton steps each row of the last :meth:`solve` took."""

    @property
    def hessian_cost(self) -> int:
        """Terms in one exact Hessian (``Σ_s |s|²`` plus the dense matrix)."""
        return int((self._sizes * self._sizes).sum()) + self.n * self.n

    def _pair_sums(self) -> tuple[Segments, Ints, Ints]:
        """For every (set, i, j) with i, j in the set, sorted by the Hessian cell i·n + j:
        the set's sums (as a :class:`Segments`), and i's and j's columns in that order."""
        if self._pairs is None:
            starts = np.concatenate([[0], np.cumsum(self._sizes)[:-1]]).astype(np.int64)
            empty = np.zeros(0, dtype=np.int64)
            rows_s, rows_i, rows_j = [empty], [empty], [empty]
            for k in np.unique(self._sizes):
                which = np.flatnonzero(self._sizes == k)
                block = self._members[starts[which][:, None] + np.arange(k)]  # (sets, k)
                rows_s.append(np.repeat(which, k * k))
                rows_i.append(np.repeat(block, k, axis=1).ravel())
                rows_j.append(np.tile(block, (1, k)).ravel())
            s, i, j = (np.concatenate(x).astype(np.int64) for x in (rows_s, rows_i, rows_j))
            by_cell = Segments(i * self.n + j, s, self.n * self.n)
            order = np.argsort(i * self.n + j, kind="stable")
            self._pairs = (by_cell, i[order], j[order])
        return self._pairs

    # ----------------------------------------------------------------- one row block
    def objective(
        self, theta: Floats, wins: Floats, events: Floats, virtual: Floats
    ) -> tuple[Floats, Floats, Floats]:
        """``f`` per row, exactly, with the strengths ``w`` and the set sums ``S`` it used, both
        relative to the row's strongest bot (``w = e^{θ − max θ}``, so nothing overflows).

        A row where some set's sum underflows (every member more than ~700 below the
        strongest: far beyond any maximum, see the module docstring) gets ``f = −∞``, which
        the line search refuses."""
        top = theta.max(axis=1, keepdims=True) if self.n else np.zeros((theta.shape[0], 1))
        w = np.exp(theta - top)
        sums = self.set_sums.sum(w)
        used = events > 0
        with np.errstate(divide="ignore"):
            logs = np.log(np.where(used, sums, 1.0))
        u, v = virtual[:, 0], virtual[:, 1]
        prior = (u * _log_sigmoid(theta) + v * _log_sigmoid(-theta)).sum(axis=1)
        data = (events * logs).sum(axis=1) + events.sum(axis=1) * top[:, 0]
        f = (wins * theta).sum(axis=1) - data + prior
        f[np.isinf(logs).any(axis=1)] = -np.inf
        return f, w, sums

    def gradient(
        self, theta: Floats, wins: Floats, events: Floats, virtual: Floats, w: Floats, sums: Floats
    ) -> tuple[Floats, Floats]:
        """The gradient of ``f`` per row, and ``w · Σ_{s∋i} events_s / S_s`` (the data's
        curvature diagonal)."""
        ratio = events / np.where(sums > 0, sums, 1.0)
        diagonal = w * self.member_sums.sum(ratio)
        sig = np.exp(_log_sigmoid(theta))
        u, v = virtual[:, 0], virtual[:, 1]
        return wins - diagonal + u - (u + v) * sig, diagonal

    def neg_hessian(
        self,
        theta: Floats,
        events: Floats,
        virtual: Floats,
        w: Floats,
        sums: Floats,
        diagonal: Floats,
    ) -> Floats:
        """``−∇²f`` per row, ``(B, n, n)``."""
        by_set, i, j = self._pair_sums()
        q = events / np.where(sums > 0, sums * sums, 1.0)
        outer = np.zeros((theta.shape[0], self.n * self.n))
        if by_set.source.size:
            terms = q[:, by_set.source] * w[:, i] * w[:, j]
            outer[:, by_set.present] = np.add.reduceat(terms, by_set.starts, axis=1)
        curvature = np.exp(_log_sigmoid(theta) + _log_sigmoid(-theta))  # σ(1 − σ)
        h = -outer.reshape(-1, self.n, self.n)
        idx = np.arange(self.n)
        h[:, idx, idx] += diagonal + (virtual[:, 0] + virtual[:, 1]) * curvature
        return h

    def _damp(self, h: Floats) -> Floats:
        """``h`` (rows of ``(n, n)``) with its diagonal raised by a hair, so a nearly
        singular matrix still gives a finite step."""
        idx = np.arange(self.n)
        h[:, idx, idx] += _DAMPING * np.abs(h[:, idx, idx]).max(axis=1, keepdims=True) + 1e-300
        return h

    def _newton(self, h: Floats, grad: Floats) -> Floats:
        """Solve the damped ``h · step = grad`` per row."""
        return np.linalg.solve(self._damp(h), grad[..., None])[..., 0].astype(np.float64)

    def solve(
        self,
        theta: Floats,
        wins: Floats,
        events: Floats,
        virtual: Floats,
        *,
        tol: float,
        max_iter: int,
        chord: Floats | None = None,
    ) -> Floats:
        """Maximise every row's ``f`` from the start ``theta`` (rows stop once no
        log-strength moves more than ``tol``). With ``chord`` (an ``(n, n)`` positive
        definite matrix) steps use it in place of each row's own Hessian.

        Returns the maxima.
        """
        theta = theta.copy()
        virtual = np.maximum(virtual, _MIN_VIRTUAL)
        self.steps = np.zeros(theta.shape[0], dtype=np.int64)
        stalls = np.zeros(theta.shape[0], dtype=np.int64)
        f, w, sums = self.objective(theta, wins, events, virtual)
        active = np.arange(theta.shape[0])
        inverse = None if chord is None else np.linalg.inv(self._damp(chord.copy()[None])[0])
        for iteration in range(max_iter):
            if active.size == 0:
                break
            th, a, c, d = theta[active], wins[active], events[active], virtual[active]
            grad, diagonal = self.gradient(th, a, c, d, w[active], sums[active])
            if inverse is None or iteration >= _CHORD_STEPS:
                h = self.neg_hessian(th, c, d, w[active], sums[active], diagonal)
                step = self._newton(h, grad)
            else:
                step = grad @ inverse
            biggest = np.abs(step).max(axis=1, keepdims=True)
            step *= np.minimum(1.0, _MAX_STEP / np.maximum(biggest, 1e-300))
            f_old = f[active]
            alpha, f[active], w[active], sums[active] = self._line_search(
                th, step, f_old, w[active], sums[active], a, c, d
            )
            theta[active] = th + alpha[:, None] * step
            self.steps[active] += 1
            stalls[active] += f[active] <= f_old
            moved = np.abs(alpha[:, None] * step).max(axis=1)
            active = active[(moved >= tol) & (stalls[active] < _STALLS)]
        return theta

    def _line_search(
        self,
        theta: Floats,
        step: Floats,
        f: Floats,
        w: Floats,
        sums: Floats,
        wins: Floats,
        events: Floats,
        virtual: Floats,
    ) -> tuple[Floats, Floats, Floats, Floats]:
        """Per row, the largest of 1, ½, ¼, … whose step does not lower ``f`` (0 if none
        does within 60 halvings: the row is at its maximum to rounding), with what
        :meth:`objective` gives there."""
        alpha = np.ones(theta.shape[0])
        f, w, sums = f.copy(), w.copy(), sums.copy()
        pending = np.arange(theta.shape[0])
        for _halving in range(60):
            cand = theta[pending] + alpha[pending, None] * step[pending]
            fc, wc, sc = self.objective(cand, wins[pending], events[pending], virtual[pending])
            ok = fc >= f[pending] - 1e-12 * (1.0 + np.abs(f[pending]))
            done = pending[ok]
            f[done], w[done], sums[done] = fc[ok], wc[ok], sc[ok]
            pending = pending[~ok]
            if pending.size == 0:
                return alpha, f, w, sums
            alpha[pending] *= 0.5
        alpha[pending] = 0.0
        return alpha, f, w, sums

    def neg_hessian_at(
        self, theta: Floats, wins: Floats, events: Floats, virtual: Floats
    ) -> Floats:
        """``−∇²f`` of every row at ``theta``."""
        _, w, sums = self.objective(theta, wins, events, virtual)
        _, diagonal = self.gradient(theta, wins, events, virtual, w, sums)
        return self.neg_hessian(theta, events, virtual, w, sums, diagonal)
