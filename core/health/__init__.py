"""Memory health: checks of every layer (a measurement, a threshold, a severity, the rows concerned and
the fix offered) and the one-step fixes they offer. :mod:`.finding` holds the shapes,
:func:`.checks.run_checks` runs the checks (one module per layer: :mod:`.facts`, :mod:`.skills`,
:mod:`.notes`, :mod:`.indexes`, :mod:`.calendar`, :mod:`.growth` for the layer ``file``; what they share,
the thresholds :class:`.context.HealthOptions` among it, is in :mod:`.context`), :mod:`.messages` has the
English text of every code.

Finding codes (layer = the code's second part) with the parameters of their message; ``targets`` are
fact, skill, note and task ids, message rowids (indexes), backup file names:

* ``health.facts.live_conflict`` (fail) ``namespace, key, count``
* ``health.facts.chain_missing`` (fail) ``id, namespace, key, missing``
* ``health.facts.chain_cycle`` (fail) ``namespace, key, count``
* ``health.facts.same_value`` (warn) ``namespace, keys[], count``
* ``health.facts.expired_live`` (warn / info) ``count, shown``
* ``health.facts.decayed_shown`` (warn) ``count, threshold``
* ``health.facts.cut_by_limit`` (warn) ``namespace, limit, count``
* ``health.facts.cut_by_chars`` (warn) ``over, cap, count``
* ``health.facts.unread`` (info) ``count, days``
* ``health.facts.confidence_invalid`` (fail / warn) ``namespace, key, value``
* ``health.facts.invalid_json`` (fail / warn) ``namespace, key``
* ``health.skills.maturity_unbacked`` (warn) ``name, maturity, actions, backed``
* ``health.skills.offered_unmatched`` (warn) ``name, offered``
* ``health.skills.repairs_exhausted`` (warn) ``name, count, limit``
* ``health.skills.near_duplicate`` (warn) ``names[], similarity`` (a percentage, "100%")
* ``health.skills.draft_unused`` (info) ``count, days``
* ``health.skills.invalid_json`` (fail) ``name, fields[]``
* ``health.notes.duplicate`` (warn) ``count``
* ``health.notes.forgotten_found`` (warn) ``count``
* ``health.indexes.missing_rows`` / ``health.indexes.orphan_rows`` (fail) ``index, table, count``
* ``health.indexes.absent`` (fail) ``index, table``
* ``health.calendar.task_failing`` (warn) ``name, failures``
* ``health.calendar.task_paused`` (warn) ``name, until`` (ISO 8601 UTC)
* ``health.calendar.oneshot_overdue`` (warn) ``name, overdue_hours``
* ``health.file.size`` (info / warn) ``size_mb, month, month_messages``
* ``health.file.free_pages`` (warn) ``free_mb, ratio`` (a percentage)
* ``health.file.wal_size`` (warn) ``wal_mb, limit_mb``
* ``health.file.backups`` (info / warn) ``count, total_mb, age_days``
* ``health.file.no_backup`` (warn) ``count``
* ``health.file.prefix_size`` (info / warn) ``chars, cap, tokens``
* ``health.file.messages_per_day`` (info / warn) ``average, days, max``
* ``health.facts.check_failed``, ``health.skills.check_failed``, ``health.notes.check_failed``,
  ``health.indexes.check_failed``, ``health.calendar.check_failed``, ``health.file.check_failed`` (warn)
  ``check, error``: a check that could not run (a table missing, a value no reading foresaw)

Each finding's ``measure`` holds the measured values and the threshold, and ``labels`` (one per target:
``namespace.key`` of a fact, the name of a skill or task, the start of a note) where every target has one
(the pictures: ``health.file.size``
has ``months`` [{month, start, messages, chars, actions}], ``health.file.prefix_size`` has ``cap`` and
``months`` [{month, at, chars, tokens}], ``health.file.messages_per_day`` has ``per_day`` [{day,
messages}]).

Fix codes with their parameters (a fix acts on the finding's rows; the person picks a survivor where
there is one):

* ``health.fix.merge_duplicates`` ``{layer: facts|notes|skills, ids}``
* ``health.fix.forget`` ``{layer: facts, ids}``
* ``health.fix.repair_chain`` ``{ids}`` (the fact whose ``superseded_by`` is missing, or the loop)
* ``health.fix.demote_skill`` ``{ids, to, reason}`` (``reason`` is the finding's code)
* ``health.fix.pause_task`` / ``health.fix.enable_task`` ``{ids}``
* ``health.fix.rebuild_index`` ``{index, table}``

(``health.fix.pin`` and ``health.fix.shorten_tau`` are not offered by a finding: they are the other answers
to ``decayed_shown`` and ``unread``, on the same ``ids``.)
"""

from core.health.checks import HealthOptions, HealthReport, run_checks
from core.health.finding import LAYERS, SEVERITIES, Finding, Fix

__all__ = ["LAYERS", "SEVERITIES", "Finding", "Fix", "HealthOptions", "HealthReport", "run_checks"]
