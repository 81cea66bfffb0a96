"""Several single-seat environments as one Gymnasium vector environment, batched over processes.

>>> from hegemon.env import vector
>>> envs = vector(4, "classic", ["random", "random"], options={"turn_limit": 2}, workers=2)
>>> obs, infos = envs.reset(seed=1)
>>> obs["observation"].shape[0], obs["action_mask"].shape[0]
(4, 4)
>>> envs.close()

Gymnasium's ``AsyncVectorEnv`` gives each copy a process and, at every step, pickles each
copy's action to it and its observation and info back through a pipe, and copies every
observation again: on a learning step of ~170 µs of CPU that traffic and the wake-ups cost about
as much again (one or two copies: ~350 µs a step, parent and worker together). Here,
as EnvPool and Sample Factory do, each worker process holds several copies and steps them all
on one message; actions, observations, masks, rewards and end flags live in one shared memory
block the parent and the workers read and write in place, so a step's messages are one byte
out and, unless a copy has an info, one byte back (infos, rare here — an illegal index, the
place at an episode's end — travel pickled, only when there are some). With 8 copies a worker
a step costs within ~10% of the single environment's CPU.

Two things keep both cores busy. A worker runs on a core of its own when the workers fill the
machine's cores (``pin``): a copy's game runs in a thread beside the worker's main one, and
the two hand each step over to each other; on one core that hand-over is a switch on the spot,
across two it wakes a sleeping core twice a step (on a virtual machine, tens of µs each, and
some CPU). And ``groups`` splits the copies into groups stepped apart
(``step_async(actions, group)``, then ``step_wait(group)`` or ``step_wait_any()``), each one
worker's when there are as many groups as workers or more: a learner that serves each group
(chooses and sends its actions) as soon as it is done, with two groups a worker, keeps every
worker busy — while the learner chooses one group's actions the worker steps its other group,
and no worker waits for another whose copies played longer turns at that step (with one
group, every step waits for the slower worker: at 8 copies a worker its step took 1.34 times
the mean). This is Sample Factory's double buffering, EnvPool's ``send`` and ``recv``.

The vector API is Gymnasium's (``reset``, ``step``, ``call``, ``get_attr``, ``set_attr``,
``render``, ``close``; ``step_async`` and ``step_wait`` as ``AsyncVectorEnv``'s, a group
besides), with its default autoreset (``AutoresetMode.NEXT_STEP``): the step after
a copy's episode ends resets it (that step's action is ignored; its reward is 0, its flags
False, its info the reset's). Seeds follow ``AsyncVectorEnv``'s: ``reset(seed=s)`` seeds copy
``i`` with ``s + i``. An exception in a worker closes the environment and is raised in the
parent; a worker that dies (killed, out of memory) is reported in one line.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection, wait
from typing import Any, Literal, NoReturn, cast, overload

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from hegemon.referee.rules import RuleSet

from .single_agent import HegemonSingle

STEP = ord("s")
"""The step message is this byte and the group's: each worker steps its copies of the group on
their actions in the shared block."""
NOTHING, ANSWER, FAILED = b".", b"a", b"!"
"""A worker's reply starts with one of these: nothing to tell (a step without infos), an
answer (pickled after it), its copies raised (the exception pickled after it)."""


class VectorWorkerError(RuntimeError):
    """A worker process of the vector environment died or answered nothing."""


@dataclass(frozen=True)
class Shape:
    """The sizes of the shared block: copies, observation features and actions."""

    copies: int
    features: int
    actions: int

    @property
    def fields(self) -> tuple[tuple[str, np.dtype[Any], tuple[int, ...]], ...]:
        """(name, dtype, shape) of each array in the block, in order."""
        n = self.copies
        return (
            ("observation", np.dtype(np.float32), (n, self.features)),
            ("action_mask", np.dtype(np.int8), (n, self.actions)),
            ("actions", np.dtype(np.int64), (n,)),
            ("rewards", np.dtype(np.float64), (n,)),
            ("terminated", np.dtype(np.bool_), (n,)),
            ("truncated", np.dtype(np.bool_), (n,)),
        )

    def size(self) -> int:
        """Bytes of the block (each array starts on an 8-byte boundary)."""
        return sum(
            _aligned(dtype.itemsize * int(np.prod(shape))) for _, dtype, shape in self.fields
        )

    def arrays(self, block: Any) -> dict[str, np.ndarray]:
        """Numpy views of ``block`` (a shared buffer of :meth:`size` bytes), by name."""
        views, offset = {}, 0
        for name, dtype, shape in self.fields:
            count = int(np.prod(shape))
            views[name] = np.frombuffer(block, dtype, count, offset).reshape(shape)
            offset += _aligned(dtype.itemsize * count)
        return views


def _aligned(size: int) -> int:
    return (size + 7) // 8 * 8


@dataclass(frozen=True)
class Share:
    """What one worker holds: its rows of each group (a contiguous part of the group, or none),
    and the core it runs on (None: wherever the system puts it)."""

    parts: tuple[range, ...]
    core: int | None

    @property
    def rows(self) -> list[int]:
        """Its rows, group by group (the order its copies answer ``call`` in)."""
        return [row for part in self.parts for row in part]


def _worker(
    conn: Connection, make: Callable[[], HegemonSingle], share: Share, shape: Shape, block: Any
) -> None:
    """A worker process: its copies, its ``share`` of the rows of the shared block, answer the
    parent's messages until it says close (or goes away)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if share.core is not None:
        try:  # (the copies' game threads, started later, inherit it)
            os.sched_setaffinity(0, {share.core})
        except OSError:  # not allowed here: run unpinned
            pass
    shared = shape.arrays(block)
    envs: list[HegemonSingle] = []
    try:
        envs.extend(make() for _ in share.rows)
        _serve(conn, envs, share, shared)
    except (EOFError, BrokenPipeError, ConnectionResetError):  # the parent went away
        pass
    except BaseException as exc:
        _send_error(conn, exc)
    finally:
        for env in envs:
            env.close()


