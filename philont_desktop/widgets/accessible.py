"""What assistive technology and the keyboard need from a tab's widgets, declared in one place.

:data:`NAMES` gives the accessible name (what a screen reader announces) and description (what it adds
on request) of every control whose visible text does not say what it is: search fields, tables, lists,
text panes, plots, the time control. A control is found by its object name, so the views keep their
one-line ``setObjectName``; a control named after a row kind (``calendar_upcoming``) is found by its
prefix. Names are translated in the ``Accessible`` context; after a language switch
:func:`philont_desktop.retranslate.retranslate_widget` swaps them like any other static text.

:func:`prepare` is applied to every tab when it is built and when it is shown: it names the controls
and makes Tab leave every item view and text pane (arrows move inside a table, Tab goes to the next
pane; Ctrl+Tab still works in an editor). :func:`interactive_widgets` and :func:`accessible_name` are
what the tests walk: every control a person reaches by keyboard, and the name Qt gives it (its own, a
buddy label's, or its visible text).
"""

from __future__ import annotations

from philont_desktop.qt import (
    QT_TRANSLATE_NOOP,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QCoreApplication,
    QGraphicsView,
    QPlainTextEdit,
    QScrollBar,
    Qt,
    QTextEdit,
    QWidget,
    is_valid,
)

