"""``replayer doctor``: what replayer finds on this machine, for a user to help themselves.

Qt and its platform plugin (the libraries it lacks, whether the display answers), fonts for
Japanese, the data folder, the match library and the card catalogs, with sizes. Nothing here
starts Qt: a machine where the window would abort can still be looked at.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import click

from .. import i18n
from ..i18n import M, render


def _size(path: Path) -> str:
    n = path.stat().st_size
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:,} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return ""


def japanese_fonts() -> list[str] | None:
    """Font families that cover Japanese, by fontconfig (None: fc-list is not there)."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return None
    try:
        out = subprocess.run([fc_list, ":lang=ja", "family"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return sorted({line.split(",")[0].strip() for line in out.splitlines() if line.strip()})


def report(env=os.environ, lang: str | None = None) -> tuple[list[str], int]:
    """The lines ``replayer doctor`` prints (in ``lang``, else :func:`replayer.i18n.current`'s), and how
    many problems they name."""
    from importlib import metadata  # here: every other command would pay for importing it

    from .. import games, store
    from ..gui import preflight

    lang = lang or i18n.current()
    lines: list = []
    problems = 0

    def problem(text) -> None:
        nonlocal problems
        problems += 1
        lines.append(M("  ! {text}", text=text))

    try:
        version = metadata.version("replayer")
    except metadata.PackageNotFoundError:
        version = M("(not installed: run from a checkout)")
    lines += [M("replayer {version}", version=version),
              M("  Python {version} at {path}", version=platform.python_version(), path=sys.executable),
              f"  {platform.platform()}"]
    if sys.prefix == sys.base_prefix:
        lines.append(M("  not in a virtual environment (the README installs into one: python3 -m venv .venv)"))

    lines.append("Qt")
    pyside = preflight.pyside_dir()
    if pyside is None:
        problem(M("PySide6 is not installed: `replayer view` cannot open the window (pip install -e '.[video]')"))
    else:
        try:
            pyside_version = metadata.version("PySide6-Essentials")
        except metadata.PackageNotFoundError:
            pyside_version = "?"
        lines.append(M("  PySide6 {version} at {path}", version=pyside_version, path=str(pyside)))
        plugin = preflight.xcb_plugin()
        if sys.platform.startswith("linux"):
            if plugin is None:
                problem(M("Qt's X11 platform plugin (platforms/libqxcb.so) is missing from PySide6"))
            else:
                missing = preflight.ldd_missing(plugin)
                if missing is None:
                    lines.append(M("  X11 platform plugin: found (ldd is not there to check its libraries)"))
                elif missing:
                    packages = " ".join(dict.fromkeys(preflight.debian_package(s) for s in missing))
                    problem(M("the X11 platform plugin lacks {libraries}: sudo apt install {packages}",
                              libraries=", ".join(missing), packages=packages))
                else:
                    lines.append(M("  X11 platform plugin: every library it needs is there"))
        display = env.get("DISPLAY")
        if env.get("QT_QPA_PLATFORM"):
            lines.append(f"  QT_QPA_PLATFORM={env['QT_QPA_PLATFORM']}")
        if display:
            answers = preflight.display_answers(display)
            if answers is False:
                problem(M("DISPLAY={display} does not answer: `replayer view` prints the findings as text",
                          display=display))
            else:
                lines.append(M("  DISPLAY={display}: answers", display=display) if answers else f"  DISPLAY={display}")
        elif env.get("WAYLAND_DISPLAY"):
            lines.append(f"  WAYLAND_DISPLAY={env['WAYLAND_DISPLAY']}")
        elif sys.platform.startswith("linux"):
            lines.append(M("  no display (DISPLAY is not set): `replayer view` prints the findings as text; "
                           "--screenshot still works"))

    lines.append(M("Fonts"))
    fonts = japanese_fonts()
    if fonts is None:
        lines.append(M("  fc-list is not there: cannot tell which fonts cover Japanese"))
    elif fonts:
        lines.append(M("  Japanese: {fonts}", fonts=f"{', '.join(fonts[:4])}{' …' if len(fonts) > 4 else ''}"))
    else:
        problem(M("no font covers Japanese: Japanese card names show as boxes (sudo apt install fonts-noto-cjk)"))

    lines.append(M("Data"))
    db = store.default_library_path()
    lines.append(M("  data folder: {path}", path=str(db.parent)) if db.parent.is_dir()
                 else M("  data folder: {path} (not made yet)", path=str(db.parent)))
    library = Path(env["REPLAYER_LIBRARY"]) if env.get("REPLAYER_LIBRARY") else db
    if library.is_file():
        try:
            import sqlite3

            with sqlite3.connect(f"file:{library}?mode=ro", uri=True) as conn:
                matches = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
            lines.append(M("  library: {path}, {size}, {n} matches", path=str(library), size=_size(library),
                           n=f"{matches:,}"))
        except Exception as e:  # a library we cannot read is worth saying, not a traceback
            problem(M("library {path} cannot be read: {error}", path=str(library), error=str(e)))
    else:
        lines.append(M("  library: {path} (none yet: `replayer import DIR` makes it)", path=str(library)))
    for game in games.ALL.values():
        file = game.catalog_file
        if file is not None and file.is_file():
            lines.append(M("  cards ({game}): {n} in {path}, {size}", game=game.id, n=f"{len(game.catalog):,}",
                           path=str(file), size=_size(file)))
        else:
            problem(M("the {game} card catalog is missing", game=game.id))
    lines += card_database_lines(problem)

    lines.append(M("Video"))
    lines += video_lines()
    lines.append(M("PDF pages (poppler)"))
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm:
        lines.append(M("  pdftoppm: {path} (the PDF layout tests look at the report's pages with it)", path=pdftoppm))
    else:
        lines.append(M("  pdftoppm: not found: the PDF layout tests are skipped (reports are written all the same); "
                       "sudo apt install poppler-utils"))
    lines.append(M("All is well.") if not problems else
                 M("{n} problem found.", n=problems) if problems == 1 else M("{n} problems found.", n=problems))
    return [render(line, lang) for line in lines], problems


def card_database_lines(problem) -> list:
    """Where the card database is, its cards per game, the files they came from and when."""
    import sqlite3
    import time

    from ..cards.layers import cards_db_path
    from ..safe import visible
    from ..textwidth import table

    path = cards_db_path()
    if path is None:
        return [M("  card database: none wanted (REPLAYER_CARDS_DB is empty): only the built-in catalogs are used")]
    if not path.is_file():
        return [M("  card database: {path} (none yet: `replayer cards import ~/ProjectIgnis` reads an EDOPro "
                  "install, or a YGOProDeck cardinfo.json; until then only the built-in catalogs judge cards)",
                  path=str(path))]
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            per_game = conn.execute("SELECT game, count(*) FROM cards GROUP BY game ORDER BY game").fetchall()
            files = conn.execute("SELECT path, cards, mtime_ns FROM files ORDER BY path").fetchall()
    except sqlite3.Error as e:
        problem(M("card database {path} cannot be read: {error} (`replayer cards import` writes it again)",
                  path=str(path), error=str(e)))
        return []
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    counts = ", ".join(f"{game} {n:,}" for game, n in per_game) or M("no cards")
    out: list = [M("  card database: {path}, {size}, last imported {when}: {counts}", path=str(path),
                   size=_size(path), when=when, counts=counts)]
    if files:  # the files read, each with the date it had (a newer download is worth importing again)
        lang = i18n.current()
        rows = [[M("source").render(lang), M("file dated").render(lang)]]
        for name, _n, mtime in files:
            dated = time.strftime("%Y-%m-%d", time.localtime(mtime / 1e9)) if mtime else "—"
            rows.append([visible(str(name)), dated])
        out += table(rows, indent="    ").split("\n")
    return out


def video_lines() -> list[str]:
    """The video extra (QtMultimedia with its FFmpeg backend), and what to do without it."""
    try:
        from ..gui.video.parts import quiet_multimedia

        quiet_multimedia()  # (its import names the optional libraries it did not find)
        from PySide6 import QtMultimedia  # noqa: F401
    except ImportError as e:
        text = str(e) or type(e).__name__
        if ".so" in text:
            return [M("  video pane: QtMultimedia is installed but a system library is missing ({error}): "
                      "sudo apt install libpulse0", error=text)]
        return [M("  video pane: not installed (the window works without it): pip install -e '.[video]' "
                  "(or pip install 'replayer[video]')")]
    from importlib import metadata

    try:
        version = metadata.version("PySide6-Addons")
    except metadata.PackageNotFoundError:
        version = "?"
    import PySide6

    plugins = Path(PySide6.__file__).parent / "Qt" / "plugins" / "multimedia"
    ffmpeg = sorted(plugins.glob("*ffmpeg*")) if plugins.is_dir() else []
    if ffmpeg:
        return [M("  video pane: QtMultimedia (PySide6-Addons {version}), FFmpeg backend {backend}", version=version,
                  backend=ffmpeg[0].name)]
    return [M("  video pane: QtMultimedia (PySide6-Addons {version}), no FFmpeg backend found in Qt's plugins",
              version=version)]


@click.command(help=M("""Print what replayer finds here: Qt and its platform plugin, fonts for Japanese, the data
    folder, the library, the card catalogs and the card database, the video extra and poppler.
    Exit status 1 when it names a problem.""").text)
def doctor() -> None:
    lines, problems = report()
    click.echo("\n".join(lines))
    sys.exit(1 if problems else 0)