def _serve(
    conn: Connection, envs: list[HegemonSingle], share: Share, shared: dict[str, np.ndarray]
) -> None:
    """Answer messages until close: steps (the hot path, no pickling) and other commands."""
    rows = share.rows
    groups, first = [], 0  # each group's copies and rows
    for part in share.parts:
        groups.append((envs[first : first + len(part)], part))
        first += len(part)
    ended = dict.fromkeys(rows, False)  # the copy's episode ended: its next step resets it
    while True:
        message = conn.recv_bytes()
        if message[0] == STEP:
            infos = _step(*groups[message[1]], ended, shared)
            conn.send_bytes(ANSWER + pickle.dumps(infos) if infos else NOTHING)
            continue
        command, argument = pickle.loads(message)
        answer: Any = None
        if command == "close":
            return
        if command == "reset":
            answer = _reset(envs, rows, ended, shared, *argument)
        elif command == "call":
            name, args, kwargs = argument
            answer = [_call(env, name, args, kwargs) for env in envs]
        elif command == "set":
            name, values = argument
            for env, row in zip(envs, rows, strict=True):
                env.set_wrapper_attr(name, values[row])
        conn.send_bytes(ANSWER + pickle.dumps(answer))


def _step(
    envs: list[HegemonSingle],
    rows: Sequence[int],
    ended: dict[int, bool],
    shared: dict[str, np.ndarray],
) -> list[tuple[int, dict[str, Any]]]:
    """Step each copy on its action in the shared block (or reset it, its episode having
    ended) and write what it returns there; the copies' infos that are not empty."""
    actions, rewards = shared["actions"], shared["rewards"]
    terminated, truncated = shared["terminated"], shared["truncated"]
    infos: list[tuple[int, dict[str, Any]]] = []
    for env, row in zip(envs, rows, strict=True):
        if ended[row]:
            obs, info = env.reset()
            reward, done, cut = 0.0, False, False
        else:
            obs, reward, done, cut, info = env.step(int(actions[row]))
        ended[row] = done or cut
        _write(shared, row, obs)
        rewards[row], terminated[row], truncated[row] = reward, done, cut
        if info:
            infos.append((row, info))
    return infos


