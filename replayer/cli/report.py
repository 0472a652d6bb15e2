"""``replayer report FILE -o out.html|out.pdf``: the review report from the command line."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import click

from .. import i18n
from ..cards.commands import cards_db_option
from ..check import check_file
from ..errors import ReplayerError
from ..i18n import M
from ..safe import visible


STEPS = 1000  # of the progress bar


def write_error_text(out: str, error: OSError, existed: bool) -> str:
    """Why a report was not written, and that the older report of that name is as it was."""
    lang = i18n.current()
    why = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        why = M("the disk is full ({why})", why=why).render(lang)
    old = M("; the older {out} is as it was", out=out).render(lang) if existed else ""
    return visible(f"{out}: {why}{old}")


@click.command(help=M("""Write the review report of FILE (its findings with the verdicts kept for it) as HTML or PDF.

    A PDF of a long log takes a while (266 pages: about a minute): on a terminal a progress bar
    says how far it is. --cards-db chooses the card database, as for `check`, `view` and `import`.""").text)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help=M("the report to write: .html or .pdf").text)
@click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="REPLAYER_LIBRARY", default=None,
              help=M("the match library whose verdicts to use (default: library.db in the user data folder)").text)
@click.option("--progress/--no-progress", default=True, show_default=True,
              help=M("a progress bar on a terminal while a PDF is laid out and written").text)
@cards_db_option
def report(file: str, out: str, db_path: str | None, progress: bool) -> None:
    lang = i18n.current()  # (--lang, else REPLAYER_LANG, else the locale): the report's language too
    if Path(out).suffix.lower() not in (".html", ".htm", ".pdf"):
        raise click.UsageError(M("the report is written as .html or .pdf: name the output file so").render(lang))
    from ..export import write_report  # here: `replayer check` loads neither the report nor the library
    from ..reviews import Reviews, store_for

    try:
        result = check_file(file)
    except ReplayerError as e:
        click.echo(visible(M("replayer: cannot read {error}", error=str(e)).render(lang)), err=True)
        sys.exit(2)
    try:
        reviews = Reviews.open(file, result.match.lines, store_for(db_path))
    except ReplayerError as e:
        click.echo(visible(M("replayer: the verdicts kept for {file} cannot be read ({error}); the report has none",
                             file=file, error=str(e)).render(lang)), err=True)
        reviews = None
    existed = Path(out).exists()
    show = progress and Path(out).suffix.lower() == ".pdf" and sys.stderr.isatty()
    try:
        if show:
            with click.progressbar(length=STEPS, label=M("writing the report").render(lang), file=sys.stderr,
                                   show_percent=True, show_eta=True) as bar:
                done = [0]

                def tick(fraction: float, what: str = "") -> None:
                    n = min(max(int(fraction * STEPS), done[0]), STEPS)
                    if n > done[0]:
                        bar.update(n - done[0])
                        done[0] = n

                path = write_report(result, reviews, out, progress=tick, lang=lang)
                bar.update(STEPS - done[0])
        else:
            path = write_report(result, reviews, out, lang=lang)
    except OSError as e:
        click.echo(M("replayer: the report was not written: {why}", why=write_error_text(out, e, existed)).render(lang),
                   err=True)
        sys.exit(2)
    click.echo(str(path))
