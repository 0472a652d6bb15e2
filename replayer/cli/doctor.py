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


def report(env=os.environ) -> tuple[list[str], int]:
    """The lines ``replayer doctor`` prints, and how many problems they name."""
    from importlib import metadata  # here: every other command would pay for importing it

    from .. import games, store
    from ..gui import preflight

    lines: list[str] = []
    problems = 0

    def problem(text: str) -> None:
        nonlocal problems
        problems += 1
        lines.append(f"  ! {text}")

    try:
        version = metadata.version("replayer")
    except metadata.PackageNotFoundError:
        version = "(not installed: run from a checkout)"
    lines += [f"replayer {version}", f"  Python {platform.python_version()} at {sys.executable}",
              f"  {platform.platform()}"]
    if sys.prefix == sys.base_prefix:
        lines.append("  not in a virtual environment (the README installs into one: python3 -m venv .venv)")

    lines.append("Qt")
    pyside = preflight.pyside_dir()
    if pyside is None:
        problem("PySide6 is not installed: `replayer view` cannot open the window (pip install -e '.[video]')")
    else:
        try:
            pyside_version = metadata.version("PySide6-Essentials")
        except metadata.PackageNotFoundError:
            pyside_version = "?"
        lines.append(f"  PySide6 {pyside_version} at {pyside}")
        plugin = preflight.xcb_plugin()
        if sys.platform.startswith("linux"):
            if plugin is None:
                problem("Qt's X11 platform plugin (platforms/libqxcb.so) is missing from PySide6")
            else:
                missing = preflight.ldd_missing(plugin)
                if missing is None:
                    lines.append("  X11 platform plugin: found (ldd is not there to check its libraries)")
                elif missing:
                    packages = " ".join(dict.fromkeys(preflight.debian_package(s) for s in missing))
                    problem(f"the X11 platform plugin lacks {', '.join(missing)}: sudo apt install {packages}")
                else:
                    lines.append("  X11 platform plugin: every library it needs is there")
        display = env.get("DISPLAY")
        if env.get("QT_QPA_PLATFORM"):
            lines.append(f"  QT_QPA_PLATFORM={env['QT_QPA_PLATFORM']}")
        if display:
            answers = preflight.display_answers(display)
            if answers is False:
                problem(f"DISPLAY={display} does not answer: `replayer view` prints the findings as text")
            else:
                lines.append(f"  DISPLAY={display}" + (": answers" if answers else ""))
        elif env.get("WAYLAND_DISPLAY"):
            lines.append(f"  WAYLAND_DISPLAY={env['WAYLAND_DISPLAY']}")
        elif sys.platform.startswith("linux"):
            lines.append("  no display (DISPLAY is not set): `replayer view` prints the findings as text; "
                         "--screenshot still works")

    lines.append("Fonts")
    fonts = japanese_fonts()
    if fonts is None:
        lines.append("  fc-list is not there: cannot tell which fonts cover Japanese")
    elif fonts:
        lines.append(f"  Japanese: {', '.join(fonts[:4])}{' …' if len(fonts) > 4 else ''}")
    else:
        problem("no font covers Japanese: Japanese card names show as boxes (sudo apt install fonts-noto-cjk)")

    lines.append("Data")
    db = store.default_library_path()
    lines.append(f"  data folder: {db.parent}" + ("" if db.parent.is_dir() else " (not made yet)"))
    library = Path(env["REPLAYER_LIBRARY"]) if env.get("REPLAYER_LIBRARY") else db
    if library.is_file():
        try:
            import sqlite3

            with sqlite3.connect(f"file:{library}?mode=ro", uri=True) as conn:
                matches = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
            lines.append(f"  library: {library}, {_size(library)}, {matches:,} matches")
        except Exception as e:  # a library we cannot read is worth saying, not a traceback
            problem(f"library {library} cannot be read: {e}")
    else:
        lines.append(f"  library: {library} (none yet: `replayer import DIR` makes it)")
    for game in games.ALL.values():
        file = game.catalog_file
        if file is not None and file.is_file():
            lines.append(f"  cards ({game.id}): {len(game.catalog):,} in {file}, {_size(file)}")
        else:
            problem(f"the {game.id} card catalog is missing")
    lines += card_database_lines(problem)

    lines.append("Video")
    lines += video_lines()
    lines.append("PDF pages (poppler)")
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm:
        lines.append(f"  pdftoppm: {pdftoppm} (the PDF layout tests look at the report's pages with it)")
    else:
        lines.append("  pdftoppm: not found: the PDF layout tests are skipped (reports are written all the same); "
                     "sudo apt install poppler-utils")
    lines.append("All is well." if not problems else f"{problems} problem{'s' if problems != 1 else ''} found.")
    return lines, problems


