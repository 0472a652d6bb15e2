"""The command line. Thin: each command calls one public function and prints its result.

``check.py`` (check, rules), ``replayer/cards/commands.py`` (cards: ygo|dm NAME, import PATH…), ``report.py`` (report), ``view.py`` (the window; PySide6
is imported only when it runs), ``library.py`` (import, search, stats, library).
"""

from __future__ import annotations

import sys

import click

from ..cards.commands import cards as cards_command
from . import check, doctor, library, report, view


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="replayer")
def cli() -> None:
    """Replay trading card game match logs and check them against the timing rules."""


for command in (check.check, cards_command, check.rules, report.report, view.view, library.import_command,
                library.search, library.stats, library.library, doctor.doctor):
    cli.add_command(command)


def main() -> None:
    try:
        cli(prog_name="replayer")
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
