"""Japanese names without a Japanese font: said once, with the package (issue 14, point 3)."""

from __future__ import annotations

from replayer.gui.shared import fonts

from ..conftest import open_and_wait

JA_LOG = '[Game "dm"]\n[A "太郎"]\n[B "花子"]\nturn 3 A\nA: attack 《ボルシャック・ドラゴン》 -> player\nA: break 1\n'


def test_the_message_only_when_japanese_text_meets_no_font():
    assert fonts.missing_font_message(["A: attack 《ボルシャック》"], families=[]).endswith(
        "sudo apt install fonts-noto-cjk")
    assert fonts.missing_font_message(["A: attack 《ボルシャック》"], families=["Noto Sans CJK JP"]) is None
    assert fonts.missing_font_message(['A: attack "Bolshack Dragon"'], families=[]) is None


def test_the_window_says_it_once_in_the_status_bar_and_on_the_terminal(qtbot, window, tmp_path, monkeypatch,
                                                                        capsys):
    monkeypatch.setattr(fonts, "japanese_font_families", lambda: [])  # a machine without one
    monkeypatch.setattr(fonts, "_said", False)
    path = tmp_path / "ja.duel"
    path.write_text(JA_LOG, encoding="utf-8")
    open_and_wait(qtbot, window, path)
    assert "fonts-noto-cjk" in window.statusBar().currentMessage()
    assert capsys.readouterr().err.count("fonts-noto-cjk") == 1
    open_and_wait(qtbot, window, path)  # once a session, not at every file
    assert "fonts-noto-cjk" not in capsys.readouterr().err
