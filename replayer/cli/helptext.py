"""The command line's help in the chosen language (issue 24): each command's help and its options'.

A command's help and an option's ``help=`` are written ``M("…").text``: the English text is the
msgid of the ``replayer`` catalog (extracted as every message is) and what click keeps, so English
help is as it was. When help is shown (``--help``, a usage error), :func:`translated` puts each
text's translation in place for the time of the call, in :func:`replayer.i18n.current`'s language:
``--lang`` given before ``--help`` (``replayer --lang ja check --help``; ``--lang`` after
``--help`` comes too late, click answers ``--help`` at once), else REPLAYER_LANG, else the locale.

click's own words ("Usage:", "Options", "Show this message and exit.", "Error: …") come from its
``gettext`` calls, which read the process's default domain (``messages``), no catalog of ours: so
:func:`speak_for_click` gives click's modules a ``gettext`` that looks the words up in the
``replayer`` catalog (context ``click``) first. Only the words listed in :data:`CLICK_WORDS` are
translated (the ones a user meets: the help's headings, the help and version options, the usual
usage errors); any other of click's messages stays English.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Iterator

import click

from .. import i18n
from ..i18n import M

#: click's words that replayer speaks (msgid: click's own text; the placeholders are click's
#: ``str.format`` fields and stay as they are)
CLICK_WORDS = {t.text: t for t in (
    M.term("click", "Usage:"), M.term("click", "Options"), M.term("click", "Commands"),
    M.term("click", "Positional arguments"),
    M.term("click", "Show this message and exit."), M.term("click", "Show the version and exit."),
    M.term("click", "Error: {message}"), M.term("click", "Try '{command} {option}' for help."),
    M.term("click", "Missing argument"), M.term("click", "Missing option"), M.term("click", "Missing parameter"),
    M.term("click", "Invalid value for {param_hint}: {message}"), M.term("click", "Invalid value: {message}"),
    M.term("click", "No such command {name!r}."), M.term("click", "No such option {name!r}."),
    M.term("click", "default: {default}"), M.term("click", "env var: {var}"), M.term("click", "required"),
    M.term("click", "%(prog)s, version %(version)s"), M.term("click", "Aborted!"),
)}
_CLICK_MODULES = ("core", "formatting", "exceptions", "decorators", "types", "parser", "termui")


def _click_gettext(text: str) -> str:
    lang = i18n.current()
    word = CLICK_WORDS.get(text)
    return word.render(lang) if word is not None and lang != "en" else text


def speak_for_click() -> None:
    """Give click's modules :func:`_click_gettext` for their ``_`` (their ``from gettext import
    gettext as _``): click's words in replayer's language. Idempotent."""
    import importlib

    for name in _CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        if getattr(module, "_", None) is not None and getattr(module, "_", None) is not _click_gettext:
            module._ = _click_gettext  # type: ignore[attr-defined]


def _translate(text: str | None, lang: str) -> str | None:
    if not text:
        return text
    word = CLICK_WORDS.get(text)
    if word is not None:
        return word.render(lang)
    return i18n.M.translate(lang, text)


def _texts(command: click.Command) -> Iterator[tuple[object, str]]:
    yield command, "help"  # (a help made with parameters is the command's ``help_text``, a Msg)
    yield command, "short_help"
    for p in command.params:
        yield p, "help"
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            yield from _texts(sub)


@contextlib.contextmanager
def translated(command: click.Command, lang: str | None = None) -> Iterator[None]:
    """``command``'s (and its commands') help texts in ``lang`` (None: the process's) while inside."""
    lang = lang or i18n.current()
    if lang == "en":
        yield
        return
    saved = [(obj, attr, getattr(obj, attr, None)) for obj, attr in _texts(command)]
    try:
        for obj, attr, text in saved:
            made = getattr(obj, "help_text", None) if attr == "help" else None
            if made is not None:
                setattr(obj, attr, made.render(lang))
            elif text:
                setattr(obj, attr, _translate(text, lang))
        yield
    finally:
        for obj, attr, text in saved:
            setattr(obj, attr, text)


def speaking(command: click.Command) -> click.Command:
    """``command`` with its help (``--help``, a usage error's) shown in the process's language."""
    if getattr(command, "_help_speaks", False):
        return command
    command._help_speaks = True  # type: ignore[attr-defined]
    get_help, get_usage = command.get_help, command.get_usage

    def fresh_help_option() -> None:
        # click keeps the --help option it made when it first parsed the command, its help in the
        # language of then: made again now, it says "Show this message and exit." in today's
        if hasattr(command, "_help_option"):
            command._help_option = None

    def help_in_language(ctx: click.Context) -> str:
        fresh_help_option()
        with translated(command):
            return get_help(ctx)

    def usage_in_language(ctx: click.Context) -> str:
        fresh_help_option()
        with translated(command):
            return get_usage(ctx)

    command.get_help = help_in_language  # type: ignore[method-assign]
    command.get_usage = usage_in_language  # type: ignore[method-assign]
    return command

