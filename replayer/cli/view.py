"""``replayer view``: the review window. PySide6 is imported only when the command runs, so
``replayer check`` stays quick and works where Qt is not installed."""

from __future__ import annotations

import os
import sys

import click

from ..cards.commands import cards_db_option
from .. import i18n
from ..i18n import M
from ..safe import visible


def _say(message) -> str:
    return message.render(i18n.current())


def _size(value: str) -> tuple[int, int]:
    try:
        w, h = value.lower().split("x")
        return max(int(w), 400), max(int(h), 300)
    except ValueError:
        raise click.BadParameter(_say(M("write the size as WIDTHxHEIGHT, e.g. 1600x1000"))) from None


@click.command(help=M("""Open the review window on FILE: timeline, log, findings and state.

    FILE may be FILE:LINE or FILE:LINE:COL (as `replayer check` prints a finding's place): the
    window opens with that line selected. With --screenshot PATH the window is rendered offscreen
    to a PNG and the command exits.
    """).text)
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--screenshot", "shot", type=click.Path(dir_okay=False),
              help=M("render the window to this PNG offscreen and exit").text)
@click.option("--size", default="1600x1000", show_default=True, help=M("window size for --screenshot").text)
@click.option("--theme", type=click.Choice(["system", "light", "dark"]), default=None,
              help=M("colour theme (default: the saved choice; light for --screenshot)").text)
@click.option("--select", "select_line", type=int, default=None,
              help=M("select this line (and its event) once the log is open (default: the first worst finding)").text)
@click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="REPLAYER_LIBRARY", default=None,
              help=M("the match library (default: library.db in the user data folder)").text)
@cards_db_option
def view(file: str | None, shot: str | None, size: str, theme: str | None, select_line: int | None,
         db_path: str | None) -> None:
    column = None
    if file is not None and not os.path.isfile(file):
        place = split_place(file)
        if place is not None:
            file, line, column = place
            if select_line is None:
                select_line = line
    if file is not None and not os.path.isfile(file):
        click.echo(visible(_say(M("replayer: cannot read {file}: no such file", file=file))), err=True)
        sys.exit(2)
    if shot:
        if file is None:
            raise click.UsageError(_say(M("--screenshot needs a FILE")))
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    elif not has_display():
        click.echo(_say(M("replayer: there is no display to open the window on (DISPLAY is not set); the findings "
                          "as text follow. `replayer view FILE --screenshot out.png` renders the window to a picture.")),
                   err=True)
        if file is None:
            sys.exit(2)
        _text_findings(file)
    else:
        from ..gui import preflight

        found = preflight.check()
        if not found.ok:
            click.echo(_say(M("replayer: the window cannot open here: {why}. The findings as text follow "
                              "(`replayer doctor` tells more; `replayer view FILE --screenshot out.png` renders the "
                              "window to a picture).", why=found.message())), err=True)
            if file is None:
                sys.exit(2)
            _text_findings(file)
    try:
        from ..gui import app
    except ImportError as e:  # PySide6 missing or broken
        click.echo(_say(M("replayer: the window needs PySide6 ({error})", error=str(e))), err=True)
        sys.exit(2)
    if shot:
        try:
            out = app.screenshot(file, shot, size=_size(size), theme=theme or "light", select_line=select_line)
        except OSError as e:
            click.echo(f"replayer: {e}", err=True)
            sys.exit(2)
        click.echo(out)
        return
    use_library(app, db_path)
    sys.exit(app.run(file, theme, select_line=select_line, select_column=column))


def split_place(text: str) -> tuple[str, int, int | None] | None:
    """``FILE:LINE`` or ``FILE:LINE:COL`` -> (FILE, LINE, COL or None), when FILE is a file.

    >>> split_place("no/such/file.duel:12") is None
    True
    """
    import re

    m = re.fullmatch(r"(.+?):(\d+)(?::(\d+))?:?", text)
    if m is None or not os.path.isfile(m.group(1)):
        return None
    return m.group(1), int(m.group(2)), int(m.group(3)) if m.group(3) else None


def _text_findings(file: str) -> None:
    """What `replayer check FILE` prints, and its exit status (this does not return)."""
    from .check import check

    check.main([file], prog_name="replayer view", standalone_mode=True)


def has_display() -> bool:
    """Whether Qt can open a window here (a headless Linux box cannot, and Qt would abort)."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def use_library(app, db_path: str | None) -> None:
    """File ▸ Match Library in every window; verdicts go to the library once one exists
    (until then, to a sidecar file next to the log)."""
    from pathlib import Path

    from .. import reviews, store
    from ..gui.window.library import install

    db = Path(db_path) if db_path else store.default_library_path()
    app.register_extension(lambda window: install(window, db))
    if db.is_file():
        reviews.set_store(reviews.LibraryReviewStore(db))
