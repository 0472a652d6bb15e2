"""The command line. Thin: each command calls one public function and prints its result.

``check.py`` (check, rules), ``replayer/cards/commands.py`` (cards: ygo|dm NAME, import PATH…), ``report.py`` (report), ``view.py`` (the window; PySide6
is imported only when it runs), ``library.py`` (import, search, stats, library), ``doctor.py``.
Each command's module is imported when the command is asked for (:class:`_Commands`): ``replayer
check`` does not load the library's, the report's or the doctor's code.
"""

from __future__ import annotations

import importlib
import sys

import click

from .. import i18n
from ..i18n import M
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
        for sub in dict.values(command.commands):  # the ones made already (a _Commands makes the others)
            lang_option(sub)
        found = command.get_command  # a group may make commands as they are asked for (`cards ygo`)

        def get_command(ctx: click.Context, name: str) -> click.Command | None:
            sub = found(ctx, name)
            return lang_option(sub) if sub is not None else None

        command.get_command = get_command  # type: ignore[method-assign]
    return command


class _Commands(dict):
    """A group's commands by name, each imported from where it is the first time it is asked for
    (``name -> (module, attribute)``), and given ``--lang`` then (:func:`lang_option`). Looking one
    up, ``in``, and listing them behave as a dict of all of them does."""

    def __init__(self, where: dict[str, tuple[str, str]]):
        super().__init__()
        self.where = dict(where)

    def _make(self, name: str) -> click.Command:
        module, attr = self.where.pop(name)
        command = lang_option(getattr(importlib.import_module(module, __package__), attr))
        dict.__setitem__(self, name, command)
        return command

    def _make_all(self) -> None:
        for name in list(self.where):
            self._make(name)

    def __missing__(self, name: str) -> click.Command:
        if name in self.where:
            return self._make(name)
        raise KeyError(name)

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default

    def __contains__(self, name) -> bool:
        return dict.__contains__(self, name) or name in self.where

    def __setitem__(self, name, command) -> None:
        self.where.pop(name, None)
        dict.__setitem__(self, name, command)

    def __iter__(self):
        self._make_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        return dict.__len__(self) + len(self.where)

    def keys(self):
        self._make_all()
        return dict.keys(self)

    def values(self):
        self._make_all()
        return dict.values(self)

    def items(self):
        self._make_all()
        return dict.items(self)


#: every command of ``replayer``, and where it is (relative to this package)
COMMANDS = {
    "check": (".check", "check"), "cards": ("..cards.commands", "cards"), "rules": (".check", "rules"),
    "report": (".report", "report"), "view": (".view", "view"), "import": (".library", "import_command"),
    "search": (".library", "search"), "stats": (".library", "stats"), "library": (".library", "library"),
    "doctor": (".doctor", "doctor"),
}


class LanguageGroup(click.Group):
    """A group whose every command, added now or later, takes ``--lang`` (:func:`lang_option`)."""

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        super().add_command(lang_option(cmd), name)


@click.group(cls=LanguageGroup, commands=_Commands(COMMANDS), context_settings={"help_option_names": ["-h", "--help"]},
             help=M("Replay trading card game match logs and check them against the timing rules.").text)
@click.version_option(package_name="replayer")
def cli() -> None:
    pass


lang_option(cli)


def main() -> None:
    try:
        cli(prog_name="replayer")
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
