"""``replayer check``, ``replayer rules``: a log's findings, a game's rules (``replayer cards`` is replayer/cards/commands.py)."""

from __future__ import annotations

import gc
import json
import os
import sys

import click

from .. import games, i18n
from ..i18n import M
from ..cards.commands import cards_db_option
from ..check import check_match, unreadable_report
from ..diagnostics import render_json, render_text
from ..errors import UnreadableFile
from ..lines import drop_readers
from ..check import read_log
from ..reader import find_logs
from ..safe import visible


class _GameChoice(click.Choice):
    """The ids of :data:`replayer.games.ALL` at the time a command runs, not at import: a game
    registered later (``replayer.games.register``) is a choice too."""

    def __init__(self) -> None:
        super().__init__((), case_sensitive=False)

    @property
    def choices(self):
        return tuple(games.ALL)

    @choices.setter
    def choices(self, value) -> None:  # click.Choice.__init__ sets it; the games decide
        pass


GAME_CHOICE = _GameChoice()


def _use_colour(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


@click.command(help=M("""Check match logs: FILE or DIR (searched for *.duel).

    Exit status: 0 no errors, 1 errors found, 2 a file could not be read.
    """).text)
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help=M("text for people, json for programs (one object a file, one a line)").text)
@click.option("--color", "colour", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help=M("colour the text output (auto: on a terminal only)").text)
@cards_db_option
def check(paths: tuple[str, ...], fmt: str, colour: str) -> None:
    files = find_logs(paths)
    if not files:
        click.echo(visible(M("replayer: no .duel files found in {paths}", paths=", ".join(paths)).render(i18n.current())),
                   err=True)
        sys.exit(2)
    status = 0
    use_colour = _use_colour(colour)
    totals = {"error": 0, "warning": 0, "info": 0}
    unreadable = 0
    for path in files:
        # one log's objects form no cycles and are freed when its output is written: the cycle
        # collector, left on, would walk all of them (~0.2 s after a 100,000-line log) for nothing
        collecting = gc.isenabled()
        gc.disable()
        try:
            file_status, unread = _check_one(path, fmt, use_colour, totals)
        finally:
            if collecting:
                gc.enable()
        unreadable += unread
        if file_status == 2:
            status = 2
        elif file_status == 1 and status == 0:
            status = 1
    if fmt == "text":
        click.echo(summary(len(files) - unreadable, totals, unreadable, i18n.current()), err=True)
    drop_readers()  # the process ends here: see drop_readers
    sys.exit(status)


def summary(checked: int, totals: dict[str, int], unreadable: int, lang: str = "en") -> str:
    """The last line of ``replayer check``'s text output: how many files, errors, warnings."""
    files = M("{n} file", n=checked) if checked == 1 else M("{n} files", n=checked)
    errors = M("{n} error", n=totals["error"]) if totals["error"] == 1 else M("{n} errors", n=totals["error"])
    warnings = (M("{n} warning", n=totals["warning"]) if totals["warning"] == 1
                else M("{n} warnings", n=totals["warning"]))
    said = M("{files} checked: {errors}, {warnings}", files=files, errors=errors, warnings=warnings).render(lang)
    if unreadable:
        said = M("{summary}; {n} could not be read", summary=said, n=unreadable).render(lang)
    return said


def _check_one(path, fmt: str, use_colour: bool, totals: dict[str, int]) -> tuple[int, bool]:
    """Check one file and write its output: (its exit status: 0 no errors, 1 errors, 2 not
    readable; whether it could not be read or checked at all)."""
    lang = i18n.current()
    try:
        result = check_match(read_log(path))
    except UnreadableFile as e:
        click.echo(visible(M("replayer: cannot read {error}", error=str(e)).render(lang)), err=True)
        if fmt == "json":  # a program reading the output sees every file it asked for
            click.echo(render_json(unreadable_report(str(path), e, lang)))
        return 2, True
    except Exception as e:  # a bug of ours: a message, not a traceback, and the next file
        if os.environ.get("REPLAYER_DEBUG"):
            raise
        click.echo(visible(M("replayer: internal error while checking {path}: {error} (set REPLAYER_DEBUG=1 for "
                             "the details, and please report it)", path=str(path),
                             error=f"{type(e).__name__}: {e}").render(lang)), err=True)
        return 2, True
    for f in result.findings:
        totals[f.severity.value] += 1
    if fmt == "json":
        click.echo(render_json(result.to_dict(lang)))
    elif result.findings:
        click.echo(render_text(str(path), result.findings, result.match.lines, colour=use_colour, lang=lang,
                               words=result.hint_words), color=use_colour)
    return (2 if result.unreadable else 1 if result.errors else 0), False


@click.command(help=M("""Print the rules table the validator uses for GAME, with citations.""").text)
@click.argument("game", type=GAME_CHOICE)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules(game: str, fmt: str) -> None:
    model = games.get(game.lower()).model
    describe = getattr(model, "describe", None)
    if describe is None:
        click.echo(M("replayer: no rules model for {game} yet", game=game).render(i18n.current()), err=True)
        sys.exit(1)
    if fmt == "json":
        as_json = getattr(model, "describe_json", None)
        data = as_json() if as_json is not None else {"game": game.lower(), "text": describe()}
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    import inspect

    speaks = "lang" in inspect.signature(describe).parameters  # (a game's model may describe itself in English only)
    click.echo(describe(lang=i18n.current()) if speaks else describe())
