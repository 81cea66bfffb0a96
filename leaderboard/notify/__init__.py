"""Members hear what happened: notices on the site and signed webhooks.

One job per module: :mod:`.notices` (a notice written, with a delivery queued for each of its
member's hooks, in one transaction; the list, the unread count, mark-as-read), :mod:`.hooks`
(a member's webhooks: made with a secret shown once, listed with their delivery log),
:mod:`.signing` (the HMAC-SHA256 signature of a body), :mod:`.events` (what each event says:
a version checked, a bot's faults grouped, a final's results), :mod:`.digest` (the opt-in daily
digest), :mod:`.sender` (the queue's deliveries sent, retried with backoff, each try bounded)
and :mod:`.loop` (the arena's notifier: beside the matchmaker, never in a runner).
"""