def _reset(
    envs: list[HegemonSingle],
    rows: Sequence[int],
    ended: dict[int, bool],
    shared: dict[str, np.ndarray],
    seeds: list[Any],
    options: dict[str, Any] | None,
    chosen: list[bool],
) -> list[tuple[int, dict[str, Any]]]:
    """Reset the ``chosen`` copies, each with its seed; their infos that are not empty."""
    infos = []
    for env, row in zip(envs, rows, strict=True):
        if chosen[row]:
            obs, info = env.reset(seed=seeds[row], options=options)
            ended[row] = False
            _write(shared, row, obs)
            if info:
                infos.append((row, info))
    return infos


def _write(shared: dict[str, np.ndarray], row: int, obs: dict[str, np.ndarray]) -> None:
    shared["observation"][row] = obs["observation"]
    shared["action_mask"][row] = obs["action_mask"]


def _call(env: HegemonSingle, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    attribute = env.get_wrapper_attr(name)
    return attribute(*args, **kwargs) if callable(attribute) else attribute


def _send_error(conn: Connection, exc: BaseException) -> None:
    """Tell the parent what went wrong (the exception itself when it pickles)."""
    try:
        payload = pickle.dumps(exc)
    except Exception:
        payload = pickle.dumps(RuntimeError(f"{type(exc).__name__}: {exc}"))
    try:
        conn.send_bytes(FAILED + payload)
    except OSError:  # the parent went away
        pass


class _Infos(VectorEnv[Any, Any, Any]):
    """Gymnasium's batching of infos (``VectorEnv._add_info``) for a group of ``num_envs``
    copies."""

    def __init__(self, num_envs: int):
        self.num_envs = num_envs


Step = tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]
"""What a step returns: observations, rewards, terminated and truncated flags, infos."""


