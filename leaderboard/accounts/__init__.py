"""Accounts: who may sign in, and what each one may see and do.

One job per module: :mod:`.passwords` (argon2id hashes), :mod:`.keys` (random values kept
only as their sha256), :mod:`.users` (adding, finding, disabling, signing in),
:mod:`.invitations` (single-use sign-up codes), :mod:`.sessions` (signed-in browsers),
:mod:`.tokens` (API tokens for the command line), :mod:`.throttle` (slowing password guessing),
:mod:`.csrf` (form tokens) and :mod:`.access` (who sees a bot's logs, faults and files).
The rows are in :mod:`hegemon.leaderboard.store.accounts`.
"""

from __future__ import annotations


class AccountError(Exception):
    """Something asked of the accounts that cannot be done, said in one line fit for the user
    (``str(exc)``), and never containing a password or token."""
