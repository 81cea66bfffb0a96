"""The web server's endpoints: plain module-level functions, one module per subject —
:mod:`.pages` (the HTML pages), :mod:`.api` (their JSON twins), :mod:`.accounts` (signing in,
one's account, the token API), :mod:`.admin` (the admins' pages and actions) and
:mod:`.submissions` (uploading bots, "my bots"). Each reads what it serves from the app's state
(:mod:`.common`), so each can be imported and called alone; which path reaches which is the
one table in :mod:`hegemon.leaderboard.web.routes`."""
