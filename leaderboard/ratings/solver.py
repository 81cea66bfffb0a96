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
"""

from __future__ import annotations

import numpy as np

from .games import Compiled, Floats, Ints, Segments

_EXP_LIMIT = 60.0  # |θ| beyond this is ±e^60 times the reference: no data can get there


class Problem:
    """The structure shared by all rows: the bots and their choice sets."""

    def __init__(self, compiled: Compiled):
        self.n = compiled.n_bots
        members, sets = compiled.set_members, compiled.member_set
        self.set_sums = Segments(sets, members, compiled.n_sets)
        self.member_sums = Segments(members, sets, self.n)
        self._members, self._sizes = members, np.bincount(sets, minlength=compiled.n_sets)
        self._pairs: tuple[Segments, Ints, Ints] | None = None

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
        """``f`` per row, with the strengths ``w`` and the set sums ``S`` it used."""
        w = np.exp(np.clip(theta, -_EXP_LIMIT, _EXP_LIMIT))
        sums = self.set_sums.sum(w)
        logs = np.log(np.where(events > 0, sums, 1.0))
        u, v = virtual[:, 0], virtual[:, 1]
        prior = -(u * np.logaddexp(0.0, -theta) + v * np.logaddexp(0.0, theta)).sum(axis=1)
        f = (wins * theta).sum(axis=1) - (events * logs).sum(axis=1) + prior
        return f, w, sums

    def gradient(
        self, theta: Floats, wins: Floats, events: Floats, virtual: Floats, w: Floats, sums: Floats
    ) -> tuple[Floats, Floats]:
        """The gradient of ``f`` per row, and ``w · Σ_{s∋i} events_s / S_s`` (the data's
        curvature diagonal)."""
        ratio = events / np.where(sums > 0, sums, 1.0)
        diagonal = w * self.member_sums.sum(ratio)
        sig = 1.0 / (1.0 + np.exp(-np.clip(theta, -_EXP_LIMIT, _EXP_LIMIT)))
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
        sig = 1.0 / (1.0 + np.exp(-np.clip(theta, -_EXP_LIMIT, _EXP_LIMIT)))
        h = -outer.reshape(-1, self.n, self.n)
        idx = np.arange(self.n)
        h[:, idx, idx] += diagonal + (virtual[:, 0] + virtual[:, 1]) * sig * (1.0 - sig)
        return h

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
        definite matrix) every step uses it in place of each row's own Hessian.

        Returns the maxima.
        """
        theta = theta.copy()
        f, w, sums = self.objective(theta, wins, events, virtual)
        active = np.arange(theta.shape[0])
        inverse = None if chord is None else np.linalg.inv(chord)
        for _ in range(max_iter):
            if active.size == 0:
                break
            th, a, c, d = theta[active], wins[active], events[active], virtual[active]
            grad, diagonal = self.gradient(th, a, c, d, w[active], sums[active])
            if inverse is None:
                h = self.neg_hessian(th, c, d, w[active], sums[active], diagonal)
                step = np.linalg.solve(h, grad[..., None])[..., 0]
            else:
                step = grad @ inverse
            # backtracking: halve the step of each row whose objective did not rise
            alpha = np.ones(active.size)
            pending = np.arange(active.size)
            f_old = f[active]
            new_f = np.empty(active.size)
            new_w = np.empty_like(th)
            new_s = np.empty((active.size, sums.shape[1]))
            for _halving in range(60):
                rows = active[pending]
                cand = th[pending] + alpha[pending, None] * step[pending]
                fc, wc, sc = self.objective(cand, wins[rows], events[rows], virtual[rows])
                ok = fc >= f_old[pending] - 1e-12 * (1.0 + np.abs(f_old[pending]))
                done = pending[ok]
                new_f[done], new_w[done], new_s[done] = fc[ok], wc[ok], sc[ok]
                pending = pending[~ok]
                if pending.size == 0:
                    break
                alpha[pending] *= 0.5
            else:  # no rise at any step size: the row is at its maximum to rounding
                alpha[pending] = 0.0
                keep = active[pending]
                new_f[pending], new_w[pending], new_s[pending] = f[keep], w[keep], sums[keep]
            moved = np.abs(alpha[:, None] * step).max(axis=1)
            theta[active] = th + alpha[:, None] * step
            f[active], w[active], sums[active] = new_f, new_w, new_s
            active = active[moved >= tol]
        return theta

    def neg_hessian_at(
        self, theta: Floats, wins: Floats, events: Floats, virtual: Floats
    ) -> Floats:
        """``−∇²f`` of every row at ``theta``."""
        _, w, sums = self.objective(theta, wins, events, virtual)
        _, diagonal = self.gradient(theta, wins, events, virtual, w, sums)
        return self.neg_hessian(theta, events, virtual, w, sums, diagonal)
