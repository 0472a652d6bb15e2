"""Issue 24, the window: English, Japanese and German (replayer/gui/language.py, the catalog
replayer/gui/locale/<lang>/LC_MESSAGES/replayer-gui.po).

- a window opened in Japanese has Japanese menus, pane titles, findings headers, and the findings'
  messages from the catalogs (the rules' words: ダメージ計算前), the bands' words too;
- View ▸ Language switches at once, keeping the open log, the selection and unsaved typing;
- the choice is kept in the settings for the next window; ``--lang`` / REPLAYER_LANG comes first;
- Qt's own buttons follow (its qtbase translations), when PySide6 has them.

The catalogs' completeness (every msgid translated, the same placeholders) is tests/test_i18n.py's.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QLibraryInfo, Qt
from PySide6.QtWidgets import QDialogButtonBox

from replayer.gui.shared import language
from replayer.gui.shared.models import FindingsModel

from ..conftest import line_of, open_and_wait, YGO_LOG

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def menu_titles(window) -> list[str]:
    return [a.menu().title() for a in window.menuBar().actions() if a.menu() is not None]


def header(window) -> list[str]:
    model = window.findings.model
    return [model.headerData(c, Qt.Horizontal) for c in range(model.columnCount())]


def message_of(window, k: int) -> str:
    """The Message column of finding ``k`` (less the ``[rule]`` a narrow pane writes before it)."""
    proxy = window.findings.proxy
    row = proxy.proxy_row_of(k)
    return re.sub(r"^\[[^\]]*\] ", "", proxy.index(row, FindingsModel.MESSAGE).data())


@pytest.fixture
def new_window(qtbot):
    from replayer.gui.app import MainWindow

    made = []

    def make():
        w = MainWindow(theme="light")
        qtbot.add_widget(w)
        w.resize(1280, 720)
        w.show()
        qtbot.waitExposed(w)
        made.append(w)
        return w

    yield make
    for w in made:
        w.loader.wait(10_000)


def test_a_window_opened_in_japanese_speaks_japanese(monkeypatch, new_window, qtbot, ygo_log):
    monkeypatch.setenv("REPLAYER_LANG", "ja")
    w = new_window()
    doc = open_and_wait(qtbot, w, ygo_log)
    assert menu_titles(w)[:5] == ["ファイル(&F)", "編集(&E)", "表示(&V)", "審査(&R)", "ヘルプ(&H)"]
    assert w.timeline_title.text().startswith("タイムライン")
    assert w.log_title.text() == "ログ  (match.duel)"
    assert w.findings.title.text() == "指摘"
    assert w.side.tabText(0) == "状態"
    assert header(w) == ["", "行", "プレイヤー", "ルール", "内容", "判定"] or \
        header(w) == ["重大度", "行", "プレイヤー", "ルール", "内容", "判定"]
    # a finding's message: the catalog's, in the rules' words
    k = next(i for i, f in enumerate(doc.findings) if f.text is not None and f.kind.value != "syntax")
    shown = message_of(w, k)
    assert shown == doc.findings[k].in_language("ja", doc.result.hint_words).message
    assert shown != doc.findings[k].message and JAPANESE.search(shown)
    # the State pane and the status bar too
    w.select_line(line_of(YGO_LOG, "timing before-calc"))
    assert w.state.title.text().endswith("行目の後の状態") or "行目の後の状態" in w.state.title.text()
    rows = [n.label for n in w.state.model.nodes]
    assert "ターン" in rows and "場面" in rows
    where = next(n.value for n in w.state.model.nodes if n.label == "場面")
    assert "ダメージ計算前" in where  # (the glossary's word for before-calc)


def test_the_bands_and_the_legend_speak_the_window_language(monkeypatch, new_window, qtbot, ygo_log):
    from replayer.gui.legend.dialog import LegendDialog, window_keys

    monkeypatch.setenv("REPLAYER_LANG", "de")
    w = new_window()
    open_and_wait(qtbot, w, ygo_log)
    w.timeline.zoom(8)
    w.timeline.center_on(w.doc.events.index(next(e for e in w.doc.events if e.kind == "timing")))
    w.timeline.viewport().repaint()
    shown = {text for _, text, _, _ in w.timeline.painted_bands}
    assert shown & {"Beginn des Damage Steps", "DS-Beginn", "vor der Schadensberechnung", "vor Berechnung"}
    groups = {g for g, _, _ in window_keys(w)}
    assert {"Datei", "Ansicht", "Prüfung", "Zeitleiste"} <= groups
    dlg = LegendDialog(w.theme, w)
    qtbot.add_widget(dlg)
    assert dlg.windowTitle() == "Legende"
    assert [dlg.tabs.tabText(i) for i in range(dlg.tabs.count())] == ["Marken und Farben", "Tasten"]


def test_switching_the_language_keeps_the_log_the_selection_and_the_typing(new_window, qtbot, ygo_log):
    w = new_window()
    doc = open_and_wait(qtbot, w, ygo_log)
    line = line_of(YGO_LOG, "timing before-calc")
    w.select_line(line)
    current = w.current
    k = next(i for i, f in enumerate(doc.findings) if f.text is not None and f.kind.value != "syntax")
    english = message_of(w, k)
    assert menu_titles(w)[0] == "&File" and header(w)[1] == "Line"
    w.editor.start()
    w.log_pane.view.textCursor().insertText("# typed, not saved\n")
    typed = w.log_pane.view.toPlainText()

    w.language_actions["ja"].trigger()
    assert language.lang() == "ja"
    assert w.language_actions["ja"].isChecked()
    assert menu_titles(w)[0] == "ファイル(&F)"
    assert w.act_open.text() == "開く(&O)…" and w.act_open.toolTip() == "対戦ログを開く"
    assert header(w)[1] == "行"
    assert message_of(w, k) != english and JAPANESE.search(message_of(w, k))
    assert w.timeline_title.text().startswith("タイムライン")
    assert "編集中" in w.log_title.text()
    assert "イベント" in w.statusBar().currentMessage()  # the counts, said again
    # nothing lost: the document, the selection, the text being typed (still unsaved)
    assert w.doc is doc and w.current == current
    assert w.log_pane.view.toPlainText() == typed and w.log_pane.view.document().isModified()
    assert w.editor.editing()

    w.language_actions["de"].trigger()
    assert menu_titles(w)[0] == "&Datei" and header(w)[1] == "Zeile"
    w.language_actions["en"].trigger()
    assert menu_titles(w)[0] == "&File" and header(w)[1] == "Line"
    assert message_of(w, k) == english


def test_the_choice_is_kept_for_the_next_window(monkeypatch, new_window):
    monkeypatch.delenv("REPLAYER_LANG", raising=False)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.setenv(var, "C") if var == "LANG" else monkeypatch.delenv(var, raising=False)
    w = new_window()
    assert language.lang() == "en"  # (the locale's: C is English)
    w.language_actions["de"].trigger()
    w.close()
    language.reset()  # a new start of replayer
    again = new_window()
    assert language.lang() == "de"
    assert menu_titles(again)[0] == "&Datei"
    assert again.language_actions["de"].isChecked()


def test_lang_and_replayer_lang_come_before_the_setting(monkeypatch, new_window):
    w = new_window()
    w.settings.setValue(language.SETTING, "de")
    w.close()
    language.reset()
    monkeypatch.setenv("REPLAYER_LANG", "ja")
    assert menu_titles(new_window())[0] == "ファイル(&F)"
    language.reset()
    monkeypatch.delenv("REPLAYER_LANG")
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert menu_titles(new_window())[0] == "&Datei"  # the setting before the locale


def test_the_choice_without_a_setting_is_the_locale(monkeypatch, new_window):
    monkeypatch.delenv("REPLAYER_LANG")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert menu_titles(new_window())[0] == "&Datei"


@pytest.mark.skipif(not any(p.name.startswith("qtbase_ja")
                            for p in __import__("pathlib").Path(QLibraryInfo.path(QLibraryInfo.TranslationsPath)).glob("*.qm")),
                    reason="PySide6 ships no qtbase translations here")
def test_qts_own_buttons_follow(new_window, qtbot):
    w = new_window()
    w.set_language("ja")
    box = QDialogButtonBox(QDialogButtonBox.Close)
    qtbot.add_widget(box)
    assert box.button(QDialogButtonBox.Close).text() == "閉じる"
    w.set_language("en")
    box = QDialogButtonBox(QDialogButtonBox.Close)
    qtbot.add_widget(box)
    assert box.button(QDialogButtonBox.Close).text().replace("&", "") == "Close"


def test_the_timeline_names_cards_in_the_window_language(monkeypatch, new_window, qtbot, ygo_log):
    monkeypatch.setenv("REPLAYER_LANG", "ja")
    w = new_window()
    doc = open_and_wait(qtbot, w, ygo_log)
    i = next(i for i, e in enumerate(doc.events) if e.kind == "attack")
    assert doc.label(i) == "Lyla, Lightsworn Sorceress → Blue-Eyes White Dragon"  # (English: as the log writes)
    assert doc.label(i, "ja") == "ライトロード・マジシャン ライラ → 青眼の白龍"  # the catalog's Japanese names
    assert doc.label(i, "de") == "Lyla, Lightsworn Sorceress → Weißer Drache mit eiskaltem Blick"
    mystery = next(i for i, e in enumerate(doc.events) if e.kind == "set")
    assert doc.label(mystery, "ja") == "セット Zz Mystery Card"  # (not in the catalog: as written)


def test_the_legend_writes_japanese_entries_without_their_mnemonics(monkeypatch, new_window):
    from replayer.gui.legend.dialog import window_keys

    monkeypatch.setenv("REPLAYER_LANG", "ja")
    rows = window_keys(new_window())
    whats = {keys: what for _, keys, what in rows}
    assert whats["Ctrl+Q"] == "終了" and whats["Ctrl+Z"] == "元に戻す"
    assert not any(re.search(r"\((&?)[A-Z]\)", what) for what in whats.values())
    groups = [g for g, _, _ in rows]
    assert "ファイル" in groups and not any("(" in g for g in groups)


def test_what_the_core_says_in_the_window_follows_its_language(new_window):
    """An error raised in the window's process (the library's, a review file's) and an import's
    outcome are rendered by the core in its chosen language: the window's switch chooses it."""
    from replayer import i18n
    from replayer.errors import LibraryDamaged

    w = new_window()
    w.language_actions["de"].trigger()
    assert i18n.current() == "de"
    assert "die Bibliothek ist beschädigt" in str(LibraryDamaged("x.db", "e", "ok"))
    w.language_actions["en"].trigger()
    assert "the library is damaged" in str(LibraryDamaged("x.db", "e", "ok"))
    language.reset()
    assert i18n._chosen is None  # (a new start chooses again: --lang, REPLAYER_LANG, the setting)
