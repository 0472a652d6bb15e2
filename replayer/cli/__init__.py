"""The command line. Thin: each command calls one public function and prints its result.

``check.py`` (check, rules), ``replayer/cards/commands.py`` (cards: ygo|dm NAME, import PATH…), ``report.py`` (report), ``view.py`` (the window; PySide6
is imported only when it runs), ``library.py`` (import, search, stats, library).
"""

from __future__ import annotations

import sys

import click

from .. import i18n
from ..cards.commands import cards as cards_command
from ..i18n import M
from . import check, doctor, library, report, view
from .helptext import speak_for_click, speaking

speak_for_click()  # click's own words ("Usage:", "Options") in replayer's language too


def _choose_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value:
        i18n.use(value)
        # the process's language for what it starts (the window, a PDF job): replayer.i18n.current()
        import os

        os.environ[i18n.ENV] = i18n.current()


def lang_option(command: click.Command) -> click.Command:
    """Give ``command`` (and, for a group, every command in it) the ``--lang`` option: the language
    replayer speaks (default: REPLAYER_LANG, else the locale: LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
    The commands read it from :func:`replayer.i18n.current`: no command declares it itself."""
    if not any(p.name == "lang" for p in command.params):
        command.params.append(click.Option(
            ["--lang"], type=click.Choice(i18n.LANGUAGES, case_sensitive=False), default=None,
            expose_value=False, is_eager=True, callback=_choose_language,
            help=M("the language of the output: en, ja, de (default: REPLAYER_LANG or the locale)").text))
    speaking(command)  # its help in that language
    if isinstance(command, click.Group) and not getattr(command, "_speaks", False):
        command._speaks = True  # type: ignore[attr-defined]
        for sub in command.commands.values():
            lang_option(sub)
        found = command.get_command  # a group may make commands as they are asked for (`cards ygo`)

        def get_command(ctx: click.Context, name: str) -> click.Command | None:
            sub = found(ctx, name)
            return lang_option(sub) if sub is not None else None

        command.get_command = get_command  # type: ignore[method-assign]
    return command


class LanguageGroup(click.Group):
    """A group whose every command, added now or later, takes ``--lang`` (:func:`lang_option`)."""

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        super().add_command(lang_option(cmd), name)


@click.group(cls=LanguageGroup, context_settings={"help_option_names": ["-h", "--help"]},
             help=M("Replay trading card game match logs and check them against the timing rules.").text)
@click.version_option(package_name="replayer")
def cli() -> None:
    pass


lang_option(cli)
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
