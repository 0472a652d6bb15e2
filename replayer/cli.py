"""The command line. Thin: each command calls one public function and prints its result."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from .diagnostics import Span, make_finding, render_json, render_text
from .reader import UnreadableFile, find_logs, read_log
from .safe import visible
from .validator import check_match

GAME_CHOICE = click.Choice(["ygo", "dm"], case_sensitive=False)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="replayer")
def cli() -> None:
    """Replay trading card game match logs and check them against the timing rules."""


def _use_colour(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for programs (one object a file, one a line)")
@click.option("--color", "colour", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="colour the text output (auto: on a terminal only)")
def check(paths: tuple[str, ...], fmt: str, colour: str) -> None:
    """Check match logs: FILE or DIR (searched for *.duel).

    Exit status: 0 no errors, 1 errors found, 2 a file could not be read.
    """
    files = find_logs(paths)
    if not files:
        click.echo(visible("replayer: no .duel files found in " + ", ".join(paths)), err=True)
        sys.exit(2)
    status = 0
    use_colour = _use_colour(colour)
    totals = {"error": 0, "warning": 0, "info": 0}
    unreadable = 0
    for path in files:
        try:
            result = check_match(read_log(path))
        except UnreadableFile as e:
            click.echo(visible(f"replayer: cannot read {e}"), err=True)
            status = 2
            unreadable += 1
            if fmt == "json":  # a program reading the output sees every file it asked for
                finding = make_finding("file.unreadable", Span(1, 1), f"cannot read {e}",
                                       "check the path and the file's permissions")
                click.echo(render_json({"file": str(path), "game": None, "rules": None, "events": 0,
                                        "findings": [finding.to_dict()]}))
            continue
        except Exception as e:  # a bug of ours: a message, not a traceback, and the next file
            if os.environ.get("REPLAYER_DEBUG"):
                raise
            click.echo(visible(f"replayer: internal error while checking {path}: {type(e).__name__}: {e} "
                               "(set REPLAYER_DEBUG=1 for the details, and please report it)"), err=True)
            status = 2
            unreadable += 1
            continue
        if result.unreadable:
            status = 2
        elif result.errors and status == 0:
            status = 1
        for f in result.findings:
            totals[f.severity.value] += 1
        if fmt == "json":
            click.echo(render_json(result.to_dict()))
        elif result.findings:
            click.echo(render_text(str(path), result.findings, result.match.lines, colour=use_colour),
                       color=use_colour)
    if fmt == "text":
        checked = len(files) - unreadable
        summary = (f"{checked} file{'s' if checked != 1 else ''} checked: "
                   f"{totals['error']} error{'s' if totals['error'] != 1 else ''}, "
                   f"{totals['warning']} warning{'s' if totals['warning'] != 1 else ''}"
                   + (f"; {unreadable} could not be read" if unreadable else ""))
        click.echo(summary, err=True)
    sys.exit(status)


@cli.command()
@click.argument("game", type=GAME_CHOICE)
@click.argument("name", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def cards(game: str, name: tuple[str, ...], fmt: str) -> None:
    """Print the catalog entry of a card (any of its names, or part of one)."""
    from .catalog import load_catalog

    text = " ".join(name)
    found = load_catalog(game.lower()).search(text)
    if not found:
        click.echo(f"replayer: no {game} card matches {text!r}", err=True)
        sys.exit(1)
    for card in found:
        if fmt == "json":
            click.echo(json.dumps(card.to_dict(), ensure_ascii=False))
            continue
        click.echo(click.style(card.id, bold=True))
        for lang in ("en", "ja", "de"):
            if lang in card.names:
                click.echo(f"  {lang}: {card.names[lang]}")
        if card.kind:
            click.echo(f"  kind: {card.kind}")
        stats = []
        if card.atk is not None or card.def_ is not None:
            stats.append(f"ATK/DEF {card.atk if card.atk is not None else '?'}/{card.def_ if card.def_ is not None else '?'}")
        if card.level is not None:
            stats.append(f"level {card.level}")
        if card.power is not None:
            stats.append(f"power {card.power}")
        if stats:
            click.echo("  " + ", ".join(stats))
        props = sorted(card.props - {card.kind})
        if props:
            click.echo("  properties: " + ", ".join(props))
        for i, eff in enumerate(card.effects, 1):
            click.echo(f"  effect {i}: " + ", ".join(sorted(eff)))
        for note in card.notes:
            click.echo(f"    note: {note}")


@cli.command()
@click.argument("game", type=GAME_CHOICE)
def rules(game: str) -> None:
    """Print the rules table the validator uses for GAME, with citations."""
    from .validator import model_for

    model = model_for(game.lower())
    describe = getattr(model, "describe", None)
    if describe is None:
        click.echo(f"replayer: no rules model for {game} yet", err=True)
        sys.exit(1)
    click.echo(describe())


# ---- commands that live with their feature ---------------------------------------------------
# The window (replayer/gui/commands.py) registers `view` below this line.
from .gui.commands import view  # noqa: E402  (PySide6 is imported only when `view` runs)

cli.add_command(view)
# The match library (replayer/store_commands.py) registers `import`, `search`, `stats` below this line.
from .store_commands import import_command, search as search_command, stats as stats_command  # noqa: E402

cli.add_command(import_command)
cli.add_command(search_command)
cli.add_command(stats_command)


def main() -> None:
    try:
        cli(prog_name="replayer")
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
