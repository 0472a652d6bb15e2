"""The findings pane (filters, counts, verdicts)."""

from __future__ import annotations


from PySide6.QtCore import QItemSelectionModel, QModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QButtonGroup, QStyle, QStyledItemDelegate,
                               QStyleOptionViewItem, QCheckBox, QComboBox, QFrame, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QPushButton, QScrollArea, QSizePolicy, QToolButton, QTreeView,
                               QVBoxLayout,
                               QWidget)

from ...diagnostics import Kind
from ...safe import html_text
from ..document import Document
from ..shared.models import FindingsFilter, FindingsModel
from ...reviews import CONFIRMED, DISMISSED, Reviews
from ..shared.theme import LIGHT, Theme
from ..shared.language import M, kind, label, live, plural, severity, tr
from ..shared.widgets import FlowLayout, title_label


class WrappedTextDelegate(QStyledItemDelegate):
    """A cell whose text wraps onto at most ``lines`` lines, the last one elided; every row is as high
    as ``lines`` lines (the view keeps uniform row heights: thousands of findings stay quick)."""

    def __init__(self, lines: int = 2, parent=None):
        super().__init__(parent)
        self.lines = lines

    def sizeHint(self, option, index):
        size = super().sizeHint(option, index)
        fm = option.fontMetrics
        return QSize(size.width(), max(size.height(), fm.lineSpacing() * self.lines + 6))

    def paint(self, painter, option, index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text = opt.text
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.CE_ItemViewItem, opt, painter, opt.widget)
        rect = style.subElementRect(QStyle.SE_ItemViewItemText, opt, opt.widget).adjusted(2, 2, -2, -2)
        painter.save()
        selected = bool(opt.state & QStyle.State_Selected)
        painter.setPen(opt.palette.color(QPalette.HighlightedText if selected else QPalette.Text))
        fg = index.data(Qt.ForegroundRole)
        if fg is not None and not selected:
            painter.setPen(fg.color())
        painter.setFont(opt.font)
        for n, line in enumerate(wrap_lines(text, opt.fontMetrics, rect.width(), self.lines)):
            y = rect.top() + n * opt.fontMetrics.lineSpacing()
            painter.drawText(QRect(rect.left(), y, rect.width(), opt.fontMetrics.lineSpacing()),
                             Qt.AlignLeft | Qt.AlignVCenter, line)
        painter.restore()


def wrap_lines(text: str, fm, width: int, most: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels (at spaces, else anywhere), at most ``most``
    of them, the last elided when the text goes on."""
    lines: list[str] = []
    rest = " ".join(text.split())
    while rest and len(lines) < most:
        if len(lines) == most - 1 or fm.horizontalAdvance(rest) <= width:
            lines.append(fm.elidedText(rest, Qt.ElideRight, max(width, 1)))
            break
        cut = len(rest)
        while cut > 1 and fm.horizontalAdvance(rest[:cut]) > width:
            cut = int(cut * 0.9) if cut > 20 else cut - 1
        space = rest.rfind(" ", 0, cut + 1)
        if space > 0:
            cut = space
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    return lines


class FindingsView(QTreeView):
    """The findings list; when it has no rows it says why ("no findings", or that the filters hide them)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.empty_text = tr("no log open")

    def set_empty_text(self, text: str) -> None:
        if text != self.empty_text:
            self.empty_text = text
            self.viewport().update()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        model = self.model()
        if model is None or model.rowCount() or not self.empty_text:
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().color(QPalette.PlaceholderText))
        rect = self.viewport().rect().adjusted(8, 8, -8, -8)
        painter.drawText(rect, Qt.AlignHCenter | Qt.AlignTop | Qt.TextWordWrap, self.empty_text)
        painter.end()


