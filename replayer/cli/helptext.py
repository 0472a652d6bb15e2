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

click wraps help by characters at spaces; Japanese has no spaces and takes two columns a
character, so in another language than English help is wrapped by display width
(:class:`_WideWrapper`, :func:`replayer.textwidth.width`), between any two Japanese characters, and a
translated paragraph written on several lines is joined without the space click would put between
two Japanese lines. English help is wrapped by click as it always was.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Iterator

import click
from click._textwrap import TextWrapper as _ClickWrapper  # (click's help wrapper: see speak_for_click)

from .. import i18n
from ..i18n import M
from ..textwidth import width

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
    gettext as _``): click's words in replayer's language; and click's help its wrapper by display
    width (:class:`_WideWrapper`, English: click's own). Idempotent."""
    import importlib

    import click._textwrap as textwrap_module

    for name in _CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        if getattr(module, "_", None) is not None and getattr(module, "_", None) is not _click_gettext:
            module._ = _click_gettext  # type: ignore[attr-defined]
    if textwrap_module.TextWrapper is _ClickWrapper:
        textwrap_module.TextWrapper = _WideWrapper  # (click.formatting.wrap_text imports it when it wraps)


_NO_LINE_START = set("、。，．）」』】〕：；？！・ー")


class _WideWrapper(_ClickWrapper):
    """click's TextWrapper, measuring by display width in another language than English: a line
    breaks at a space or between two wide characters and takes at most ``width`` columns."""

    def _split(self, text: str) -> list[str]:
        chunks = super()._split(text)
        if i18n.current() == "en" or text.isascii():
            return chunks
        out: list[str] = []
        for chunk in chunks:  # every wide character a chunk of its own: a line may break after it
            run = ""
            for ch in chunk:
                if width(ch) == 2:
                    if run:
                        out.append(run)
                        run = ""
                    out.append(ch)
                else:
                    run += ch
            if run:
                out.append(run)
        return out

    def _wrap_chunks(self, chunks: list[str]) -> list[str]:
        if i18n.current() == "en" or all(c.isascii() for c in chunks):
            return super()._wrap_chunks(chunks)
        lines: list[str] = []
        chunks = list(reversed(chunks))
        while chunks:
            indent = self.subsequent_indent if lines else self.initial_indent
            room = max(self.width - width(indent), 1)
            if lines and chunks[-1].strip() == "":
                chunks.pop()  # no line starts with the space it broke at
                continue
            line: list[str] = []
            used = 0
            while chunks and used + width(chunks[-1]) <= room:
                used += width(chunks[-1])
                line.append(chunks.pop())
            if chunks and not line:  # a word wider than the line: cut it where the line ends
                word, cut = chunks.pop(), 0
                while cut < len(word) and used + width(word[cut]) <= room:
                    used += width(word[cut])
                    cut += 1
                cut = max(cut, 1)
                line.append(word[:cut])
                if word[cut:]:
                    chunks.append(word[cut:])
            # no line starts with a closing mark (、。）: Japanese line breaking): its character goes with it
            while chunks and chunks[-1][:1] in _NO_LINE_START and len(line) > 1:
                chunks.append(line.pop())
            while line and line[-1].strip() == "":
                line.pop()
            lines.append(indent + "".join(line))
        return lines


def _joined(text: str) -> str:
    """A translated help text with each paragraph on one line (click joins a paragraph's lines with
    a space, which Japanese does not write): lines joined without a space between wide characters.
    A ``\b`` paragraph (not to be wrapped) is kept as it is."""
    out = []
    for para in text.split("\n\n"):
        lines = para.split("\n")
        if lines[0].strip() == "\b" or len(lines) == 1:
            out.append(para)
            continue
        joined = lines[0]
        for line in lines[1:]:
            if not line.strip():
                joined += "\n" + line
                continue
            wide = joined[-1:] and width(joined[-1]) == 2 or width(line.lstrip()[:1]) == 2
            joined += ("" if wide else " ") + line.lstrip()
        out.append(joined)
    return "\n\n".join(out)


def _translate(text: str | None, lang: str) -> str | None:
    if not text:
        return text
    word = CLICK_WORDS.get(text)
    if word is not None:
        return word.render(lang)
    translated = i18n.M.translate(lang, text)
    return _joined(inspect.cleandoc(translated)) if translated != text else text


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