class HegemonVector(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """``make()``'s environments, ``copies`` of them, stepped by ``workers`` processes, in
    ``groups`` that can be stepped apart (each one worker's when there are as many groups as
    workers or more, else spread over every worker), each worker pinned to a core when ``pin``
    (default: when the workers fill the cores); see the module's doc."""

    def __init__(
        self,
        make: Callable[[], HegemonSingle],
        copies: int,
        workers: int | None = None,
        *,
        groups: int = 1,
        pin: bool | None = None,
        context: str | None = None,
    ):
        if copies < 1:
            raise ValueError(f"a vector environment needs at least one copy, not {copies}")
        if workers is not None and workers < 1:
            raise ValueError(f"a vector environment needs at least one worker, not {workers}")
        if not 1 <= groups <= min(copies, 255):
            raise ValueError(f"{groups} groups: from 1 to the copies ({copies}), at most 255")
        self.groups = [range(first, first + n) for first, n in _shares(copies, groups)]
        """The copies of each group (contiguous)."""
        cpus = _cpus()
        workers = min(copies, workers or len(cpus))
        sample = make()  # the spaces (and the arguments checked here, in one line)
        try:
            self.single_observation_space = sample.observation_space
            self.single_action_space = sample.action_space
            self.metadata = {**sample.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
            self.render_mode = sample.render_mode
            space, choices = sample.observation_space, sample.action_space
            assert isinstance(space, gymnasium.spaces.Dict)
            assert isinstance(choices, gymnasium.spaces.Discrete)
            features, actions = gymnasium.spaces.flatdim(space["observation"]), int(choices.n)
        finally:
            sample.close()
        self.num_envs = copies
        self.observation_space = batch_space(self.single_observation_space, copies)
        self.action_space = batch_space(self.single_action_space, copies)
        shape = Shape(copies, features, actions)
        ctx: Any = multiprocessing.get_context(context)  # (typeshed's BaseContext has no Process)
        block = ctx.RawArray("b", shape.size())
        self._shared = shape.arrays(block)
        self._conns: list[Connection] = []
        self._shares = _split(self.groups, workers, cpus if _pinned(pin, workers, cpus) else [])
        self._holders = [
            [w for w, share in enumerate(self._shares) if len(share.parts[g])]
            for g in range(groups)
        ]  # the workers that hold each group's copies
        self._sent: list[deque[int]] = [deque() for _ in self._shares]  # unread, per worker
        self._stepping: dict[int, dict[int, Any]] = {}  # groups sent: their answers read so far
        self.processes: list[Any] = []
        """The worker processes."""
        for w, share in enumerate(self._shares):
            parent, child = ctx.Pipe()
            process = ctx.Process(
                target=_worker,
                args=(child, make, share, shape, block),
                name=f"hegemon-vector-{w}",
                daemon=True,
            )
            process.start()
            child.close()
            self._conns.append(parent)
            self.processes.append(process)

    # ------------------------------------------------------------------ the vector API
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Reset every copy (or those ``options["reset_mask"]`` marks): with ``seed`` an int,
        copy ``i`` gets ``seed + i``; a list gives each its own."""
        seeds: list[Any]
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, int | np.integer):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} copies")
        chosen = [True] * self.num_envs
        if options is not None and "reset_mask" in options:
            options = dict(options)
            mask = np.asarray(options.pop("reset_mask"), dtype=bool)
            if mask.shape != (self.num_envs,):
                raise ValueError(f"options['reset_mask'] must have shape ({self.num_envs},)")
            chosen = mask.tolist()
        every = range(self.num_envs)
        infos = self._infos(self._ask(("reset", (seeds, options, chosen))), every)
        return self._observations(every), infos

    def step(self, actions: Any) -> Step:
        """Step every copy on its action (or reset it, its episode having ended at the last
        step)."""
        self._assert_idle()
        self._put(actions, range(self.num_envs))
        for group in range(len(self.groups)):
            self._send_step(group)
        answers = [found for group in range(len(self.groups)) for found in self._wait(group)]
        every = range(self.num_envs)
        return self._results(every, self._infos(answers, every))

    def step_async(self, actions: Any, group: int = 0) -> None:
        """Start stepping ``group``'s copies (``self.groups[group]``) on ``actions``, one a
        copy of the group, and return at once; :meth:`step_wait` gives what they return. With
        one group (the default) that is every copy."""
        part = self._group(group)
        if group in self._stepping:
            raise RuntimeError(f"group {group} is stepping already: step_wait({group}) first")
        self._put(actions, part)
        self._send_step(group)

    def step_wait(self, group: int = 0) -> Step:
        """What ``group``'s copies returned for the actions :meth:`step_async` gave them (the
        infos indexed by copy within the group)."""
        self._group(group)
        if group not in self._stepping:
            raise RuntimeError(f"group {group} is not stepping: step_async(actions, {group}) first")
        return self._group_results(group, self._wait(group))

    def step_wait_any(self) -> tuple[int, Step]:
        """The first of the stepping groups to be done: its number and what :meth:`step_wait`
        would give for it. With each group one worker's (as many groups as workers or more), a
        learner that serves the groups in the order they are done never leaves a worker
        waiting for another."""
        self._assert_open()
        if not self._stepping:
            raise RuntimeError("no group is stepping: step_async(actions, group) first")
        while True:
            for group, answers in self._stepping.items():
                if len(answers) == len(self._holders[group]):
                    return group, self._group_results(group, self._wait(group))
            ready = wait([self._conns[w] for w, sent in enumerate(self._sent) if sent])
            for conn in ready:
                self._read(self._conns.index(cast(Connection, conn)))

    def _group_results(self, group: int, answers: list[Any]) -> Step:
        part = self.groups[group]
        return self._results(part, self._infos(answers, part))

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call each copy's method ``name`` (or read its attribute): the answers, in order."""
        answers: list[Any] = [None] * self.num_envs
        for share, part in zip(
            self._shares, self._ask(("call", (name, args, kwargs))), strict=True
        ):
            for row, answer in zip(share.rows, part, strict=True):
                answers[row] = answer
        return tuple(answers)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Each copy's attribute ``name``."""
        return self.call(name)

    def set_attr(self, name: str, values: Any) -> None:
        """Set each copy's attribute ``name``: to ``values[i]`` (a list or tuple, one a copy) or
        to ``values``."""
        if not isinstance(values, list | tuple):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(f"{len(values)} values for {self.num_envs} copies")
        self._ask(("set", (name, list(values))))

    def render(self) -> tuple[Any, ...] | None:
        """Each copy's ``render()``."""
        return self.call("render")

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the workers (their games are abandoned)."""
        message = pickle.dumps(("close", None))
        for conn in self._conns:
            try:
                conn.send_bytes(message)
            except OSError:
                pass  # already gone
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
        for conn in self._conns:
            conn.close()

    def __del__(self) -> None:
        if not getattr(self, "closed", True) and hasattr(self, "_conns"):
            self.close()

    # ------------------------------------------------------------------ the messages
    def _group(self, group: int) -> range:
        self._assert_open()
        if not 0 <= group < len(self.groups):
            raise ValueError(f"no group {group}: the groups are 0 to {len(self.groups) - 1}")
        return self.groups[group]

    def _put(self, actions: Any, part: range) -> None:
        """Write ``part``'s actions into the shared block."""
        batch = np.asarray(actions)
        if batch.shape != (len(part),):
            raise ValueError(f"{len(part)} actions expected, got shape {batch.shape}")
        self._shared["actions"][part.start : part.stop] = batch

    def _send_step(self, group: int) -> None:
        message = bytes((STEP, group))
        self._stepping[group] = {}
        for w in self._holders[group]:
            self._send(self._conns[w], message)
            self._sent[w].append(group)

    def _wait(self, group: int) -> list[Any]:
        """The answers of ``group``'s workers to its step (each worker's answers read in the
        order its steps were sent, those of other groups kept for their own wait)."""
        answers = self._stepping[group]
        for w in self._holders[group]:
            while w not in answers:
                self._read(w)
        del self._stepping[group]
        return [answers[w] for w in self._holders[group]]

    def _read(self, w: int) -> None:
        """Read worker ``w``'s next answer to a step, into its group's; a worker whose copies
        raised closes the environment and its exception is raised here."""
        tag, answer = self._receive(self._conns[w])
        if tag == FAILED:
            self.close()
            assert isinstance(answer, BaseException)
            raise answer
        self._stepping[self._sent[w].popleft()][w] = answer

    def _results(self, part: range, infos: dict[str, Any]) -> Step:
        shared, rows = self._shared, slice(part.start, part.stop)
        return (
            self._observations(part),
            shared["rewards"][rows].copy(),
            shared["terminated"][rows].copy(),
            shared["truncated"][rows].copy(),
            infos,
        )

    def _observations(self, part: range) -> dict[str, np.ndarray]:
        shared, rows = self._shared, slice(part.start, part.stop)
        return {
            "observation": shared["observation"][rows].copy(),
            "action_mask": shared["action_mask"][rows].copy(),
        }

    def _ask(self, command: tuple[str, Any]) -> list[Any]:
        """Send ``command`` to every worker; their answers, in order."""
        self._assert_idle()
        message = pickle.dumps(command)
        for conn in self._conns:
            self._send(conn, message)
        return self._gather()

    def _infos(self, answers: list[Any], part: range) -> dict[str, Any]:
        """The copies' infos in the workers' ``answers`` (lists of (copy, info), or None),
        batched as Gymnasium does and indexed by copy within ``part``."""
        infos: dict[str, Any] = {}
        batch: VectorEnv[Any, Any, Any] | None = None
        for found in answers:
            for row, info in found or ():
                if batch is None:
                    batch = self if len(part) == self.num_envs else _Infos(len(part))
                infos = batch._add_info(infos, info, row - part.start)
        return infos

    def _send(self, conn: Connection, message: bytes) -> None:
        try:
            conn.send_bytes(message)
        except OSError:
            self._died(conn)

    def _gather(self) -> list[Any]:
        """Every worker's answer to the message sent (None for nothing); the exception of a
        worker whose copies raised is raised here, the environment closed first."""
        answers, failure = [], None
        for conn in self._conns:
            tag, answer = self._receive(conn)
            if tag == FAILED:
                failure = failure or answer
            answers.append(answer)
        if failure is not None:
            self.close()
            raise failure
        return answers

    def _receive(self, conn: Connection) -> tuple[bytes, Any]:
        """A worker's next reply: its tag and what it carries (None for nothing)."""
        try:
            reply = conn.recv_bytes()
        except (OSError, EOFError):
            self._died(conn)
        tag = reply[:1]
        return tag, None if tag == NOTHING else pickle.loads(memoryview(reply)[1:])

    def _died(self, conn: Connection) -> NoReturn:
        process = self.processes[self._conns.index(conn)]
        process.join(timeout=1)
        self.close()
        raise VectorWorkerError(
            f"a worker of the vector environment stopped (exit code {process.exitcode})"
        ) from None

    def _assert_open(self) -> None:
        if self.closed:
            raise gymnasium.error.ClosedEnvironmentError("the vector environment is closed")

    def _assert_idle(self) -> None:
        """Open, and no group stepping (their answers would come first)."""
        self._assert_open()
        if self._stepping:
            group = min(self._stepping)
            raise RuntimeError(f"group {group} is stepping: step_wait it first")


def _cpus() -> list[int]:
    """The cores this process may run on."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return list(range(os.cpu_count() or 1))


def _pinned(pin: bool | None, workers: int, cpus: list[int]) -> bool:
    """Whether to pin each worker to a core: asked, or by default when the workers fill the
    cores (fewer would all sit on the first ones, leaving the others idle); only where the
    system pins processes."""
    return hasattr(os, "sched_setaffinity") and (workers >= len(cpus) if pin is None else pin)


def _shares(copies: int, workers: int) -> list[tuple[int, int]]:
    """(first copy, copies) of each worker: contiguous, their sizes differing by one at most."""
    base, extra = divmod(copies, workers)
    shares, first = [], 0
    for w in range(workers):
        count = base + (w < extra)
        shares.append((first, count))
        first += count
    return shares


def _split(groups: list[range], workers: int, cpus: list[int]) -> list[Share]:
    """Each worker's share and, with ``cpus``, its core (the workers dealt over them in turn).
    With at least as many groups as workers, each group is one worker's (dealt in turn), so the
    workers need not wait for each other; with fewer, each group is spread over every worker,
    a contiguous part each."""
    if len(groups) >= workers:
        empty = range(0)
        parts = [
            tuple(g if i % workers == w else empty for i, g in enumerate(groups))
            for w in range(workers)
        ]
    else:
        shares = [_shares(len(group), workers) for group in groups]
        parts = [
            tuple(
                range(g.start + first, g.start + first + n)
                for g, (first, n) in zip(groups, (s[w] for s in shares), strict=True)
            )
            for w in range(workers)
        ]
    return [Share(part, cpus[w % len(cpus)] if cpus else None) for w, part in enumerate(parts)]


@overload
def vector(
    count: int,
    rules: str | RuleSet = ...,
    opponents: Sequence[str] = ...,
    *,
    asynchronous: Literal[True] = ...,
    workers: int | None = ...,
    groups: int = ...,
    pin: bool | None = ...,
    **kwargs: Any,
) -> HegemonVector: ...


@overload
def vector(
    count: int,
    rules: str | RuleSet = ...,
    opponents: Sequence[str] = ...,
    *,
    asynchronous: Literal[False],
    workers: int | None = ...,
    groups: int = ...,
    pin: bool | None = ...,
    **kwargs: Any,
) -> gymnasium.vector.SyncVectorEnv: ...


@overload
def vector(
    count: int,
    rules: str | RuleSet = ...,
    opponents: Sequence[str] = ...,
    *,
    asynchronous: bool,
    workers: int | None = ...,
    groups: int = ...,
    pin: bool | None = ...,
    **kwargs: Any,
) -> HegemonVector | gymnasium.vector.SyncVectorEnv: ...


def vector(
    count: int,
    rules: str | RuleSet = "classic",
    opponents: Sequence[str] = ("random", "random", "random"),
    *,
    asynchronous: bool = True,
    workers: int | None = None,
    groups: int = 1,
    pin: bool | None = None,
    **kwargs: Any,
) -> HegemonVector | gymnasium.vector.SyncVectorEnv:
    """``count`` copies of :func:`~hegemon.env.single` as one Gymnasium vector environment:
    stepped by ``workers`` processes (``asynchronous``; default one per core, at most one per
    copy), each copy's share of them stepped on one message (see the module's doc), or all in
    this one process (``gymnasium.vector.SyncVectorEnv``). ``groups`` splits the copies into
    groups stepped apart (``step_async``/``step_wait``), ``pin`` says whether each worker runs
    on a core of its own (default: when the workers fill the cores). Opponents are given by
    name here (each copy makes its own bots)."""
    make = partial(HegemonSingle, rules, list(opponents), **kwargs)
    if asynchronous:
        return HegemonVector(make, count, workers, groups=groups, pin=pin)
    if groups != 1 or pin:
        raise ValueError("groups and pin are the worker processes': asynchronous=False has none")
    return gymnasium.vector.SyncVectorEnv([make] * count)
