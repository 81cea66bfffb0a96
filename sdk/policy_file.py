"""The error of a policy file that cannot be used (its own module: :mod:`.policy` raises it
without loading numpy, :mod:`.network` when it reads the file)."""

__all__ = ["PolicyFileError"]


class PolicyFileError(ValueError):
    """A policy file that cannot be used; ``str(exc)`` is one line for the user."""
