"""Issue 24, the report and the rest of the CLI: the review report (HTML and PDF), `replayer rules`,
the library's search and stats, and the commands' help in Japanese and German; English as before
(the report goldens of tests/export/test_report.py and the hashes of tests/test_i18n.py hold that)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer import i18n
from replayer.check import check_file
from replayer.cli import cli
from replayer.export.report import paper_words, report_html
from replayer.textwidth import width

ROOT = Path(__file__).resolve().parents[2]
HONEST = ROOT / "samples" / "ygo" / "honest-in-calc.duel"  # an ATK changer during damage calculation
DM = ROOT / "samples" / "dm" / "rulings" / "unblockable-by-power-illegal.duel"
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
ENGLISH_HEADINGS = ("Review report", "Match", "Summary", "Findings", "Notes in the log", "Other header tags",
                    "Line", "Finding", "Verdict", "Note", "Players", "Reviewer", "not reviewed", "hint:", "cite:")


@pytest.fixture(autouse=True)
def _english_by_default(monkeypatch):
    monkeypatch.setenv(i18n.ENV, "en")
    yield
    i18n.use(None)


def _run(*args: str, env: dict | None = None):
    # (--lang sets REPLAYER_LANG for the process and what it starts: the runner puts it back after)
    result = CliRunner().invoke(cli, list(args), env={i18n.ENV: "en", **(env or {})}, catch_exceptions=False)
    i18n.use(None)
    return result


def _headings(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<(?:h1|h2|th)[^>]*>(.*?)</(?:h1|h2|th)>", html)]


# ---- the report ---------------------------------------------------------------------------------
@pytest.mark.parametrize("for_pdf", [False, True])
def test_the_japanese_report_says_the_official_terms_and_no_english_heading(for_pdf):
    html = report_html(check_file(str(HONEST)), None, for_pdf=for_pdf, lang="ja")
    assert html.count("<html lang='ja'>") == 1
    assert "ダメージ計算前" in html and "ダメージ計算時" in html  # the finding, in the OCG rulebook's words
    assert "ダメージステップ開始時" in html
    assert "《オネスト》" in html  # the card by its name in the catalog's Japanese
    heads = _headings(html)
    assert "指摘" in heads and "概要" in heads and "判定" in heads
    header_tags = {"A", "B"}  # (the players' sides, as the notation names them)
    assert not [h for h in heads if h not in header_tags and not JAPANESE.search(h) and h != "#"
                and not h.endswith(".duel")], heads
    for english in ENGLISH_HEADINGS:
        assert f">{english}<" not in html and f">{english}: " not in html, english
    assert "未審査" in html and "ヒント" in html and "出典" in html


@pytest.mark.parametrize("for_pdf", [False, True])
def test_the_german_report_says_the_rulebooks_terms_and_no_english_heading(for_pdf):
    html = report_html(check_file(str(HONEST)), None, for_pdf=for_pdf, lang="de")
    assert "<html lang='de'>" in html
    assert "„vor der Schadensberechnung“" in html and "„während der Schadensberechnung“" in html
    assert "„Beginn des Damage Steps“" in html
    heads = _headings(html)
    assert "Befunde" in heads and "Zusammenfassung" in heads and "Urteil" in heads
    for english in ENGLISH_HEADINGS:
        assert f">{english}<" not in html and f">{english}: " not in html, english
    assert "nicht geprüft" in html and "Hinweis" in html and "Quelle" in html
    if not for_pdf:
        assert "<th>Spiel</th><td>ygo</td>" in html  # a header tag by what it is; its value as written
    # a citation stays in its source's language, with the label translated beside it
    assert "Yugipedia: Damage Step § Cards and effects that can be activated (Yugipedia" in html


def test_the_report_is_in_the_processs_language_when_none_is_given(monkeypatch):
    result = check_file(str(DM))
    monkeypatch.setenv(i18n.ENV, "ja")
    assert "<h2>指摘</h2>" in report_html(result, None)
    i18n.use("de")
    assert "<h2>Befunde</h2>" in report_html(result, None)
    assert "<h2>Findings</h2>" in report_html(result, None, lang="en")


def test_replayer_report_lang_writes_the_report_in_that_language(tmp_path):
    out = tmp_path / "r.html"
    assert _run("--lang", "de", "report", str(DM), "-o", str(out), "--db", str(tmp_path / "none.db")).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "<html lang='de'>" in page and "<h1>Prüfbericht: " in page and "<h2>Befunde</h2>" in page
    out_ja = tmp_path / "r-ja.html"
    _run("report", str(DM), "-o", str(out_ja), "--db", str(tmp_path / "none.db"), env={i18n.ENV: "ja"})
    assert "<h1>審査レポート：" in out_ja.read_text(encoding="utf-8")


def test_the_pdf_writers_words_are_in_the_reports_language():
    assert paper_words("en")["page"] == "page {page} of {pages}"
    assert paper_words("de")["page"] == "Seite {page} von {pages}"
    ja = paper_words("ja")
    assert "{page}" in ja["page"] and "{pages}" in ja["page"] and JAPANESE.search(ja["page"])
    assert JAPANESE.search(ja["continued"]) and JAPANESE.search(ja["dialog_of"])


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (Debian: poppler-utils) is not installed")
def test_the_pdf_jobs_worker_writes_the_page_numbers_in_the_language_it_is_handed(tmp_path):
    """The window's export process (python -m replayer.gui.report.job) is handed the words: its pages
    say "Seite 1 von 1" whatever the child's own environment says."""
    from replayer.export.report import pdf_parts

    html, title, footer = pdf_parts(check_file(str(HONEST)), None, lang="de")
    out = tmp_path / "job.pdf"
    request = {"html": html, "path": str(out), "title": title, "footer": footer, "units": None,
               "words": paper_words("de")}
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", i18n.ENV: "en"}
    done = subprocess.run([sys.executable, "-m", "replayer.gui.report.job"], input=json.dumps(request).encode(),
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, check=True).stdout.decode()
    assert "Seite 1 von 1" in text and "Prüfbericht" in text and "vor der Schadensberechnung" in text
    assert "page 1 of" not in text


