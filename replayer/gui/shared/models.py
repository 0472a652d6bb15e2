"""Item models: thin adapters over the domain objects (findings, verdicts, the replayed state).

* :class:`FindingsModel` — one row a finding: severity, line, player, rule, message, verdict.
* :class:`FindingsFilter` — the findings pane's filters (severity, kind, player, verdict).
* :class:`StateModel` — a two-column tree of the game state at the selected event.

Bad indexes give ``None`` / ``QModelIndex()``; nothing here raises for a stale index.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QAbstractItemModel, QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPixmap

from ...diagnostics import Finding
from ...safe import tooltip
from ..shared import language
from ..document import SEVERITY_RANK, Document
from ..shared.language import M, label, severity, text, tr
from ...reviews import CONFIRMED, DISMISSED, Reviews, Verdict
from ...states import GameState
from ..document.statetree import Node, build_tree
from ..shared.theme import LIGHT, Theme

FindingRole = Qt.UserRole + 1
SeverityRole = Qt.UserRole + 2
KindRole = Qt.UserRole + 3
PlayerRole = Qt.UserRole + 4
VerdictRole = Qt.UserRole + 5
EventRole = Qt.UserRole + 6
LineRole = Qt.UserRole + 7

# PySide6 resolves the short names (``Qt.DisplayRole``) through a compatibility lookup that costs
# some 20 µs each; ``data()`` runs for every cell and role of every repaint, so it compares with
# these, looked up once
_R = Qt.ItemDataRole
_DISPLAY, _DECORATION, _TOOLTIP, _FOREGROUND, _FONT, _ALIGNMENT = (
    _R.DisplayRole, _R.DecorationRole, _R.ToolTipRole, _R.ForegroundRole, _R.FontRole, _R.TextAlignmentRole)
_HORIZONTAL = Qt.Orientation.Horizontal
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_ENABLED_SELECTABLE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_RIGHT_VCENTER = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

_Index = QModelIndex | QPersistentModelIndex

#: the roles FindingsModel.data answers (as plain ints: the view passes ints)
_FINDING_ROLES = frozenset(int(r) for r in (_DISPLAY, _DECORATION, _TOOLTIP, _FOREGROUND, _FONT, _ALIGNMENT, FindingRole,
                                             SeverityRole, KindRole, PlayerRole, VerdictRole, EventRole, LineRole))


def severity_icon(color: str, size: int = 12, hollow: bool = False) -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(Qt.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.Antialiasing)
    c = QColor(color)
    if hollow:
        p.setPen(c)
        p.setBrush(Qt.NoBrush)
    else:
        p.setPen(Qt.NoPen)
        p.setBrush(c)
    p.drawEllipse(1, 1, size - 2, size - 2)
    p.end()
    return QIcon(pm)


class FindingsModel(QAbstractTableModel):
    """The findings of the open document, with the reviewer's verdicts.

    Rows can be sorted (by the model itself, with one ``sorted`` call: a long log may have
    thousands of findings); ``order`` maps a row to the index ``k`` of its finding in
    ``doc.findings``. Methods that take a finding take that index ``k``.
    """

    COLUMNS = ("Severity", "Line", "Player", "Rule", "Message", "Verdict")
    #: the columns' titles, in the window's language
    TITLES = (M("Severity"), M("Line"), M("Player"), M("Rule"), M("Message"), M("Verdict"))
    SEVERITY, LINE, PLAYER, RULE, MESSAGE, VERDICT = range(6)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.reviews: Reviews | None = None
        self.theme: Theme = LIGHT
        self.order: list[int] = []
        self.pos: list[int] = []
        self._icons: dict[tuple[str, bool], QIcon] = {}
        self._mono = QFont()
        self._mono.setFamilies(["DejaVu Sans Mono", "Noto Sans Mono CJK JP", "monospace"])
        self._sort = (self.LINE, Qt.AscendingOrder)
        #: a narrow pane (a laptop's): the severity as its dot only, the rule id before the message
        self.compact = False

    def shown(self, k: int) -> Finding | None:
        """Finding ``k`` as the window shows it: its message, hint and citation in the window's language."""
        f = self.finding(k)
        if f is None or language.lang() == "en":
            return f
        return self.doc.finding_in(k, language.lang())

    def retranslate(self) -> None:
        """The window's language changed: the headers and every row again."""
        self.headerDataChanged.emit(_HORIZONTAL, 0, len(self.COLUMNS) - 1)
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def set_compact(self, on: bool) -> None:
        if on != self.compact:
            self.compact = on
            self.headerDataChanged.emit(_HORIZONTAL, self.SEVERITY, self.SEVERITY)
            if self.rowCount():
                self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.MESSAGE))

    # ---- feeding ------------------------------------------------------------------------------
    def set_document(self, doc: Document | None, reviews: Reviews | None) -> None:
        self.beginResetModel()
        self.doc = doc
        self.reviews = reviews
        n = len(doc.findings) if doc is not None else 0
        self.order = self._sorted(*self._sort) if doc is not None else []
        self.pos = [0] * n
        for row, k in enumerate(self.order):
            self.pos[k] = row
        self.endResetModel()

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self._icons.clear()
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def finding(self, k: int) -> Finding | None:
        if self.doc is None or not 0 <= k < len(self.doc.findings):
            return None
        return self.doc.findings[k]

    def verdict(self, k: int) -> Verdict:
        f = self.finding(k)
        if f is None or self.reviews is None:
            return Verdict()
        return self.reviews.get(f)

    def set_verdict(self, k: int, status: str | None, note: str | None = None) -> Verdict | None:
        """Record a verdict for finding ``k`` (saved by the review store)."""
        f = self.finding(k)
        if f is None or self.reviews is None:
            return None
        v = self.reviews.set(f, status, note)
        row = self.pos[k]
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        return v

    def row_of(self, k: int) -> int:
        return self.pos[k] if 0 <= k < len(self.pos) else -1

    def finding_at(self, row: int) -> int:
        return self.order[row] if 0 <= row < len(self.order) else -1

    # ---- sorting ------------------------------------------------------------------------------
    def _key(self, column: int):
        doc = self.doc
        fs = doc.findings
        if column == self.SEVERITY:
            return lambda k: (-SEVERITY_RANK.get(fs[k].severity.value, 0), fs[k].span.line, k)
        if column == self.PLAYER:
            return lambda k: (doc.finding_player[k] or "~", fs[k].span.line, k)
        if column == self.RULE:
            return lambda k: (fs[k].rule, fs[k].span.line, k)
        if column == self.MESSAGE:
            return lambda k: (fs[k].message, k)
        if column == self.VERDICT:
            return lambda k: (self.verdict(k).status or "~", fs[k].span.line, k)
        return lambda k: (fs[k].span.line, fs[k].span.column, k)

    def _sorted(self, column: int, order: Qt.SortOrder) -> list[int]:
        n = len(self.doc.findings) if self.doc is not None else 0
        if column == self.LINE and order == Qt.AscendingOrder:
            return list(range(n))  # the findings come sorted by line and column
        return sorted(range(n), key=self._key(column), reverse=order == Qt.DescendingOrder)

    def sort(self, column: int, order: Qt.SortOrder = Qt.AscendingOrder) -> None:
        self._sort = (column, order)
        if self.doc is None:
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_ks = [self.finding_at(i.row()) for i in old]
        self.order = self._sorted(column, order)
        for row, k in enumerate(self.order):
            self.pos[k] = row
        self.changePersistentIndexList(old, [self.index(self.pos[k], i.column()) if k >= 0 else QModelIndex()
                                             for i, k in zip(old, old_ks)])
        self.layoutChanged.emit()

    # ---- the model ----------------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        if parent.isValid() or self.doc is None:
            return 0
        return len(self.order)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:
        # Qt's asks rowCount() and columnCount(), two calls into Python, for every index the
        # filter and the view make (hundreds a repaint): one call, the same answer
        if 0 <= row < len(self.order) and 0 <= column < len(self.COLUMNS) and self.doc is not None \
                and not parent.isValid():
            return self.createIndex(row, column)
        return QModelIndex()

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY):
        if orientation == _HORIZONTAL and role == _DISPLAY and 0 <= section < len(self.COLUMNS):
            if self.compact and section == self.SEVERITY:
                return ""  # (the dots say it; the tooltip names the column)
            return text(self.TITLES[section])
        if orientation == _HORIZONTAL and role == Qt.ToolTipRole and 0 <= section < len(self.COLUMNS):
            return text(self.TITLES[section])
        return None

    # flags(): QAbstractTableModel's own (enabled, selectable, no children), kept in C++ for speed

    def _icon(self, severity: str, hollow: bool) -> QIcon:
        key = (severity, hollow)
        icon = self._icons.get(key)
        if icon is None:
            icon = self._icons[key] = severity_icon(self.theme.severity[severity], hollow=hollow)
        return icon

    def data(self, index: _Index, role: int = _DISPLAY):
        if role not in _FINDING_ROLES or not index.isValid() or self.doc is None:
            return None  # (the view asks for some roles it is never given: check state, background…)
        row, col = index.row(), index.column()
        if not 0 <= row < len(self.order) or not 0 <= col < len(self.COLUMNS):
            return None
        k = self.order[row]
        f = self.doc.findings[k]
        sev = f.severity.value
        if role == _DISPLAY:
            if col == self.SEVERITY:
                return "" if self.compact else severity(sev)
            if col == self.LINE:
                return f.span.line
            if col == self.PLAYER:
                return self.doc.finding_player[k] or "—"
            if col == self.RULE:
                return f.rule
            if col == self.MESSAGE:
                message = self.shown(k).message
                if self.compact:
                    mark = {CONFIRMED: "✓ ", DISMISSED: "✗ "}.get(self.verdict(k).status or "", "")
                    return f"{mark}[{f.rule}] {message}"
                return message
            if col == self.VERDICT:
                v = self.verdict(k)
                mark = {CONFIRMED: M("✓ confirmed"), DISMISSED: M("✗ dismissed")}.get(v.status or "")
                mark = text(mark) if mark is not None else ""
                if v.note:
                    return f"{mark} — {v.note}" if mark else tr("note: {note}", note=v.note)
                return mark
            return None
        if role == _DECORATION and col == self.SEVERITY:
            return self._icon(sev, self.verdict(k).status == DISMISSED)
        if role == _TOOLTIP:
            f = self.shown(k)
            parts = [tr("line {line}:{column}", line=f.span.line, column=f.span.column)
                     + f"  {severity(sev)}[{f.rule}]", f.message]
            if f.hint:
                parts.append(label("hint") + ": " + f.hint)
            if f.cite:
                parts.append(label("cite") + ": " + f.cite)
            return tooltip("\n".join(parts))
        if role == _FOREGROUND and self.verdict(k).status == DISMISSED:
            return QBrush(QColor(self.theme.dim))
        if role == _FONT and col == self.RULE:
            return self._mono
        if role == _ALIGNMENT and col == self.LINE:
            return _RIGHT_VCENTER
        if role == FindingRole:
            return k
        if role == SeverityRole:
            return sev
        if role == KindRole:
            return f.kind.value
        if role == PlayerRole:
            return self.doc.finding_player[k] or ""
        if role == VerdictRole:
            return self.verdict(k).status or ""
        if role == EventRole:
            return self.doc.finding_event[k]
        if role == LineRole:
            return f.span.line
        return None