def card_database_lines(problem) -> list[str]:
    """Where the card database is, its cards per game, the files they came from and when."""
    import sqlite3
    import time

    from ..cards.layers import cards_db_path
    from ..safe import visible
    from ..textwidth import table

    path = cards_db_path()
    if path is None:
        return ["  card database: none wanted (REPLAYER_CARDS_DB is empty): only the built-in catalogs are used"]
    if not path.is_file():
        return [f"  card database: {path} (none yet: `replayer cards import ~/ProjectIgnis` reads an EDOPro "
                "install, or a YGOProDeck cardinfo.json; until then only the built-in catalogs judge cards)"]
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            per_game = conn.execute("SELECT game, count(*) FROM cards GROUP BY game ORDER BY game").fetchall()
            files = conn.execute("SELECT path, cards, mtime_ns FROM files ORDER BY path").fetchall()
    except sqlite3.Error as e:
        problem(f"card database {path} cannot be read: {e} (`replayer cards import` writes it again)")
        return []
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    counts = ", ".join(f"{game} {n:,}" for game, n in per_game) or "no cards"
    out = [f"  card database: {path}, {_size(path)}, last imported {when}: {counts}"]
    if files:  # the files read, each with the date it had (a newer download is worth importing again)
        rows = [["source", "file dated"]]
        for name, _n, mtime in files:
            dated = time.strftime("%Y-%m-%d", time.localtime(mtime / 1e9)) if mtime else "—"
            rows.append([visible(str(name)), dated])
        out += table(rows, indent="    ").split("\n")
    return out


def video_lines() -> list[str]:
    """The video extra (QtMultimedia with its FFmpeg backend), and what to do without it."""
    try:
        from ..gui.video_parts import quiet_multimedia

        quiet_multimedia()  # (its import names the optional libraries it did not find)
        from PySide6 import QtMultimedia  # noqa: F401
    except ImportError as e:
        text = str(e) or type(e).__name__
        if ".so" in text:
            return [f"  video pane: QtMultimedia is installed but a system library is missing ({text}): "
                    "sudo apt install libpulse0"]
        return ["  video pane: not installed (the window works without it): pip install -e '.[video]' "
                "(or pip install 'replayer[video]')"]
    from importlib import metadata

    try:
        version = metadata.version("PySide6-Addons")
    except metadata.PackageNotFoundError:
        version = "?"
    import PySide6

    plugins = Path(PySide6.__file__).parent / "Qt" / "plugins" / "multimedia"
    ffmpeg = sorted(plugins.glob("*ffmpeg*")) if plugins.is_dir() else []
    backend = f", FFmpeg backend {ffmpeg[0].name}" if ffmpeg else ", no FFmpeg backend found in Qt's plugins"
    return [f"  video pane: QtMultimedia (PySide6-Addons {version}){backend}"]


@click.command()
def doctor() -> None:
    """Print what replayer finds here: Qt and its platform plugin, fonts for Japanese, the data
    folder, the library, the card catalogs and the card database, the video extra and poppler.
    Exit status 1 when it names a problem."""
    lines, problems = report()
    click.echo("\n".join(lines))
    sys.exit(1 if problems else 0)