# ---- rules --------------------------------------------------------------------------------------
def _rule_ids(text: str) -> list[str]:
    return re.findall(r"^  ((?:ygo|dm)\.[a-z0-9.-]+)\s", text, re.M)


@pytest.mark.parametrize("game", ["ygo", "dm"])
def test_rules_in_german_has_german_headings_and_the_same_rule_ids(game):
    english, german = _run("rules", game).output, _run("--lang", "de", "rules", game).output
    assert _rule_ids(german) == _rule_ids(english) and len(_rule_ids(english)) > 20
    assert "Regel-IDs:" in german and "Rule ids:" not in german
    if game == "ygo":
        head = german.splitlines()[2]
        assert head.split()[0] == "Effektklasse" and "before-calc" in head  # the notation's timing words stay
        assert "Pflichteffekte" in german and "Konterfallenkarten" in german
    else:
        assert "Angriffsdeklaration" in german and "kann geschehen:" in german


def test_rules_in_japanese_line_up_by_display_width():
    text = _run("--lang", "ja", "rules", "ygo").output
    lines = text.splitlines()
    table = lines[2:lines.index("", 2)]
    assert table[0].startswith("効果の分類")
    # the column of ds-start starts at the same display column on every row
    heads = [width(line[: line.index("ds-start")]) for line in table[:1]]
    cells = [width(re.match(r"^\S+\s+", line).group(0)) for line in table[2:]]
    assert set(cells) == set(heads), (heads, cells)


