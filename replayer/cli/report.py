"""``replayer report FILE -o out.html|out.pdf``: the review report from the command line."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import click

from ..cards.commands import cards_db_option
from ..check import check_file
from ..errors import ReplayerError
from ..safe import visible


STEPS = 1000  # of the progress bar


def write_error_text(out: str, error: OSError, existed: bool) -> str:
    """Why a report was not written, and that the older report of that name is as it was."""
    why = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        why = f"the disk is full ({why})"
    old = f"; the older {out} is as it was" if existed else ""
    return visible(f"{out}: {why}{old}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help="the report to write: .html or .pdf")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="REPLAYER_LIBRARY", default=None,
              help="the match library whose verdicts to use (default: library.db in the user data folder)")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="a progress bar on a terminal while a PDF is laid out and written")
@cards_db_option
def report(file: str, out: str, db_path: str | None, progress: bool) -> None:
    """Write the review report of FILE (its findings with the verdicts kept for it) as HTML or PDF.

    A PDF of a long log takes a while (266 pages: about a minute): on a terminal a progress bar
    says how far it is. --cards-db chooses the card database, as for `check`, `view` and `import`."""
    if Path(out).suffix.lower() not in (".html", ".htm", ".pdf"):
        raise click.UsageError("the report is written as .html or .pdf: name the output file so")
    from ..export import write_report  # here: `replayer check` loads neither the report nor the library
    from ..reviews import Reviews, store_for

    try:
        result = check_file(file)
    except ReplayerError as e:
        click.echo(f"replayer: cannot read {e}", err=True)
        sys.exit(2)
    try:
        reviews = Reviews.open(file, result.match.lines, store_for(db_path))
    except ReplayerError as e:
        click.echo(f"replayer: the verdicts kept for {file} cannot be read ({e}); the report has none", err=True)
        reviews = None
    existed = Path(out).exists()
    show = progress and Path(out).suffix.lower() == ".pdf" and sys.stderr.isatty()
    try:
        if show:
            with click.progressbar(length=STEPS, label="writing the report", file=sys.stderr,
                                   show_percent=True, show_eta=True) as bar:
                done = [0]

                def tick(fraction: float, what: str = "") -> None:
                    n = min(max(int(fraction * STEPS), done[0]), STEPS)
                    if n > done[0]:
                        bar.update(n - done[0])
                        done[0] = n

                path = write_report(result, reviews, out, progress=tick)
                bar.update(STEPS - done[0])
        else:
            path = write_report(result, reviews, out)
    except OSError as e:
        click.echo(f"replayer: the report was not written: {write_error_text(out, e, existed)}", err=True)
        sys.exit(2)
    click.echo(str(path))
