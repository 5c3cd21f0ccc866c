"""The templates of :mod:`philont_desktop.messages`: one per code of the core's errors and notices, in
English with the notice's parameter names as placeholders (``{path}``, ``{names}``); the zh_CN catalogue
translates each (context ``CoreMessages``, looked up in the global context too)."""

from __future__ import annotations

from collections.abc import Callable

from philont_desktop.qt import QCoreApplication


def _tr(text: str) -> str:
    return QCoreApplication.translate("CoreMessages", text)


Template = Callable[[], str]

# The templates. Placeholders are the notice's parameter names; the values are formatted by
# :func:`_value` (lists joined, grades and kinds of file named in the interface's language).
TEMPLATES: dict[str, Template] = {
    # -- opening a file: why it cannot be opened (DatabaseOpenError's ``reason``) -------------------
    "db.open.why.folder": lambda: _tr("This path is a directory, not a database file."),
    "db.open.why.path_names": lambda: _tr("This path names {kind}."),
    "db.open.why.missing": lambda: _tr("No database file exists at this path."),
    "db.open.why.missing_tilde": lambda: _tr(
        "No database file exists at this path. It starts with '~{user}', which names no user or home "
        "folder on this machine, so it was taken as written."
    ),
    "db.open.why.special_file": lambda: _tr("This is {kind}, not a database file; it was not opened."),
    "db.open.why.not_regular": lambda: _tr("This is not a regular file; it was not read."),
    "db.open.why.permission": lambda: _tr("The file cannot be read: permission denied."),
    "db.open.why.os_error": lambda: _tr("The file cannot be read: {error}."),
    "db.open.why.empty": lambda: _tr("The file is empty (0 bytes): it holds no database."),
    "db.open.why.no_header": lambda: _tr(
        "This is not an SQLite database (the file does not start with the SQLite header)."
    ),
    "db.open.why.short_header": lambda: _tr("The file is truncated: its SQLite header is incomplete."),
    "db.open.why.truncated": lambda: _tr(
        "The file is truncated: the header declares {pages} pages of {page_size} bytes ({expected} bytes) "
        "but the file has {size} bytes."
    ),
    "db.open.why.exists": lambda: _tr("A file already exists at this path; it was left alone."),
    "db.open.why.cannot_create": lambda: _tr(
        "A new database cannot be created here: this path names {kind}."
    ),
    "db.open.why.orphan_files": lambda: _tr(
        "{names} exist(s) without a database: left by a database that was moved or deleted, and SQLite "
        "would merge them into a new one. Move them away first; nothing was written."
    ),
    "db.open.why.replaced": lambda: _tr(
        "This is no longer the file that was opened: another file has taken its place (it was replaced, "
        "or deleted and created again). Nothing was read from or written to it; open it again to see it."
    ),
    "db.open.why.not_sqlite": lambda: _tr("This is not an SQLite database ({error})."),
    "db.open.why.damaged": lambda: _tr("The database is damaged ({error})."),
    "db.open.why.cannot_open": lambda: _tr("The database cannot be opened ({error})."),
    "db.open.why.cannot_read": lambda: _tr("The database cannot be read ({error})."),
    "db.open.backup": lambda: _tr(
        " The newest backup that passes the quick integrity check is {backup} (written by this app)."
    ),
    "db.open.backup_agent": lambda: _tr(
        " The newest backup that passes the quick integrity check is {backup} (the agent's)."
    ),
    "db.open.no_backup": lambda: _tr(
        " No backup that passes the quick integrity check was found in backups/."
    ),
    # -- why a database is shown read-only (OpenReport.read_only_notice) ------------------------------
    "db.read_only.schema_newer": lambda: _tr(
        "the database has schema version {version}, newer than {max_known}, which this version understands; "
        "it is shown read-only and never re-stamped"
    ),
    "db.read_only.schema_older": lambda: _tr(
        "the database has schema version {version}, older than {min_known}; this version does not migrate "
        "it, so it is shown read-only"
    ),
    "db.read_only.schema_invalid": lambda: _tr(
        "the database's schema version {value} is not a version number; it is shown read-only and never "
        "re-stamped"
    ),
    "db.read_only.schema_missing": lambda: _tr(
        "the database has no schema version; it is shown read-only and never stamped"
    ),
    "db.read_only.missing_tables": lambda: _tr("core tables are missing: {names}"),
    "db.read_only.missing_columns": lambda: _tr("core columns are missing: {names}"),
    "db.read_only.missing_fts": lambda: _tr("full-text tables are missing: {names}"),
    "db.read_only.damaged": lambda: _tr("the database is damaged (quick integrity check: {quick_check})"),
    "db.read_only.immutable": lambda: _tr("the database directory cannot be written"),
    "db.read_only.file_not_writable": lambda: _tr("the file is not writable"),
    "db.read_only.dir_not_writable": lambda: _tr("the directory is not writable"),
    # -- writing refused, a closed database ------------------------------------------------------------
    "db.read_only": lambda: _tr("The database is open read-only."),
    "db.write_refused": lambda: _tr("Writing is refused: {reason}."),
    # -- a file kept beside the database, set aside (core.sidefiles) ------------------------------------
    "sidefile.set_aside": lambda: _tr(
        "{path} could not be used and was set aside as {moved_to}: {reason}. A new one is made when needed."
    ),
    "sidefile.why.not_regular": lambda: _tr(
        "it is {kind}, not a regular file (reading it could wait forever)"
    ),
    "sidefile.why.too_large": lambda: _tr("it holds more than {max_bytes} bytes"),
    "sidefile.why.unreadable": lambda: _tr("it cannot be read ({error})"),
    "sidefile.why.not_utf8": lambda: _tr("it is not UTF-8 text"),
    "sidefile.why.invalid_json": lambda: _tr("it is not valid JSON ({error})"),
    "sidefile.why.too_deep": lambda: _tr("its JSON nests too deep"),
    "sidefile.why.out_of_range": lambda: _tr("its JSON holds a number beyond the range of a double"),
    "sidefile.why.wrong_shape": lambda: _tr("its content is not what it should hold ({error})"),
    "db.write_refused.file_not_writable": lambda: _tr(
        "{path}: writing is refused: the file is not writable."
    ),
    "db.write_refused.dir_not_writable": lambda: _tr(
        "{path}: writing is refused: its directory is not writable."
    ),
    "db.closed": lambda: _tr("{path}: the database has been closed; open it again to use it."),
    "path.not_replaceable": lambda: _tr(
        "{path}: nothing can be written there: this path names {kind}; only a regular file is ever replaced."
    ),
    # -- backups, comparisons, exports (the rest of backup.* and restore.* is in backup_texts) -------
    "backup.in_memory": lambda: _tr("An in-memory database has no backups."),
    "backup.cancelled": lambda: _tr("The copy was cancelled."),
    "backup.no_free_name": lambda: _tr("No free backup name in {dir}."),
    "backup.folder_not_writable": lambda: _tr(
        "The backups folder {path} cannot be written (backups, and the files a restore moves aside, are kept "
        "there). Nothing was changed."
    ),
    "backup.folder_symlink_loop": lambda: _tr(
        "The backups folder {path} is a symbolic link loop (a link that leads back to itself), so nothing can "
        "be kept there. Nothing was changed."
    ),
    "backup.folder_not_folder": lambda: _tr(
        "The backups folder {path} is not a folder (this path names {kind}), so nothing can be kept there. "
        "Nothing was changed."
    ),
    "changes.compare_what": lambda: _tr(
        "Compare a backup with the database or with another backup, not both or neither."
    ),
    "changes.layer_unknown": lambda: _tr("Unknown layer {layer} (one of {layers})."),
    "changes.cancelled": lambda: _tr("The comparison was cancelled."),
    "changes.backup_unreadable": lambda: _tr(
        "The backup {path} cannot be read ({error}); it may be damaged. Nothing was compared."
    ),
    "changes.backup_not_memory": lambda: _tr(
        "The backup {path} is not a memory database (it has none of the memory tables). Nothing was compared."
    ),
    # -- recall replay (philont-memory replay; the causes of a missed turn) -------------------------------
    "replay.unknown_strategy": lambda: _tr("Unknown strategy {strategy} (one of {known})."),
    "replay.saved_origin": lambda: _tr(
        "The saved replay covers every conversation and cannot answer for one ({origin}): replay that conversation's turns instead."
    ),
    "replay.saved_unreadable": lambda: _tr(
        "The saved replay could not be read ({error}); it was set aside: the next run replays every turn."
    ),
    "replay.cause.not_yet_written": lambda: _tr(
        "Message #{id} was written after this turn (its time is earlier, its id later): recall could not have seen it."
    ),
    "replay.cause.session_restricted": lambda: _tr(
        "Recall was restricted to this scheduled session; message #{id} is in {session}."
    ),
    "replay.cause.not_searched": lambda: _tr(
        "No recall ran: the message is too short or the recall budget is 0."
    ),
    "replay.cause.query_failed": lambda: _tr(
        "Recall found nothing: no full-text query could be made and no message contains the whole text."
    ),
    "replay.cause.candidate_limit": lambda: _tr(
        "Message #{id} matched, but {limit} newer matches filled the candidate limit."
    ),
    "replay.cause.budget_cut": lambda: _tr(
        "Message #{id} was found, then cut by the recall budget ({tokens} tokens short)."
    ),
    "replay.cause.no_overlap": lambda: _tr(
        "Message #{id} does not contain every word of the query (missing: {missing})."
    ),
    "export.folder": lambda: _tr("{path} is a folder; choose a file name to export to."),
    "fact.time_out_of_range": lambda: _tr(
        "The {field} must be between -8.64e15 and 8.64e15 (what a date holds); {value} is out of range."
    ),
    # -- undoing an edit of the agent's tools -----------------------------------------------------------
    "tools.audit_unreadable": lambda: _tr(
        "Audit entry #{audit_id} does not list the rows it changed; it cannot be undone."
    ),
    "search.failed": lambda: _tr("The search for “{query}” could not run: {error}"),
    "tools.undo_conflict": lambda: _tr(
        "Cannot {step}: the row {id} of {table} {problem}; nothing was changed."
    ),
    # -- the MCP server (its clients read the English; the app starts it) ------------------------------
    "mcp.sdk_missing": lambda: _tr(
        "The MCP server needs the mcp package, which is not installed. Install it with: {install}"
    ),
    "mcp.bad_address": lambda: _tr("Not an address: {address} (expected HOST:PORT)."),
    "mcp.bad_uri": lambda: _tr("Unknown resource {uri}."),
    "mcp.resource_not_found": lambda: _tr("No resource {uri}."),
    "mcp.conversation_not_found": lambda: _tr("No conversation {conversation}."),
    "mcp.skill_not_found": lambda: _tr("No skill {name}."),
    "mcp.prompt_not_found": lambda: _tr("No prompt {name}."),
    "mcp.prompt_argument_missing": lambda: _tr("The prompt needs the argument {argument}."),
    "mcp.read_only": lambda: _tr(
        "{tool} changes memory, and this MCP server was started read-only: nothing was written."
    ),
    "mcp.invalid_arguments": lambda: _tr("Invalid arguments for {tool}: {detail}"),
    "mcp.internal_error": lambda: _tr("The tool {tool} failed ({type})."),
    "mcp.file_changed": lambda: _tr(
        "{path}: the database file changed on disk ({change}) since the MCP server opened it; nothing was "
        "read or written. Start the server again to serve the file now at that path."
    ),
    # -- validation, not found and conflicts of the stores and of curation ------------------------------
    "argument.invalid": lambda: _tr("The value given for {argument} is not valid."),
    "db.column_missing": lambda: _tr("This database has no {table}.{column} column."),
    "db.table_missing": lambda: _tr("This database has no {table} table."),
    "message.not_found": lambda: _tr("No message {id}."),
    "action.not_found": lambda: _tr("No action {id}."),
    "session.exists": lambda: _tr("Session {id} already exists."),
    "session.not_found": lambda: _tr("No session {ids}."),
    "json.unsafe_integer": lambda: _tr(
        "{where}: the integer {value} is beyond ±2^53 ({limit}); JSON readers (JavaScript) would round it to a different number. Store it as text instead."
    ),
    "json.not_finite": lambda: _tr(
        "{where}: {value} cannot be stored in JSON (it would become null). Use a finite number, null or text."
    ),
    "json.type": lambda: _tr("{where}: a value of type {type} cannot be stored as JSON."),
    "json.cycle": lambda: _tr("{where}: the value contains itself and cannot be stored as JSON."),
    "json.key_not_text": lambda: _tr("{where}: object keys must be text, not {key}"),
    "json.too_deep": lambda: _tr("The value is nested too deeply to be stored as JSON."),
    "json.unstorable": lambda: _tr("The value cannot be stored as JSON: {error}"),
    "fact.not_found": lambda: _tr("There is no fact with id {id}."),
    "fact.self_kernel_only": lambda: _tr(
        "The self namespace is written only by the agent's self-reflection; self.{key} cannot be changed here."
    ),
    "fact.confidence_range": lambda: _tr("The confidence must be a number between 0 and 1."),
    "fact.tau_invalid": lambda: _tr("τ must be a finite number of days (negative pins, empty clears)."),
    "fact.tau_zero": lambda: _tr("τ must be greater than 0 days (a τ of 0 makes the score undefined)."),
    "fact.kind_invalid": lambda: _tr("The kind of a fact is state or event."),
    "fact.edit_empty": lambda: _tr("An edit needs at least one changed field."),
    "fact.namespace_empty": lambda: _tr("The namespace must not be empty."),
    "fact.key_empty": lambda: _tr("The key must not be empty."),
    "fact.name_not_text": lambda: _tr("The {label} must be text."),
    "fact.name_lone_surrogate": lambda: _tr(
        "The {label} contains a lone surrogate ({char} at position {position}), half of a character that cannot be stored; remove it or complete the character."
    ),
    "fact.time_invalid": lambda: _tr(
        "{field} must be a time in epoch milliseconds (an integer), not {value}."
    ),
    "fact.window_invalid": lambda: _tr(
        "The validity window is not valid: it ends ({valid_until}) before it starts ({valid_from}), or these are not times."
    ),
    "fact.changed_since_shown": lambda: _tr(
        "{fact} changed since it was shown ({field} is now {now}, was {was}). Nothing was changed; look at it again."
    ),
    "fact.changed_meanwhile": lambda: _tr("{fact} was changed meanwhile: its current version is {current}."),
    "fact.newer_version.not_applied": lambda: _tr(
        "{fact} has a newer version written meanwhile{newer}. Your change was computed against the older version and was not applied."
    ),
    "fact.newer_version.edit": lambda: _tr(
        "{fact} has a newer version written meanwhile{newer}. Your edit was made against an older version and was not applied; the newer version is kept. Look at it and edit again if needed."
    ),
    "fact.newer_version.not_added": lambda: _tr(
        "{fact} has a newer version written meanwhile{newer}. The fact was not added; look at the current version first."
    ),
    "fact.newer_version.step": lambda: _tr(
        "{fact} has a newer version written meanwhile{newer}. {step} would drop or overwrite that newer version, so nothing was changed."
    ),
    "fact.newer_version.older_on_top": lambda: _tr(
        "{fact} has a newer version written meanwhile{newer}. {step} would put an older value on top of it, so nothing was changed."
    ),
    "fact.version_gone": lambda: _tr(
        "{fact} no longer has the version you saw. The fact was not added; look at the current version first."
    ),
    "fact.version_exists": lambda: _tr("{fact}: the version {id} exists already; nothing was changed."),
    "fact.version_missing": lambda: _tr("{fact} (version {id}) no longer exists; nothing was changed."),
    "fact.changed_after_edit": lambda: _tr(
        "{fact} was changed after this edit ({values}). {step} would overwrite that change, so nothing was changed."
    ),
    "fact.unchanged.pin": lambda: _tr("{fact} is already pinned; nothing to change."),
    "fact.unchanged.set_tau": lambda: _tr("{fact} already has this τ; nothing to change."),
    "fact.unchanged.unforget": lambda: _tr("{fact} is not forgotten; nothing to change."),
    "fact.unchanged.unpin": lambda: _tr("{fact} is not pinned; nothing to change."),
    "fact.unchanged.forget": lambda: _tr("{fact} is already forgotten; nothing to change."),
    "fact.move_same_key": lambda: _tr(
        "{fact} and {other} have the same key; {namespace} can hold only one version of {key}. Move them separately."
    ),
    "fact.bulk_plan_changed": lambda: _tr(
        "The facts changed since the confirmation was shown (the agent wrote meanwhile); nothing was changed. Look at the list again:\n{changes}"
    ),
    "fact.bulk_nothing": lambda: _tr("Nothing to change ({skipped})."),
    # -- the doctor's fixes of several facts or notes ----------------------------------------------------
    "fact.merge_self": lambda: _tr("{fact} is written by the kernel only; it is not merged."),
    "fact.merge_not_live": lambda: _tr(
        "{fact} (version {id}) is no longer live (superseded or forgotten meanwhile). Nothing was changed; "
        "look at the duplicates again."
    ),
    "fact.merge_choice": lambda: _tr("A merge needs two facts or more, the one kept among them."),
    "fact.chain_sound": lambda: _tr("The chain is not broken (any more); nothing to repair."),
    "fact.unchanged.set_taus": lambda: _tr("Every fact already has this τ; nothing to change."),
    "note.merge_choice": lambda: _tr("A merge needs two notes or more, the one kept among them."),
    "note.merge_kept_forgotten": lambda: _tr(
        "The note {id} ({preview}) to keep was forgotten meanwhile; nothing was changed."
    ),
    "note.bulk_nothing": lambda: _tr("Every note is forgotten already; nothing to change."),
    "calendar.task_not_paused": lambda: _tr("The task {name} is not paused; nothing to change."),
    "calendar.step_paused": lambda: _tr(
        "{step} would overwrite a later change: the scheduler paused or resumed the task {name} since. "
        "Nothing was changed."
    ),
    "index.missing": lambda: _tr("The database has no index {index}; nothing to rebuild."),
    "index.unknown": lambda: _tr("Unknown full-text index {index}."),
    # -- why a bulk action leaves a fact out, and what changed since its confirmation -------------------
    "fact.skip.gone": lambda: _tr("no longer exists"),
    "fact.skip.superseded": lambda: _tr("superseded by a newer version"),
    "fact.skip.forgotten": lambda: _tr("already forgotten"),
    "fact.skip.pinned_candidate": lambda: _tr("pinned: not a forget candidate"),
    "fact.skip.not_candidate": lambda: _tr("not a forget candidate (score {score} at {at})"),
    "fact.skip.pinned": lambda: _tr("already pinned"),
    "fact.skip.not_pinned": lambda: _tr("not pinned"),
    "fact.skip.same_namespace": lambda: _tr("already in this namespace"),
    "fact.skip.self": lambda: _tr("self facts are written by the kernel only"),
    "fact.plan.added": lambda: _tr("would now be changed too"),
    "fact.plan.new_version": lambda: _tr("now has a version stored {at}"),
    "fact.plan.changed": lambda: _tr("changed"),
    "fact.plan.more": lambda: _tr("… and {n} more"),
    "audit.not_found": lambda: _tr("There is no audit entry #{audit_id}."),
    "audit.original_missing": lambda: _tr("The edit that audit entry #{audit_id} refers to is missing."),
    "audit.already_undone": lambda: _tr("Edit #{audit_id} ({action}) is already undone."),
    "audit.not_undone": lambda: _tr(
        "Edit #{audit_id} ({action}) is not undone, so there is nothing to redo."
    ),
    "audit.unreadable": lambda: _tr(
        "Audit entry #{audit_id} does not hold what its edit changed; it cannot be undone."
    ),
    "audit.undo_unavailable": lambda: _tr("Edits of type {action} cannot be undone or redone here."),
    "note.not_found": lambda: _tr("No note {id}."),
    "note.gone": lambda: _tr("No note {id}: it may have been deleted meanwhile."),
    "note.importance_range": lambda: _tr("Importance must be a number between 0 and 1."),
    "note.text_not_text": lambda: _tr("The note's text must be a string."),
    "note.empty": lambda: _tr("A note cannot be empty."),
    "note.edit_empty": lambda: _tr("Nothing to change: give a new text or a new importance."),
    "note.id_invalid": lambda: _tr("A note id must be a non-empty string."),
    "note.exists": lambda: _tr("A note with id {id} already exists."),
    "note.changed_since_shown": lambda: _tr(
        "The note {id} ({preview}) changed since it was shown ({field} is now {now}). Nothing was changed; look at it again."
    ),
    "note.unchanged": lambda: _tr("The note {id} ({preview}) already says that; nothing to change."),
    "note.unchanged.forget": lambda: _tr(
        "The note {id} ({preview}) is already forgotten; nothing to change."
    ),
    "note.unchanged.unforget": lambda: _tr("The note {id} ({preview}) is not forgotten; nothing to change."),
    "note.changed_after_edit": lambda: _tr(
        "{step} would overwrite a later change of the note {id} ({values}). Nothing was changed."
    ),
    "note.step_gone": lambda: _tr("{step}: the note {id} ({preview}) no longer exists; nothing was changed."),
    "note.step_exists": lambda: _tr("{step}: a note with id {id} exists again; nothing was changed."),
    "calendar.timezone_required": lambda: _tr(
        "An event needs a time zone (an IANA name such as Europe/Berlin)."
    ),
    "calendar.ends_before_start": lambda: _tr("An event cannot end before it starts."),
    "calendar.row_gone": lambda: _tr("No {row_kind} {id}: it may have been deleted meanwhile."),
    "calendar.changed_since_shown": lambda: _tr(
        "The {row_kind} {name} changed since it was shown ({field} is now {now}). Nothing was changed; look at it again."
    ),
    "calendar.task_enabled_unchanged": lambda: _tr("The task {name} is already enabled; nothing to change."),
    "calendar.task_disabled_unchanged": lambda: _tr(
        "The task {name} is already disabled; nothing to change."
    ),
    "calendar.step_exists": lambda: _tr("{step}: the {row_kind} {name} exists again; nothing was changed."),
    "calendar.step_name_taken": lambda: _tr(
        "{step} would make the task {name} enabled beside the enabled task of the same name ({other_id}) "
        "made since: both would fire. Nothing was changed; disable or delete that task first."
    ),
    "calendar.columns_lost": lambda: _tr("{step}: the table {table} no longer has the columns {columns}."),
    "calendar.step_gone": lambda: _tr("{step}: the {row_kind} {name} no longer exists; nothing was changed."),
    "calendar.step_conflict": lambda: _tr(
        "{step} would delete the {row_kind} {name}, which changed since ({values}). Nothing was changed."
    ),
    "calendar.step_state": lambda: _tr(
        "{step} would overwrite a later change: the {row_kind} {name} was enabled or disabled since. Nothing was changed."
    ),
    "schedule.action_type_unknown": lambda: _tr("Unknown task action type {action_type}."),
    "schedule.cron_unparsed": lambda: _tr("The repeat rule {cron_expr} cannot be read."),
    "skill.gone": lambda: _tr("The skill {name} no longer exists: it was deleted or renamed meanwhile."),
    "skill.changed_since_shown": lambda: _tr(
        "The skill {name} changed since it was shown (the agent or another edit wrote to it). Nothing was changed; look at the current version and try again."
    ),
    "skill.reason_required": lambda: _tr("A reason is required to {action}."),
    "skill.not_found": lambda: _tr("There is no skill {name}."),
    "skill.id_not_found": lambda: _tr("There is no skill with id {id}."),
    "skill.grades_unchanged": lambda: _tr("Every skill is {grade} already; nothing to change."),
    "skill.verification_kind": lambda: _tr("A verification has a kind (one of {kinds}) and a check."),
    "skill.verification_check": lambda: _tr("A verification needs a check text."),
    "skill.tool_policy": lambda: _tr("A tool policy is a list of tool names."),
    "skill.description_required": lambda: _tr("A skill needs a description."),
    "skill.unchanged": lambda: _tr("Nothing to change."),
    "skill.grade_unknown": lambda: _tr("Unknown grade {grade} (one of {grades})."),
    "skill.kind_invalid": lambda: _tr("A skill's kind is positive or avoid."),
    "skill.step_gone": lambda: _tr(
        "The edit of the skill {name} cannot be {step}: the skill no longer exists."
    ),
    "skill.step_conflict": lambda: _tr(
        "The edit of the skill {name} cannot be {step}: {fields} changed since (the agent or another edit wrote to it). Nothing was changed."
    ),
    "skill.restore_clash": lambda: _tr(
        "The skill {name} cannot be restored: a skill with that name or id exists again."
    ),
    "skill.redelete_gone": lambda: _tr("The skill {name} cannot be deleted again: it no longer exists."),
    "skill.redelete_conflict": lambda: _tr(
        "The skill {name} cannot be deleted again: {fields} changed since it was restored."
    ),
    "skill.not_recipe_revise": lambda: _tr(
        "{name} is not a recipe (it has no verification), so it has no versions to revise; edit its fields instead."
    ),
    "skill.recipe_unchanged": lambda: _tr("The recipe is unchanged: nothing to revise."),
    "skill.cannot_revise": lambda: _tr("{name} cannot be revised."),
    "skill.not_recipe_revert": lambda: _tr(
        "{name} is not a recipe (it has no verification), so it cannot be reverted."
    ),
    "skill.revision_missing": lambda: _tr("The skill {name} has no revision {revision}."),
    "skill.cannot_revert": lambda: _tr("{name} cannot be reverted."),
    "skill.recipe_template": lambda: _tr(
        "{name} is a recipe: change its action template by revising the recipe, so the old version is kept."
    ),
    "skill.grade_unchanged": lambda: _tr("{name} is already {grade}."),
    "skill.kind_unchanged": lambda: _tr("{name} is already {kind_of_skill}."),
    "skill.exists": lambda: _tr("A skill named {name} already exists."),
    "export.cancelled": lambda: _tr("The export was cancelled; no file was written."),
    "export.format_unknown": lambda: _tr("Unknown export format {format} (one of {formats})."),
    "export.folder_missing": lambda: _tr("The folder {path} does not exist."),
    "export.layer_unknown": lambda: _tr("Unknown layer {layer} (one of {layers})."),
    "export.no_time_column": lambda: _tr("The {layer} layer has no time column."),
    "export.columns_unknown": lambda: _tr("The {layer} layer has no column(s) {columns}."),
    "export.no_columns": lambda: _tr("Nothing to export: the view has no columns."),
    "export.filter_column_unknown": lambda: _tr("The {layer} layer has no column {column} to filter on."),
    # -- warnings of an open file ---------------------------------------------------------------------
    "db.warning.immutable": lambda: _tr(
        "The directory cannot be written and has no -shm file: the database is opened with immutable=1, so "
        "changes made by the agent while the app runs will not be seen."
    ),
    # -- warnings of the memory prefix (the prefix itself is the reference's text) ---------------------
    "prefix.plan_unreadable": lambda: _tr(
        "The newest plan of session {session} cannot be read by the agent (malformed steps or review "
        "history); its project plan section is skipped."
    ),
    "prefix.schedule_payload": lambda: _tr(
        "Schedule {schedule} has a malformed payload; plan injection skipped."
    ),
    "prefix.fact_invalid_json": lambda: _tr(
        "{fact} holds invalid JSON; the agent cannot read it (shown here as a string)."
    ),
    "prefix.self_null": lambda: _tr("{fact} holds null: the agent fails to build its prefix on it."),
    # -- a skill's grade: why it has it (the counts first) ---------------------------------------------
    "maturity.why.unrecognised": lambda: _tr("unrecognised grade {grade}, read as draft"),
    "maturity.why.draft_failed": lambda: _tr("{counts}: draft (a recorded failure rules out confirmation)"),
    "maturity.why.draft_reset": lambda: _tr(
        "{counts}: draft (reset to draft with its counters kept; the next success confirms it)"
    ),
    "maturity.why.draft_new": lambda: _tr(
        "{counts}: draft (not yet validated; confirmation needs 2 successes and no failure)"
    ),
    "maturity.why.confirmed_ready": lambda: _tr("{counts}: confirmed (the next success makes it stable)"),
    "maturity.why.confirmed": lambda: _tr(
        "{counts}: confirmed (stable needs 5 successes and failures under 10% of them)"
    ),
    "maturity.why.stable": lambda: _tr("{counts}: stable (the highest grade successes can reach)"),
    "maturity.why.playbook": lambda: _tr(
        "{counts}: playbook, a lesson shown as a hint that use_skill does not run"
    ),
    "maturity.why.deprecated_run": lambda: _tr("{counts}: deprecated ({n} failures in a row)"),
    "maturity.why.deprecated_ratio": lambda: _tr(
        "{counts}: deprecated (failures above 30% of its successes)"
    ),
    "maturity.why.deprecated_manual": lambda: _tr(
        "{counts}: deprecated (set by hand, or by failures its counters no longer show)"
    ),
    # -- ... and what would move it next (clauses) -----------------------------------------------------
    "maturity.next.no_promotion": lambda: _tr(
        "no run of successes can promote it, as confirmation needs zero failures"
    ),
    "maturity.next.confirm": lambda: _tr(
        "{n} more success(es) with no failure: confirmed (a failure rules confirmation out)"
    ),
    "maturity.next.stable": lambda: _tr("{n} more success(es): stable"),
    "maturity.next.stable_run": lambda: _tr("{n} more successes in a row: stable"),
    "maturity.next.keeps_stable": lambda: _tr("successes keep it stable"),
    "maturity.next.fail_deprecates": lambda: _tr("the next failure deprecates it"),
    "maturity.next.fail_back": lambda: _tr("1 failure: back to {grade}"),
    "maturity.next.deprecate": lambda: _tr("{n} failure(s): deprecated"),
    "maturity.next.deprecate_run": lambda: _tr("{n} failures in a row: deprecated"),
    "maturity.next.playbook_fixed": lambda: _tr(
        "set by hand or by reflection, and successes never change it"
    ),
    "maturity.next.playbook_deprecate": lambda: _tr("{n} more failure(s) deprecate it"),
    "maturity.next.playbook_deprecate_run": lambda: _tr("{n} more failures in a row deprecate it"),
    "maturity.next.final": lambda: _tr("final for outcomes: no success or failure changes it"),
    "maturity.next.final_back": lambda: _tr(
        "only setting the grade by hand or revising the recipe (which restarts it as draft) brings it back"
    ),
}