# ---- help -----------------------------------------------------------------------------------------
def test_help_in_japanese_from_lang_and_from_the_environment():
    shown = _run("--lang", "ja", "check", "--help").output
    assert "対戦ログをチェックします" in shown and "使い方：" in shown and "オプション" in shown
    assert "このメッセージを表示して終了します。" in shown and "Show this message" not in shown
    assert "Check match logs" not in shown
    from_env = _run("search", "--help", env={i18n.ENV: "ja"}).output
    assert "ライブラリから試合・指摘・メモを探します。" in from_env and "繰り返し可" in from_env
    german = _run("--help", env={i18n.ENV: "de"}).output
    assert "Befehle:" in german and "Aufruf:" in german
    # English help is as it was, and the translation did not stay behind
    english = _run("check", "--help").output
    assert "Check match logs: FILE or DIR" in english and "Usage:" in english and "使い方" not in english
    assert "Show this message and exit." in english  # (click keeps its --help option: made again in English)


def test_japanese_help_is_wrapped_by_display_width_and_english_as_before():
    shown = _run("--lang", "ja", "search", "--help", env={"COLUMNS": "80"}).output
    lines = shown.splitlines()
    assert max(width(line) for line in lines) <= 80, [line for line in lines if width(line) > 80]
    assert not [line for line in lines if line.strip() and line.strip()[0] in "、。）"], shown
    # a paragraph written on several lines in the catalog is one Japanese paragraph: no space inside
    assert "指摘の条件" in shown.replace("\n  ", "") and " 摘の条件" not in shown
    english = _run("search", "--help", env={"COLUMNS": "80"}).output
    assert "  Match filters (player, event, dates, table, round, game, text) choose" in english
    assert max(width(line) for line in english.splitlines()) <= 80


# ---- the library ------------------------------------------------------------------------------------
@pytest.fixture
def library(tmp_path):
    db = tmp_path / "lib.db"
    assert _run("import", "--db", str(db), "--no-progress", str(HONEST), str(DM)).exit_code == 0
    return db


def test_a_library_search_in_japanese_shows_the_finding_in_japanese(library):
    found = _run("--lang", "ja", "search", "--db", str(library), "--rule", "ygo.ds.atk-mod-after-calc").output
    line = next(x for x in found.splitlines() if "[ygo.ds.atk-mod-after-calc]" in x)
    assert "エラー[ygo.ds.atk-mod-after-calc]: 《オネスト》は攻撃力・守備力を直接変化させるため" in line
    assert "ダメージ計算前" in line
    english = _run("search", "--db", str(library), "--rule", "ygo.ds.atk-mod-after-calc").output
    assert "error[ygo.ds.atk-mod-after-calc]: \"Honest\" directly changes ATK/DEF" in english
    data = json.loads(_run("--lang", "de", "search", "--db", str(library), "--format", "json",
                           "--rule", "ygo.ds.atk-mod-after-calc").output)
    row = data["findings"][0]
    assert row["message_en"].startswith('"Honest" directly changes ATK/DEF') and "Schadensberechnung" in row["message"]
    assert row["rule"] == "ygo.ds.atk-mod-after-calc"


def test_stats_in_japanese_line_up(library):
    text = _run("--lang", "ja", "stats", "--db", str(library)).output
    assert "ルールごとの指摘" in text and "Findings per rule" not in text
    lines = text.splitlines()
    at = lines.index("ルールごとの指摘")
    table = lines[at + 1: lines.index("", at)]
    assert table[0].split() == ["ルール", "種類", "重大度", "指摘", "試合"]
    assert len({width(line) for line in table}) == 1, table  # the numbers end at one display column


# ---- the cards commands ---------------------------------------------------------------------------
def test_cards_speaks_japanese_and_german():
    ja = _run("--lang", "ja", "cards", "ygo", "Honest").output
    assert "（組み込みカタログ）" in ja and "種類：effect-monster" in ja and "レベル 4" in ja
    assert "ja: オネスト" in ja  # the names as they are, the property words as the notation has them
    de = _run("--lang", "de", "cards", "dm", "Zzzzzz-no-such-card")
    assert "replayer: keine dm-Karte passt zu 'Zzzzzz-no-such-card'" in de.output and de.exit_code == 1
