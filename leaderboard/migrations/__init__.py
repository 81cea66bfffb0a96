"""Alembic migrations of hegemon's database, run by :class:`hegemon.leaderboard.store.Store`
on open.

After changing a model in ``leaderboard/store/models.py``, add ``versions/NNNN_what_changed.py``
(``revision = "NNNN"``, ``down_revision`` = the previous one; use ``op.batch_alter_table`` so
SQLite can follow). A draft can be generated against a scratch database at the current head::

    python -c "from hegemon.leaderboard.store import Store; Store('/tmp/scratch.db')"
    python -c "from alembic import command; \
               from hegemon.leaderboard.store import alembic_config as c; cfg = c(); \
               cfg.cmd_opts = type('o', (), {'x': ['db=/tmp/scratch.db']})(); \
               command.revision(cfg, 'what changed', autogenerate=True, rev_id='NNNN')"

``tests/league/test_store.py`` fails while the models and the migrations disagree.
"""