# object name -> (name, description); a key ending in "_" matches every object name it starts.
NAMES: dict[str, tuple[str, str]] = {
    # The window
    "windowTabs": (
        QT_TRANSLATE_NOOP("Accessible", "Memory views"),
        QT_TRANSLATE_NOOP("Accessible", "The layers of the memory, a tab each; Ctrl+Tab goes to the next"),
    ),
    # Timeline
    "timelineSearch": (
        QT_TRANSLATE_NOOP("Accessible", "Search messages"),
        QT_TRANSLATE_NOOP("Accessible", "Full-text search over every message; at least 3 characters"),
    ),
    "timelineFrom": (
        QT_TRANSLATE_NOOP("Accessible", "From date"),
        QT_TRANSLATE_NOOP("Accessible", "First day of the date range"),
    ),
    "timelineTo": (
        QT_TRANSLATE_NOOP("Accessible", "To date"),
        QT_TRANSLATE_NOOP("Accessible", "Last day of the date range"),
    ),
    "conversationsTable": (
        QT_TRANSLATE_NOOP("Accessible", "Sessions"),
        QT_TRANSLATE_NOOP("Accessible", "The sessions and conversations, newest first"),
    ),
    "searchResults": (
        QT_TRANSLATE_NOOP("Accessible", "Search results"),
        QT_TRANSLATE_NOOP("Accessible", "Messages that match the search, with a snippet each"),
    ),
    "conversation": (
        QT_TRANSLATE_NOOP("Accessible", "Conversation"),
        QT_TRANSLATE_NOOP("Accessible", "The messages of the selected session, oldest first"),
    ),
    "newMessagesPill": (
        QT_TRANSLATE_NOOP("Accessible", "New messages"),
        QT_TRANSLATE_NOOP("Accessible", "Scrolls to the messages that arrived above"),
    ),
    "activityChart": (
        QT_TRANSLATE_NOOP("Accessible", "Messages per day"),
        QT_TRANSLATE_NOOP("Accessible", "Chart of messages per day; drag to choose a date range"),
    ),
    # Actions
    "actionsTable": (
        QT_TRANSLATE_NOOP("Accessible", "Action log"),
        QT_TRANSLATE_NOOP("Accessible", "Every tool call with its tool, time, status and duration"),
    ),
    "actionParamsEdit": (
        QT_TRANSLATE_NOOP("Accessible", "Parameters"),
        QT_TRANSLATE_NOOP("Accessible", "The parameters of the selected tool call"),
    ),
    "actionResultEdit": (
        QT_TRANSLATE_NOOP("Accessible", "Result"),
        QT_TRANSLATE_NOOP("Accessible", "The result of the selected tool call"),
    ),
    "failureRateChart": (
        QT_TRANSLATE_NOOP("Accessible", "Failure rate per tool"),
        QT_TRANSLATE_NOOP("Accessible", "Chart of the share of failed calls per tool"),
    ),
    "skillFilter": (
        QT_TRANSLATE_NOOP("Accessible", "Linked skill"),
        QT_TRANSLATE_NOOP("Accessible", "Show only the calls linked to this skill"),
    ),
    # Notes
    "notesSearch": (QT_TRANSLATE_NOOP("Accessible", "Search notes"), ""),
    "notesTable": (
        QT_TRANSLATE_NOOP("Accessible", "Notes"),
        QT_TRANSLATE_NOOP("Accessible", "Every note with its importance and dates"),
    ),
    "noteContent": (QT_TRANSLATE_NOOP("Accessible", "Note text"), ""),
    "noteImportance": (
        QT_TRANSLATE_NOOP("Accessible", "Importance"),
        QT_TRANSLATE_NOOP("Accessible", "From 0 to 1"),
    ),
    # Facts
    "namespaceTree": (
        QT_TRANSLATE_NOOP("Accessible", "Namespaces"),
        QT_TRANSLATE_NOOP("Accessible", "The namespaces with their decay constant τ and fact counts"),
    ),
    "factsFilter": (
        QT_TRANSLATE_NOOP("Accessible", "Filter facts"),
        QT_TRANSLATE_NOOP("Accessible", "Shows the facts whose key, value or namespace contains this text"),
    ),
    "factsFilterColumn": (
        QT_TRANSLATE_NOOP("Accessible", "Filter column"),
        QT_TRANSLATE_NOOP("Accessible", "The column the column filter looks in"),
    ),
    "factsColumnFilter": (
        QT_TRANSLATE_NOOP("Accessible", "Column filter"),
        QT_TRANSLATE_NOOP("Accessible", "Shows the facts whose chosen column contains this text"),
    ),
    "factsTable": (
        QT_TRANSLATE_NOOP("Accessible", "Facts"),
        QT_TRANSLATE_NOOP(
            "Accessible", "Every fact with its score now, status and when it falls below the threshold"
        ),
    ),
    "viewTimeSlider": (
        QT_TRANSLATE_NOOP("Accessible", "View time"),
        QT_TRANSLATE_NOOP("Accessible", "Moves “now” into the future to see what will be forgotten when"),
    ),
    "viewTimeDays": (
        QT_TRANSLATE_NOOP("Accessible", "View time in days"),
        QT_TRANSLATE_NOOP("Accessible", "Days from today"),
    ),
    "factsBottom": (QT_TRANSLATE_NOOP("Accessible", "Fact details"), ""),
    "decayCurves": (
        QT_TRANSLATE_NOOP("Accessible", "Decay curves"),
        QT_TRANSLATE_NOOP("Accessible", "Chart of the score of the selected facts over time"),
    ),
    "curveLegendArea": (QT_TRANSLATE_NOOP("Accessible", "Curve legend"), ""),
    "factsOverview": (
        QT_TRANSLATE_NOOP("Accessible", "Overview of all facts"),
        QT_TRANSLATE_NOOP("Accessible", "Chart of every fact's score now"),
    ),
    "forgetPool": (
        QT_TRANSLATE_NOOP("Accessible", "Forget pool"),
        QT_TRANSLATE_NOOP("Accessible", "The facts that will fall below the threshold, soonest first"),
    ),
    "factHistory": (
        QT_TRANSLATE_NOOP("Accessible", "Fact history"),
        QT_TRANSLATE_NOOP("Accessible", "The supersede chain of the selected fact"),
    ),
    "whatifTau": (QT_TRANSLATE_NOOP("Accessible", "What-if decay constant τ"), ""),
    "whatifConfidence": (QT_TRANSLATE_NOOP("Accessible", "What-if confidence"), ""),
    # Skills
    "skillsFilter": (QT_TRANSLATE_NOOP("Accessible", "Filter skills"), ""),
    "skillsColumn_playbook": (QT_TRANSLATE_NOOP("Accessible", "Playbook skills"), ""),
    "skillsColumn_draft": (QT_TRANSLATE_NOOP("Accessible", "Draft skills"), ""),
    "skillsColumn_confirmed": (QT_TRANSLATE_NOOP("Accessible", "Confirmed skills"), ""),
    "skillsColumn_stable": (QT_TRANSLATE_NOOP("Accessible", "Stable skills"), ""),
    "skillsColumn_deprecated": (QT_TRANSLATE_NOOP("Accessible", "Deprecated skills"), ""),
    "skillsDetailTabs": (QT_TRANSLATE_NOOP("Accessible", "Skill details"), ""),
    "skillsGrade": (
        QT_TRANSLATE_NOOP("Accessible", "Why this grade"),
        QT_TRANSLATE_NOOP("Accessible", "Why the skill has its grade and what would move it"),
    ),
    "skillsFields": (QT_TRANSLATE_NOOP("Accessible", "Skill fields"), ""),
    "skillsLadder": (
        QT_TRANSLATE_NOOP("Accessible", "Ladder history"),
        QT_TRANSLATE_NOOP("Accessible", "The grade moves replayed from the action log"),
    ),
    "skillsRevisions": (QT_TRANSLATE_NOOP("Accessible", "Revisions"), ""),
    "skillsDiffLeft": (QT_TRANSLATE_NOOP("Accessible", "Older revision"), ""),
    "skillsDiffRight": (QT_TRANSLATE_NOOP("Accessible", "Newer revision"), ""),
    "skillsDiff": (
        QT_TRANSLATE_NOOP("Accessible", "Revision differences"),
        QT_TRANSLATE_NOOP("Accessible", "The two revisions side by side, word by word"),
    ),
    # Context
    "contextMessage": (
        QT_TRANSLATE_NOOP("Accessible", "Message"),
        QT_TRANSLATE_NOOP("Accessible", "The message the agent would receive"),
    ),
    "contextSessions": (QT_TRANSLATE_NOOP("Accessible", "Session"), ""),
    "contextHome": (QT_TRANSLATE_NOOP("Accessible", "Home folder"), ""),
    "contextHostOs": (QT_TRANSLATE_NOOP("Accessible", "Host system"), ""),
    "recentBudget": (
        QT_TRANSLATE_NOOP("Accessible", "Recent messages budget"),
        QT_TRANSLATE_NOOP("Accessible", "Characters"),
    ),
    "recallBudget": (
        QT_TRANSLATE_NOOP("Accessible", "Recall budget"),
        QT_TRANSLATE_NOOP("Accessible", "Characters"),
    ),
    "recentLimit": (
        QT_TRANSLATE_NOOP("Accessible", "Recent messages limit"),
        QT_TRANSLATE_NOOP("Accessible", "Messages"),
    ),
    "recallLimit": (
        QT_TRANSLATE_NOOP("Accessible", "Recall limit"),
        QT_TRANSLATE_NOOP("Accessible", "Messages"),
    ),
    "contextSide": (QT_TRANSLATE_NOOP("Accessible", "Budgets and left out"), ""),
    "leftOutTable": (
        QT_TRANSLATE_NOOP("Accessible", "Left out"),
        QT_TRANSLATE_NOOP("Accessible", "What did not fit in the context, and why"),
    ),
    "contextOutput": (QT_TRANSLATE_NOOP("Accessible", "Context output"), ""),
    "contextPreview": (
        QT_TRANSLATE_NOOP("Accessible", "Context preview"),
        QT_TRANSLATE_NOOP("Accessible", "Exactly what the agent would be given, section by section"),
    ),
    "diffBrowser": (QT_TRANSLATE_NOOP("Accessible", "Context comparison"), ""),
    # Calendar
    "calendarDays": (
        QT_TRANSLATE_NOOP("Accessible", "Days ahead"),
        QT_TRANSLATE_NOOP("Accessible", "How many days ahead, as the agent's list_upcoming window"),
    ),
    "calendarSearch": (QT_TRANSLATE_NOOP("Accessible", "Filter the calendar"), ""),
    "calendarTables": (QT_TRANSLATE_NOOP("Accessible", "Calendar views"), ""),
    "calendar_upcoming": (
        QT_TRANSLATE_NOOP("Accessible", "Agenda"),
        QT_TRANSLATE_NOOP("Accessible", "Events and tasks merged by time, the overdue first"),
    ),
    "calendar_month": (
        QT_TRANSLATE_NOOP("Accessible", "Month"),
        QT_TRANSLATE_NOOP("Accessible", "The days of the month with what happens on each"),
    ),
    "calendar_events": (QT_TRANSLATE_NOOP("Accessible", "Events"), ""),
    "calendar_tasks": (QT_TRANSLATE_NOOP("Accessible", "Tasks"), ""),
    "calendarDetails": (
        QT_TRANSLATE_NOOP("Accessible", "Calendar details"),
        QT_TRANSLATE_NOOP("Accessible", "The selected event or task"),
    ),
    # Backups
    "backupsTable": (
        QT_TRANSLATE_NOOP("Accessible", "Backups"),
        QT_TRANSLATE_NOOP("Accessible", "Every backup with its age, size and integrity"),
    ),
    "backupDetails": (QT_TRANSLATE_NOOP("Accessible", "Backup details"), ""),
    # Audit
    "auditTable": (
        QT_TRANSLATE_NOOP("Accessible", "Audit log"),
        QT_TRANSLATE_NOOP("Accessible", "Every manual edit: who, when and what"),
    ),
    "auditDetail": (
        QT_TRANSLATE_NOOP("Accessible", "Audit entry"),
        QT_TRANSLATE_NOOP("Accessible", "The selected edit, before and after"),
    ),
    "auditNewEntries": (QT_TRANSLATE_NOOP("Accessible", "New audit entries"), ""),
    # Review
    "reviewSince": (QT_TRANSLATE_NOOP("Accessible", "Review since"), ""),
    "reviewTree": (
        QT_TRANSLATE_NOOP("Accessible", "Changes"),
        QT_TRANSLATE_NOOP("Accessible", "What the agent learned and changed, grouped by layer, newest first"),
    ),
    "reviewDetailTabs": (QT_TRANSLATE_NOOP("Accessible", "Change details"), ""),
    "reviewDiff": (QT_TRANSLATE_NOOP("Accessible", "Before and after"), ""),
    "reviewDecayPlot": (
        QT_TRANSLATE_NOOP("Accessible", "Decay"),
        QT_TRANSLATE_NOOP("Accessible", "Chart of the fact's score before and after the change"),
    ),
    "reviewLadder": (QT_TRANSLATE_NOOP("Accessible", "Ladder"), ""),
    "reviewMessagesEdit": (QT_TRANSLATE_NOOP("Accessible", "Messages around"), ""),
    # Health
    "healthPages": (
        QT_TRANSLATE_NOOP("Accessible", "Health pages"),
        QT_TRANSLATE_NOOP("Accessible", "What may be wrong with this memory, a page per concern"),
    ),
    # Health › Recall
    "recallSummary": (
        QT_TRANSLATE_NOOP("Accessible", "Recall summary"),
        QT_TRANSLATE_NOOP(
            "Accessible", "The replayed turns, how many needed an earlier message and the hit rate"
        ),
    ),
    "recallCause": (QT_TRANSLATE_NOOP("Accessible", "Why recall missed"), ""),
    "recallProgress": (QT_TRANSLATE_NOOP("Accessible", "Replay progress"), ""),
    "recallMonthChart": (
        QT_TRANSLATE_NOOP("Accessible", "Hit rate by month"),
        QT_TRANSLATE_NOOP(
            "Accessible", "Chart of the share of turns that needed an earlier message whose recall found one"
        ),
    ),
    "recallCauseChart": (
        QT_TRANSLATE_NOOP("Accessible", "Misses by cause"),
        QT_TRANSLATE_NOOP("Accessible", "Chart of the missed turns by why recall missed"),
    ),
    "recallStrategyChart": (
        QT_TRANSLATE_NOOP("Accessible", "Strategies compared"),
        QT_TRANSLATE_NOOP("Accessible", "Chart of each recall strategy's hit rate and tokens per hit"),
    ),
    "recallMissesTable": (
        QT_TRANSLATE_NOOP("Accessible", "Missed turns"),
        QT_TRANSLATE_NOOP(
            "Accessible", "User turns whose recall missed every needed message, most needed first"
        ),
    ),
    "recallTurnPreview": (
        QT_TRANSLATE_NOOP("Accessible", "What the agent saw"),
        QT_TRANSLATE_NOOP("Accessible", "The context the agent was given at the selected turn"),
    ),
    "recallNeededText": (
        QT_TRANSLATE_NOOP("Accessible", "Needed message"),
        QT_TRANSLATE_NOOP("Accessible", "The earlier messages the selected turn needed"),
    ),
    # Health: the doctor
    "doctorFindings": (
        QT_TRANSLATE_NOOP("Accessible", "Findings"),
        QT_TRANSLATE_NOOP("Accessible", "What the checks found, grouped by layer, worst first"),
    ),
    "doctorMeasure": (
        QT_TRANSLATE_NOOP("Accessible", "Measured values"),
        QT_TRANSLATE_NOOP(
            "Accessible", "The values measured for the finding and the threshold they were held against"
        ),
    ),
    "doctorPlot": (
        QT_TRANSLATE_NOOP("Accessible", "Measurement chart"),
        QT_TRANSLATE_NOOP("Accessible", "The finding's measurement against its limit"),
    ),
    "doctorFixPreview": (
        QT_TRANSLATE_NOOP("Accessible", "Changes of the fix"),
        QT_TRANSLATE_NOOP("Accessible", "Every value the fix will change, now and after"),
    ),
    "doctorFixSurvivor": (QT_TRANSLATE_NOOP("Accessible", "The one to keep"), ""),
    "doctorFixTau": (QT_TRANSLATE_NOOP("Accessible", "Decay time in days"), ""),
    "doctorFixReason": (QT_TRANSLATE_NOOP("Accessible", "Reason"), ""),
    # Health › Privacy
    "privacyCategory": (QT_TRANSLATE_NOOP("Accessible", "Category of findings"), ""),
    "privacyKind": (QT_TRANSLATE_NOOP("Accessible", "Kind of findings"), ""),
    "privacyLayer": (QT_TRANSLATE_NOOP("Accessible", "Layer of findings"), ""),
    "privacyWhere": (QT_TRANSLATE_NOOP("Accessible", "File of findings"), ""),
    "privacySummary": (
        QT_TRANSLATE_NOOP("Accessible", "Findings by kind and layer"),
        QT_TRANSLATE_NOOP(
            "Accessible", "How many findings of each kind each layer holds; a count shows them"
        ),
    ),
    "privacyFindings": (
        QT_TRANSLATE_NOOP("Accessible", "Privacy findings"),
        QT_TRANSLATE_NOOP(
            "Accessible", "Secrets, personal data and planted instructions, with masked previews"
        ),
    ),
    "privacyContextEdit": (
        QT_TRANSLATE_NOOP("Accessible", "Finding in its context"),
        QT_TRANSLATE_NOOP("Accessible", "The text around the finding, the value masked until Show"),
    ),
    "privacyPurgeMode": (QT_TRANSLATE_NOOP("Accessible", "How to purge"), ""),
    "privacyPurgeFiles": (QT_TRANSLATE_NOOP("Accessible", "Files the purge rewrites"), ""),
    "privacyResultText": (QT_TRANSLATE_NOOP("Accessible", "What the purge did"), ""),
}


