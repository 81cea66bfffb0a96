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

**Never fails.** ``f`` is computed exactly at any ``θ`` (a log-sum-exp per choice set, the
prior by ``logaddexp``; nothing clipped), so the line search sees every overshoot for what it
is and refuses it; a step moves no log-strength by more than :data:`_MAX_STEP`; the Newton
system is damped by a hair so a Hessian that rounds to singular (a bot far beyond everyone,
where ``σ(1 − σ)`` underflows) still gives a step; and a row the chord method has not settled
in :data:`_CHORD_STEPS` steps goes on with its own Hessian. Without ``u`` or ``v`` a bot that
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
    """The structure shared by all rows: the bots and their choice sets.

    The members of the choice sets are *entries* (``compiled.set_members``, set by set): a
    choice probability lives on an entry.
    """

    def __init__(self, compiled: Compiled):
        self.n = compiled.n_bots
        members, sets = compiled.set_members, compiled.member_set
        self._members, self._sets = members, sets
        self._sizes = np.bincount(sets, minlength=compiled.n_sets)
        self._starts = np.concatenate([[0], np.cumsum(self._sizes)[:-1]]).astype(np.int64)
        self._by_member = Segments(members, np.arange(members.size, dtype=np.int64), self.n)
        self.member_sums = Segments(members, sets, self.n)
        self._pairs: tuple[Segments, Ints, Ints] | None = None
        self.steps: Ints = np.zeros(0, dtype=np.int64)
        """Newton steps each row of the last :meth:`solve` took."""

    @property
    def hessian_cost(self) -> int:
        """Terms in one exact Hessian (``Σ_s |s|²`` plus the dense matrix)."""
        return int((self._sizes * self._sizes).sum()) + self.n * self.n

    def _pair_entries(self) -> tuple[Segments, Ints, Ints]:
        """For every (set, entry a, entry b) of one set, sorted by the Hessian cell of their
        bots: the set's sums (as a :class:`Segments` keyed by cell), and a's and b's entries
        in that order."""
        if self._pairs is None:
            empty = np.zeros(0, dtype=np.int64)
            rows_s, rows_a, rows_b = [empty], [empty], [empty]
            for k in np.unique(self._sizes):
                which = np.flatnonzero(self._sizes == k)
                block = self._starts[which][:, None] + np.arange(k)  # (sets, k) entries
                rows_s.append(np.repeat(which, k * k))
                rows_a.append(np.repeat(block, k, axis=1).ravel())
                rows_b.append(np.tile(block, (1, k)).ravel())
            s, a, b = (np.concatenate(x).astype(np.int64) for x in (rows_s, rows_a, rows_b))
            cell = self._members[a] * self.n + self._members[b]
            by_cell = Segments(cell, s, self.n * self.n)
            order = np.argsort(cell, kind="stable")
            self._pairs = (by_cell, a[order], b[order])
        return self._pairs

    # ----------------------------------------------------------------- one row block
    def objective(
        self, theta: Floats, wins: Floats, events: Floats, virtual: Floats
    ) -> tuple[Floats, Floats]:
        """``f`` per row, exactly, with the choice probability of every entry."""
        if self._members.size == 0:
            p = np.zeros((theta.shape[0], 0))
            data = np.zeros(theta.shape[0])
        else:
            at = theta[:, self._members]
            top = np.maximum.reduceat(at, self._starts, axis=1)
            z = np.exp(at - top[:, self._sets])
            sums = np.add.reduceat(z, self._starts, axis=1)
            p = z / sums[:, self._sets]
            data = (events * (top + np.log(sums))).sum(axis=1)
        u, v = virtual[:, 0], virtual[:, 1]
        prior = (u * _log_sigmoid(theta) + v * _log_sigmoid(-theta)).sum(axis=1)
        f = (wins * theta).sum(axis=1) - data + prior
        return f, p

    def gradient(
        self, theta: Floats, wins: Floats, events: Floats, virtual: Floats, p: Floats
    ) -> tuple[Floats, Floats]:
        """The gradient of ``f`` per row, and each bot's ``Σ_{s∋i} events_s p_si`` (the
        data's curvature diagonal)."""
        diagonal = self._by_member.sum(events[:, self._sets] * p)
        sig = np.exp(_log_sigmoid(theta))
        u, v = virtual[:, 0], virtual[:, 1]
        return wins - diagonal + u - (u + v) * sig, diagonal

    def neg_hessian(
        self, theta: Floats, events: Floats, virtual: Floats, p: Floats, diagonal: Floats
    ) -> Floats:
        """``−∇²f`` per row, ``(B, n, n)``."""
        by_cell, a, b = self._pair_entries()
        outer = np.zeros((theta.shape[0], self.n * self.n))
        if by_cell.source.size:
            terms = events[:, by_cell.source] * p[:, a] * p[:, b]
            outer[:, by_cell.present] = np.add.reduceat(terms, by_cell.starts, axis=1)
        curvature = np.exp(_log_sigmoid(theta) + _log_sigmoid(-theta))  # σ(1 − σ)
        h = -outer.reshape(-1, self.n, self.n)
        idx = np.arange(self.n)
        h[:, idx, idx] += diagonal + (virtual[:, 0] + virtual[:, 1]) * curvature
        return h

    def _newton(self, h: Floats, grad: Floats) -> Floats:
        """Solve ``h · step = grad`` per row, damped so a nearly singular ``h`` still gives a
        finite step."""
        idx = np.arange(self.n)
        scale = np.abs(h[:, idx, idx]).max(axis=1, keepdims=True)
        h[:, idx, idx] += _DAMPING * scale + 1e-300
        step: Floats = np.linalg.solve(h, grad[..., None])[..., 0]
        return step

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
        f, p = self.objective(theta, wins, events, virtual)
        active = np.arange(theta.shape[0])
        inverse = None if chord is None else np.linalg.inv(self._damped(chord))
        for iteration in range(max_iter):
            if active.size == 0:
                break
            th, a, c, d = theta[active], wins[active], events[active], virtual[active]
            grad, diagonal = self.gradient(th, a, c, d, p[active])
            if inverse is None or iteration >= _CHORD_STEPS:
                step = self._newton(self.neg_hessian(th, c, d, p[active], diagonal), grad)
            else:
                step = grad @ inverse
            biggest = np.abs(step).max(axis=1, keepdims=True)
            step *= np.minimum(1.0, _MAX_STEP / np.maximum(biggest, 1e-300))
            f_old = f[active]
            alpha, f[active], p[active] = self._line_search(th, step, f_old, p[active], a, c, d)
            theta[active] = th + alpha[:, None] * step
            self.steps[active] += 1
            stalls[active] += f[active] <= f_old
            moved = np.abs(alpha[:, None] * step).max(axis=1)
            active = active[(moved >= tol) & (stalls[active] < _STALLS)]
        return theta

    def _damped(self, h: Floats) -> Floats:
        out = h.copy()[None]
        idx = np.arange(self.n)
        out[:, idx, idx] += _DAMPING * np.abs(out[:, idx, idx]).max() + 1e-300
        damped: Floats = out[0]
        return damped

    def _line_search(
        self,
        theta: Floats,
        step: Floats,
        f: Floats,
        p: Floats,
        wins: Floats,
        events: Floats,
        virtual: Floats,
    ) -> tuple[Floats, Floats, Floats]:
        """Per row, the largest of 1, ½, ¼, … whose step does not lower ``f`` (0 if none
        does within 60 halvings: the row is at its maximum to rounding), with ``f`` and the
        choice probabilities there."""
        alpha = np.ones(theta.shape[0])
        f, p = f.copy(), p.copy()
        pending = np.arange(theta.shape[0])
        for _halving in range(60):
            cand = theta[pending] + alpha[pending, None] * step[pending]
            fc, pc = self.objective(cand, wins[pending], events[pending], virtual[pending])
            ok = fc >= f[pending] - 1e-12 * (1.0 + np.abs(f[pending]))
            done = pending[ok]
            f[done], p[done] = fc[ok], pc[ok]
            pending = pending[~ok]
            if pending.size == 0:
                return alpha, f, p
            alpha[pending] *= 0.5
        alpha[pending] = 0.0
        return alpha, f, p

    def neg_hessian_at(
        self, theta: Floats, wins: Floats, events: Floats, virtual: Floats
    ) -> Floats:
        """``−∇²f`` of every row at ``theta``."""
        _, p = self.objective(theta, wins, events, virtual)
        _, diagonal = self.gradient(theta, wins, events, virtual, p)
        return self.neg_hessian(theta, events, virtual, p, diagonal)