@dataclass
class FilterState:
    severities: set[str] = field(default_factory=lambda: {"error", "warning", "info"})
    kind: str = ""  # "" = every kind
    players: set[str] = field(default_factory=lambda: {"A", "B", ""})
    verdict: str = "all"  # all | open | confirmed | dismissed


class FindingsFilter(QSortFilterProxyModel):
    """Filters findings by severity, kind, player and verdict; sorts by line by default."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.state = FilterState()
        self.setDynamicSortFilter(False)

    def _change(self, apply) -> None:
        """Change the filter state and re-filter (Qt 6.10's begin/endFilterChange where there)."""
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            apply()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # Qt < 6.10
            apply()
            self.invalidateFilter()

    def set_severities(self, severities: set[str]) -> None:
        self._change(lambda: setattr(self.state, "severities", set(severities)))

    def set_severity(self, severity: str, shown: bool) -> None:
        self._change(lambda: (self.state.severities.add if shown else self.state.severities.discard)(severity))

    def set_kind(self, kind: str) -> None:
        self._change(lambda: setattr(self.state, "kind", kind))

    def set_player(self, player: str, shown: bool) -> None:
        self._change(lambda: (self.state.players.add if shown else self.state.players.discard)(player))

    def set_verdict(self, verdict: str) -> None:
        self._change(lambda: setattr(self.state, "verdict", verdict))

    def refilter(self) -> None:
        """Re-filter after verdicts changed (the verdict filter depends on them)."""
        self._change(lambda: None)

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        if not isinstance(model, FindingsModel) or model.doc is None:
            return True
        k = model.finding_at(source_row)
        if k < 0:
            return False
        f = model.doc.findings[k]
        s = self.state
        if f.severity.value not in s.severities:
            return False
        if s.kind and f.kind.value != s.kind:
            return False
        if (model.doc.finding_player[k] or "") not in s.players:
            return False
        if s.verdict != "all":
            status = model.verdict(k).status
            if s.verdict == "open" and status is not None:
                return False
            if s.verdict in (CONFIRMED, DISMISSED) and status != s.verdict:
                return False
        return True

    def sort(self, column: int, order: Qt.SortOrder = Qt.AscendingOrder) -> None:
        """Sorting is the source model's (one ``sorted`` call); the proxy keeps its order."""
        model = self.sourceModel()
        if isinstance(model, FindingsModel):
            model.sort(column, order)

    def finding_at(self, proxy_row: int) -> int:
        """The finding index ``k`` shown on ``proxy_row`` (-1: none)."""
        model = self.sourceModel()
        idx = self.mapToSource(self.index(proxy_row, 0))
        if not idx.isValid() or not isinstance(model, FindingsModel):
            return -1
        return model.finding_at(idx.row())

    def proxy_row_of(self, k: int) -> int:
        """The proxy row showing finding ``k`` (-1: filtered out)."""
        model = self.sourceModel()
        if not isinstance(model, FindingsModel):
            return -1
        row = model.row_of(k)
        if row < 0:
            return -1
        idx = self.mapFromSource(model.index(row, 0))
        return idx.row() if idx.isValid() else -1


# ---- the state tree ---------------------------------------------------------------------------------
class StateModel(QAbstractItemModel):
    """The game state at the selected event, as a tree: item and value."""

    COLUMNS = ("Item", "Value")
    TITLES = (M("Item"), M("Value"))

    def __init__(self, parent=None):
        super().__init__(parent)
        self.nodes: list[Node] = []
        self.top: list[int] = []
        self.theme: Theme = LIGHT
        self.state: GameState | None = None

    # ---- feeding ------------------------------------------------------------------------------
    def set_state(self, state: GameState | None, players: dict[str, str] | None = None, *,
                  tree: tuple[list[Node], list[int]] | None = None) -> bool:
        """Show ``state``. A tree of the same shape as the one shown (the same items under the
        same parents, as after most steps and re-checks) is updated in place, row by row, so that
        the view keeps its expansion and repaints only what changed; returns True when the tree
        was built anew instead (then the view must expand it). ``tree``: the rows of ``state``
        built already (:func:`~replayer.gui.document.statetree.build_tree`)."""
        old_nodes, old_top = self.nodes, self.top
        if tree is not None and state is not None:
            nodes, top = tree
        else:
            nodes, top = build_tree(state, players or {"A": "A", "B": "B"}) if state is not None else ([], [])
        if old_nodes and top == old_top and len(nodes) == len(old_nodes) and all(
                a.parent == b.parent and a.children == b.children for a, b in zip(nodes, old_nodes)):
            self.nodes, self.top = nodes, top
            self.state = state
            for nid, (a, b) in enumerate(zip(nodes, old_nodes)):
                if a != b:
                    self.dataChanged.emit(self.createIndex(a.row, 0, nid), self.createIndex(a.row, 1, nid))
            return False
        self.nodes, self.top = old_nodes, old_top
        self.beginResetModel()
        self.state = state
        self.nodes, self.top = nodes, top
        self.endResetModel()
        return True

    # ---- the model ----------------------------------------------------------------------------
    def _node(self, index: _Index) -> Node | None:
        if not index.isValid():
            return None
        nid = index.internalId()
        return self.nodes[nid] if 0 <= nid < len(self.nodes) else None

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:
        if not 0 <= column < len(self.COLUMNS) or row < 0:
            return QModelIndex()
        if parent.isValid():
            if parent.column() != 0:
                return QModelIndex()
            p = self._node(parent)
            if p is None or row >= len(p.children):
                return QModelIndex()
            return self.createIndex(row, column, p.children[row])
        if row >= len(self.top):
            return QModelIndex()
        return self.createIndex(row, column, self.top[row])

    def parent(self, index: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        node = self._node(index)
        if node is None or node.parent < 0:
            return QModelIndex()
        p = self.nodes[node.parent]
        return self.createIndex(p.row, 0, node.parent)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        if not parent.isValid():
            return len(self.top)
        if parent.column() != 0:
            return 0
        node = self._node(parent)
        return len(node.children) if node is not None else 0

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY):
        if orientation == _HORIZONTAL and role == _DISPLAY and 0 <= section < len(self.COLUMNS):
            return text(self.TITLES[section])
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return _NO_FLAGS
        return _ENABLED_SELECTABLE

    def data(self, index: _Index, role: int = _DISPLAY):
        node = self._node(index)
        if node is None:
            return None
        col = index.column()
        if role == _DISPLAY:
            return node.label if col == 0 else node.value
        if role == _TOOLTIP:
            return tooltip(node.tip or (f"{node.label}: {node.value}" if node.value else node.label))
        if role == _FOREGROUND:
            if node.tone == "warn":
                return QBrush(QColor(self.theme.severity["warning"]))
            if node.tone == "dim":
                return QBrush(QColor(self.theme.dim))
        if role == _FONT and node.tone == "strong" and col == 0:
            f = QFont()
            f.setBold(True)
            return f
        return None

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        if self.top:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.top) - 1, 1))