def _translated(text: str) -> str:
    return QCoreApplication.translate("Accessible", text)


def entry_for(object_name: str) -> tuple[str, str] | None:
    """The (name, description) declared for ``object_name``, if any."""
    if object_name in NAMES:
        return NAMES[object_name]
    for key, value in NAMES.items():
        if key.endswith("_") and object_name.startswith(key):
            return value
    return None


def name_widget(w: QWidget) -> None:
    """Set ``w``'s accessible name and description from :data:`NAMES` (in the current language)."""
    entry = entry_for(w.objectName())
    if entry is None:
        return
    name, description = entry
    if w.accessibleName() == "" or w.property("accessibleFromTable"):
        w.setAccessibleName(_translated(name))
        w.setProperty("accessibleFromTable", True)
        for part in _parts_seen_alone(w):  # AT-SPI shows these as objects of their own
            part.setAccessibleName(_translated(name))
    if description and (w.accessibleDescription() == "" or w.property("accessibleFromTable")):
        w.setAccessibleDescription(_translated(description))


def _parts_seen_alone(w: QWidget) -> list[QWidget]:
    """The pieces of ``w`` a screen reader reaches as objects of their own: an editable combo's line
    edit, a chart's (a graphics view's) viewport."""
    if isinstance(w, QComboBox) and w.lineEdit() is not None:
        return [w.lineEdit()]
    if isinstance(w, QGraphicsView):
        return [w.viewport()]
    return []