class FindingsPane(QWidget):
    """Findings with filters and counts; the selected finding's text and the reviewer's verdict.

    ``findingActivated(row)`` (a row of :class:`FindingsModel`) when the user picks a finding.
    ``verdictChanged(row)`` after a verdict or note was recorded.
    """

    findingActivated = Signal(int)  # the finding's index in the document
    verdictChanged = Signal(int)
    storeFailed = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme: Theme = LIGHT
        self.model = FindingsModel(self)
        self.proxy = FindingsFilter(self)
        self.proxy.setSourceModel(self.model)
        self._quiet = False

        self.title = live(title_label(""), M("Findings"))
        self.counts = QLabel()
        self.counts.setTextFormat(Qt.RichText)
        self.counts.setWordWrap(True)  # a narrow pane (a laptop's, beside the video) wraps the counts
        self.filters_button = QToolButton()
        live(self.filters_button, M("Filters"))
        self.filters_button.setCheckable(True)
        live(self.filters_button, M("Show the filters: severity, kind, player, verdict"), "setToolTip")
        self.filters_button.setVisible(False)  # (a compact pane folds its filters behind it)
        self.filters_button.toggled.connect(lambda on: self.filters_box.setVisible(on or not self.model.compact))
        head = QHBoxLayout()
        head.addWidget(self.title)
        head.addSpacing(8)
        head.addWidget(self.counts, 1)
        head.addWidget(self.filters_button)

        # filters
        self.sev_boxes: dict[str, QCheckBox] = {}
        filters = FlowLayout(spacing=6)  # onto a second row when the pane is narrow
        for sev, text in (("error", M("errors")), ("warning", M("warnings")), ("info", M("info"))):
            box = live(QCheckBox(), text)
            box.setChecked(True)
            box.toggled.connect(lambda on, s=sev: self.proxy.set_severity(s, on) or self._after_filter())
            self.sev_boxes[sev] = box
            filters.addWidget(box)
        self.kind = QComboBox()
        self.kind.addItem("", "")
        live(self.kind, M("all kinds"), "setItemText", 0)
        for i, k in enumerate(Kind, 1):
            self.kind.addItem("", k.value)
            live(self.kind, lambda k=k: kind(k.value), "setItemText", i)
        self.kind.currentIndexChanged.connect(lambda _: self.proxy.set_kind(self.kind.currentData()) or
                                              self._after_filter())
        live(self.kind, M("Show only findings of one kind"), "setToolTip")
        filters.addWidget(self.kind)
        self.player_boxes: dict[str, QCheckBox] = {}
        for p, text in (("A", "A"), ("B", "B"), ("", "—")):
            box = QCheckBox(text)
            box.setChecked(True)
            live(box, M("findings on lines of player {player}", player=p) if p else
                 M("findings on lines of no player (structure lines, syntax)"), "setToolTip")
            box.toggled.connect(lambda on, p=p: self.proxy.set_player(p, on) or self._after_filter())
            self.player_boxes[p] = box
            filters.addWidget(box)
        self.verdict_filter = QComboBox()
        for i, (text, value) in enumerate(((M("any verdict"), "all"), (M("not reviewed"), "open"),
                                           (M("confirmed"), CONFIRMED), (M("dismissed"), DISMISSED))):
            self.verdict_filter.addItem("", value)
            live(self.verdict_filter, text, "setItemText", i)
        self.verdict_filter.currentIndexChanged.connect(
            lambda _: self.proxy.set_verdict(self.verdict_filter.currentData()) or self._after_filter())
        filters.addWidget(self.verdict_filter)

        self.view = FindingsView()
        self.view.setModel(self.proxy)
        self.view.setItemDelegateForColumn(FindingsModel.MESSAGE, WrappedTextDelegate(2, self.view))
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SingleSelection)
        self.view.setSortingEnabled(True)
        self.view.header().setSortIndicator(FindingsModel.LINE, Qt.AscendingOrder)
        self.view.setAllColumnsShowFocus(True)
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.Interactive)
        header.setSectionResizeMode(FindingsModel.MESSAGE, QHeaderView.Stretch)
        # narrow enough to leave the message room in a laptop's pane; never narrower than a title
        header.setMinimumSectionSize(44)
        self._fit_columns()
        self.view.selectionModel().currentRowChanged.connect(self._on_current)

        # the selected finding
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.RichText)
        self.detail.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.detail.setMinimumHeight(40)
        self.detail.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        self.detail.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Minimum)
        self.confirm = live(QPushButton(), M("&Confirm"))
        self.dismiss = live(QPushButton(), M("&Dismiss"))
        self.clear = live(QPushButton(), M("Clear"))
        for b, tip in ((self.confirm, M("The finding is right: the rules were broken here")),
                       (self.dismiss, M("The finding does not hold (e.g. the video shows otherwise)")),
                       (self.clear, M("Remove the verdict"))):
            live(b, tip, "setToolTip")
            b.setCheckable(b is not self.clear)
        self.verdict_group = QButtonGroup(self)
        self.verdict_group.setExclusive(False)
        self.confirm.clicked.connect(lambda: self._set_status(CONFIRMED if self.confirm.isChecked() else None))
        self.dismiss.clicked.connect(lambda: self._set_status(DISMISSED if self.dismiss.isChecked() else None))
        self.clear.clicked.connect(lambda: self._set_status(None, clear_note=True))
        self.note = QLineEdit()
        live(self.note, M("reviewer's note (Enter to save)"), "setPlaceholderText")
        self.note.setClearButtonEnabled(True)
        self.note.setMinimumWidth(150)  # "reviewer's note": readable beside the buttons in a laptop's pane
        self.note.editingFinished.connect(self._save_note)
        verdict_row = QHBoxLayout()
        verdict_row.addWidget(self.confirm)
        verdict_row.addWidget(self.dismiss)
        verdict_row.addWidget(self.clear)
        verdict_row.addWidget(self.note, 1)
        self.footer = live(QLabel(), M("n / Shift+N: next / previous finding"))
        self.footer.setObjectName("dim")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)
        layout.addLayout(head)
        self.filters_box = QWidget()
        self.filters_box.setLayout(filters)
        filters.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filters_box)
        layout.addWidget(self.view, 1)
        line = QFrame()
        line.setFrameShape(QFrame.HLine)
        line.setFrameShadow(QFrame.Sunken)
        layout.addWidget(line)
        # the selected finding in full; a compact pane gives it a few lines and scrolls the rest
        self.detail_scroll = QScrollArea()
        self.detail_scroll.setWidget(self.detail)
        self.detail_scroll.setWidgetResizable(True)
        self.detail_scroll.setFrameShape(QFrame.NoFrame)
        self.detail_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.detail_scroll.setSizeAdjustPolicy(QScrollArea.AdjustToContents)
        layout.addWidget(self.detail_scroll)
        layout.addLayout(verdict_row)
        layout.addWidget(self.footer)
        self._set_verdict_enabled(False)
        self._update_counts()

    #: narrower than this, the list is compact: the severity dot, the line, and "[rule] message" wrapped
    COMPACT_WIDTH = 640

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.set_compact(self.width() < self.COMPACT_WIDTH)

    def set_compact(self, on: bool) -> None:
        """A narrow pane (a laptop's) shows the severity as its dot, the line and the rule id with the
        message wrapped on two lines; Player, Rule and Verdict come back when the pane is wide."""
        if on == self.model.compact and self.view.isColumnHidden(FindingsModel.RULE) == on:
            return
        self.model.set_compact(on)
        for col in (FindingsModel.PLAYER, FindingsModel.RULE, FindingsModel.VERDICT):
            self.view.setColumnHidden(col, on)
        self.view.header().setMinimumSectionSize(26 if on else 44)
        self.view.setColumnWidth(FindingsModel.SEVERITY, 30 if on else 78)
        self.view.setColumnWidth(FindingsModel.LINE, 48 if on else 52)
        self.footer.setVisible(not on)  # (the legend, F1, lists n / Shift+N)
        self.filters_button.setVisible(on)
        self.filters_box.setVisible(not on or self.filters_button.isChecked())
        lines = self.detail.fontMetrics().lineSpacing()
        self.detail_scroll.setMaximumHeight(5 * lines + 10 if on else 16777215)
        self._update_counts()

    # ---- feeding ----------------------------------------------------------------------------------
    def set_document(self, doc: Document | None, reviews: Reviews | None) -> None:
        self._quiet = True
        try:
            self.model.set_document(doc, reviews)  # sorted as the header says
        finally:
            self._quiet = False
        self._update_counts()
        self._show_detail(-1)

    def update_document(self, doc: Document, reviews: Reviews | None, *, same: bool) -> None:
        """A re-check of the text being edited: ``same`` findings keep the table as it is (rows,
        order, filters and selection), only the document behind it changes."""
        if not same or reviews is not self.model.reviews or self.model.doc is None:
            self.set_document(doc, reviews)
            return
        self.model.doc = doc

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.model.set_theme(theme)
        self._update_counts()
        self._show_detail(self.current_row())

    #: the columns' first widths (a column is wider when its title needs it: プレイヤー, Schwere)
    WIDTHS = ((0, 78), (1, 52), (2, 46), (3, 140), (5, 90))

    def _fit_columns(self) -> None:
        fm = self.view.header().fontMetrics()
        for col, width in self.WIDTHS:
            if self.model.compact and col in (FindingsModel.SEVERITY, FindingsModel.LINE):
                continue
            title = self.model.headerData(col, Qt.Horizontal) or ""
            # the title and the header's margins (and, on Line, the sort arrow's room)
            need = fm.horizontalAdvance(title) + 9 + (16 if col == FindingsModel.LINE else 0)
            self.view.setColumnWidth(col, max(width, need))

    def retranslate(self) -> None:
        """The window's language changed: the headers, the findings' messages, the counts, the detail."""
        self.model.retranslate()
        self._fit_columns()
        self._update_counts()
        self._show_detail(self.current_row())

    # ---- selection --------------------------------------------------------------------------------
    def current_row(self) -> int:
        """The finding index ``k`` of the current finding (-1: none)."""
        idx = self.view.currentIndex()
        if not idx.isValid():
            return -1
        return self.proxy.finding_at(idx.row())

    def select_finding(self, row: int, *, emit: bool = False) -> bool:
        """Make finding ``row`` (its index in the document) current; False if the filters hide it."""
        if row < 0:
            self._quiet = True
            try:
                self.view.selectionModel().clearSelection()
                self.view.setCurrentIndex(QModelIndex())
            finally:
                self._quiet = False
            self._show_detail(-1)
            return False
        proxy_row = self.proxy.proxy_row_of(row)
        if proxy_row < 0:
            self._show_detail(row)
            return False
        self._quiet = not emit
        try:
            idx = self.proxy.index(proxy_row, 0)
            self.view.selectionModel().setCurrentIndex(
                idx, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows)
            self.view.scrollTo(idx)
        finally:
            self._quiet = False
        self._show_detail(row)
        return True

    def rows_in_order(self) -> list[int]:
        """Model rows of the findings shown, in the view's order."""
        return [self.proxy.finding_at(r) for r in range(self.proxy.rowCount())]

    def step(self, direction: int, line: int) -> int:
        """The model row of the next (+1) / previous (-1) shown finding after / before ``line`` (by line
        order), starting from the current finding when there is one. -1 when there is none."""
        doc = self.model.doc
        if doc is None:
            return -1
        rows = sorted(self.rows_in_order(), key=lambda r: (doc.findings[r].span.line, doc.findings[r].span.column, r))
        if not rows:
            return -1
        current = self.current_row()
        if current in rows and doc.findings[current].span.line == line:
            k = rows.index(current) + direction
            return rows[k] if 0 <= k < len(rows) else -1
        if direction > 0:
            after = [r for r in rows if doc.findings[r].span.line > line]
            return after[0] if after else -1
        before = [r for r in rows if doc.findings[r].span.line < line]
        return before[-1] if before else -1

    def _on_current(self, current: QModelIndex, previous: QModelIndex) -> None:
        row = self.proxy.finding_at(current.row()) if current.isValid() else -1
        self._show_detail(row)
        if not self._quiet and row >= 0:
            self.findingActivated.emit(row)

    # ---- details and verdicts -----------------------------------------------------------------------
    def _set_verdict_enabled(self, on: bool) -> None:
        for w in (self.confirm, self.dismiss, self.clear, self.note):
            w.setEnabled(on)

    def _show_detail(self, row: int) -> None:
        t = self.theme
        f = self.model.finding(row)
        self._set_verdict_enabled(f is not None and self.model.reviews is not None)
        if f is None:
            self.detail.setText(f"<span style='color:{t.dim}'>"
                                + html_text(tr("Select a finding to see its rule, hint and citation, and to "
                                               "record a verdict.")) + "</span>")
            for b in (self.confirm, self.dismiss):
                b.setChecked(False)
            self.note.setText("")
            return
        c = t.severity[f.severity.value]
        f = self.model.shown(row)  # in the window's language
        where = html_text(tr("line {line}", line=f.span.line))
        text = (f"<b>{where}</b> &nbsp;<span style='color:{c}'><b>"
                f"{html_text(severity(f.severity.value))}</b></span>"
                f" <code>[{html_text(f.rule)}]</code> <span style='color:{t.dim}'>{html_text(kind(f.kind.value))}"
                f"</span><br>{html_text(f.message)}")
        if f.hint:
            text += f"<br><span style='color:{t.dim}'>{html_text(label('hint'))}:</span> {html_text(f.hint)}"
        if f.cite:
            text += f"<br><span style='color:{t.dim}'>{html_text(label('cite'))}:</span> <i>{html_text(f.cite)}</i>"
        self.detail.setText(text)
        v = self.model.verdict(row)
        self.confirm.setChecked(v.status == CONFIRMED)
        self.dismiss.setChecked(v.status == DISMISSED)
        if not self.note.hasFocus() or self.note.property("row") != row:
            self.note.setText(v.note)
        self.note.setProperty("row", row)

    def _record(self, row: int, status: str | None, note: str | None) -> None:
        from ...reviews import ReviewStoreError

        try:
            self.model.set_verdict(row, status, note)
        except (ReviewStoreError, OSError) as e:
            self.storeFailed.emit(str(e))
            return
        if self.proxy.state.verdict != "all":
            self._quiet = True
            try:
                self.proxy.refilter()
            finally:
                self._quiet = False
        self._update_counts()
        self._show_detail(row)
        self.verdictChanged.emit(row)

    def _set_status(self, status: str | None, clear_note: bool = False) -> None:
        row = self.current_row()
        if row < 0:
            return
        note = "" if clear_note else self.note.text()
        self._record(row, status, note)

    def set_verdict(self, status: str | None, note: str | None = None) -> None:
        """Record a verdict on the current finding (menu actions, tests)."""
        row = self.current_row()
        if row >= 0:
            self._record(row, status, self.note.text() if note is None else note)

    def _save_note(self) -> None:
        row = self.note.property("row")
        if row is None or row < 0 or self.model.finding(row) is None:
            return
        v = self.model.verdict(row)
        if self.note.text().strip() != v.note:
            self._record(row, v.status, self.note.text())

    # ---- counts --------------------------------------------------------------------------------------
    def _after_filter(self) -> None:
        self._update_counts()

    def _update_counts(self) -> None:
        t = self.theme
        doc = self.model.doc
        if doc is None:
            said = html_text(tr("no log open"))
            self.counts.setText(f"<span style='color:{t.dim}'>{said}</span>")
            self.view.set_empty_text(tr("no log open"))
            return
        self.view.set_empty_text(tr("no findings") if not doc.findings else
                                 tr("no findings match the filters") if not self.proxy.rowCount() else "")
        c = doc.counts()
        pc = doc.player_counts()

        words = {"error": (M("{n} error"), M("{n} errors")), "warning": (M("{n} warning"), M("{n} warnings")),
                 "info": (M("{n} info"), M("{n} info"))}

        def dot(sev: str, n: int, word: str) -> str:
            color = t.severity[sev] if n else t.dim
            said = html_text(plural(n, *words[word], grouped=False)).replace(" ", "&nbsp;")
            return f"<span style='color:{color}'>●</span>&nbsp;{said}"

        reviewed = sum(1 for k in range(len(doc.findings)) if self.model.verdict(k).status)
        if self.model.compact:  # one line: the dots' colours say the severities (the tooltip says it in words)
            def dot(sev: str, n: int, word: str) -> str:  # noqa: F811
                color = t.severity[sev] if n else t.dim
                return f"<span style='color:{color}'>●</span>&nbsp;{n}"
        parts = [dot("error", c["error"], "error"), dot("warning", c["warning"], "warning"),
                 dot("info", c["info"], "info")]
        # (a narrow pane wraps the counts between the groups, never inside one)
        players = f"A:&nbsp;{pc.get('A', 0)} &nbsp; B:&nbsp;{pc.get('B', 0)}"
        if pc.get(None):
            players += f" &nbsp; —:&nbsp;{pc[None]}"
        shown = self.proxy.rowCount()
        total = len(doc.findings)
        def nbsp(text: str) -> str:
            return html_text(text).replace(" ", "&nbsp;")

        extra = (" &nbsp;·&nbsp; " + nbsp(tr("shown {shown} of {total}", shown=shown, total=total))
                 if shown != total else "")
        self.counts.setToolTip(tr("{errors} errors, {warnings} warnings, {infos} info; A: {a}, B: {b}; "
                                  "{reviewed} of {total} reviewed", errors=c["error"], warnings=c["warning"],
                                  infos=c["info"], a=pc.get("A", 0), b=pc.get("B", 0), reviewed=reviewed,
                                  total=total))
        done = nbsp(tr("{reviewed}/{total} reviewed", reviewed=reviewed, total=total))
        if self.model.compact:
            self.counts.setText(" &nbsp; ".join(parts) + " &nbsp;·&nbsp; " + done + extra)
            return
        self.counts.setText(" &nbsp; ".join(parts) + f" &nbsp;·&nbsp; {players} &nbsp;·&nbsp; " + done + extra)
