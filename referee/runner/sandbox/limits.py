"""The limits of one local bot: per process (rlimits) and for the whole bot (its ceiling)."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class SandboxLimits:
    """Limits for every local bot.

    Per process (rlimits set inside the sandbox): ``memory_bytes`` is the address space
    (RLIMIT_AS) of each process — with ``malloc_arenas`` capped (``MALLOC_ARENA_MAX``) a gRPC
    server fits easily in 1 GiB; ``processes`` counts processes *and threads* of the bot's uid
    (RLIMIT_NPROC); ``cpu_seconds`` is CPU time per process (SIGXCPU, then SIGKILL 5 s later);
    ``open_files``, ``file_bytes``; ``tmp_bytes`` is the size of the private ``/tmp`` (and,
    separately, ``/dev/shm``).

    For the bot as a whole (all its processes together, see
    :mod:`hegemon.referee.runner.sandbox.ceiling`): ``total_memory_bytes`` of resident memory,
    ``processes`` tasks, ``cpu_seconds`` of CPU time; exceeding the memory or CPU ceiling kills
    the whole bot with the named fault ``memory`` or ``cpu``. A process the pool reuses across
    games is restarted before a game once the bot has used half its CPU time.

    A game may be given its own (``play_one(..., limits=BotLimits(sandbox=SandboxLimits(...)))``).
    """

    memory_bytes: int = 1 << 30
    processes: int = 64
    open_files: int = 256
    file_bytes: int = 16 << 20
    cpu_seconds: int = 600
    tmp_bytes: int = 64 << 20
    malloc_arenas: int = 2
    total_memory_bytes: int = 1 << 30

    def __post_init__(self) -> None:
        for spec in fields(self):
            value = getattr(self, spec.name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(
                    f"SandboxLimits.{spec.name} must be a positive integer, not {value!r}"
                )

    def rlimits(self) -> list[tuple[str, int, int]]:
        """(name, soft, hard) of each per-process limit, ``name`` as in ``resource.RLIMIT_*``."""
        cpu = self.cpu_seconds
        return [
            ("AS", self.memory_bytes, self.memory_bytes),
            ("NPROC", self.processes, self.processes),
            ("NOFILE", self.open_files, self.open_files),
            ("FSIZE", self.file_bytes, self.file_bytes),
            ("CPU", cpu, cpu + 5),
            ("CORE", 0, 0),
        ]

    def prlimit_args(self) -> list[str]:
        """The same limits as options of ``prlimit`` (util-linux)."""
        names = {"AS": "as", "NPROC": "nproc", "NOFILE": "nofile", "FSIZE": "fsize"}
        names.update({"CPU": "cpu", "CORE": "core"})
        return [
            f"--{names[name]}={soft}" if soft == hard else f"--{names[name]}={soft}:{hard}"
            for name, soft, hard in self.rlimits()
        ]