def keyboard_friendly(w: QWidget) -> None:
    """Tab leaves item views and text panes (arrows move inside them)."""
    if isinstance(w, QAbstractItemView):
        w.setTabKeyNavigation(False)
    elif isinstance(w, (QPlainTextEdit, QTextEdit)):
        w.setTabChangesFocus(True)


def prepare(root: QWidget) -> None:
    """Name ``root``'s controls and make Tab leave its tables and text panes."""
    if not is_valid(root):
        return
    for w in (root, *root.findChildren(QWidget)):
        if w.objectName():
            name_widget(w)
        keyboard_friendly(w)


# -- what the tests and the AT-SPI walk look at --------------------------------------------------------------


def _part_of_another(w: QWidget) -> bool:
    """A piece of a composite control that assistive technology sees through its owner: a spin box's or
    an editable combo's line edit, a scroll area's viewport or scroll bars, a combo's popup."""
    if isinstance(w, QScrollBar):
        return True
    parent = w.parentWidget()
    if isinstance(parent, (QAbstractSpinBox, QComboBox)):
        return True
    for owner in (parent, parent.parentWidget() if parent is not None else None):
        if isinstance(owner, QAbstractScrollArea) and owner.viewport() is w:
            return True
    top = w.window()
    return top is not w and top.windowType() == Qt.WindowType.Popup


def interactive_widgets(root: QWidget) -> list[QWidget]:
    """The widgets of ``root`` a person can reach with the keyboard (shown or on a page not shown)."""
    return [
        w
        for w in root.findChildren(QWidget)
        if w.focusPolicy() != Qt.FocusPolicy.NoFocus and not _part_of_another(w)
    ]


def accessible_name(w: QWidget) -> str:
    """The name assistive technology announces for ``w`` (its own, a buddy label's, its text)."""
    from philont_desktop.qt import QAccessible

    iface = QAccessible.queryAccessibleInterface(w)
    return iface.text(QAccessible.Text.Name) if iface is not None else ""


def announce(w: QWidget, text: str) -> None:
    """Have assistive technology say ``text`` for ``w``, politely (after what it is saying): a value a
    person needs to hear when it changes, such as the view time or the number of hits. The same text
    stays on screen in a label, where it can be read again."""
    from philont_desktop.qt import QAccessible, QAccessibleAnnouncementEvent

    if text and is_valid(w) and QAccessible.isActive():
        QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(w, text))
