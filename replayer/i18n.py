"""The languages replayer speaks (issue 24): messages kept as their English text and parameters,
rendered in a chosen language where they leave (the terminal, JSON, later the window and the report).

A message is a :class:`Msg`: the English text (a gettext msgid with ``{name}`` placeholders), the
catalog (*domain*) it belongs to, and its parameters. A parameter is a plain value (a number, a
word of the log: rendered as it is), another :class:`Msg` (a rules term, a clause of a longer
message: rendered in the same language), a :class:`Name` (a card name: the catalog's name in that
language when there is one) or a :class:`Join` (a list: ``ds-start or before-calc``).

The catalogs are gettext ``.po`` files extracted and compiled with Babel (``pybabel``, the
``i18n`` extra: docs/glossary.md § Catalogs); at run time the stdlib :mod:`gettext` reads the
compiled ``.mo`` files, which are committed beside the ``.po`` files (a ``pip install -e .`` and a
wheel carry them with the package). The core's messages are the ``replayer`` domain
(``replayer/locale``); each game's messages and rules words are its own domain, in its package
(``replayer/games/<id>/locale``), made with :func:`domain`.

English is the msgid itself, so English output is today's text byte for byte.

>>> M = domain("replayer")
>>> m = M("{card} may not be activated at {timing}", card="Honest", timing="calc")
>>> m.render("en")
'Honest may not be activated at calc'
>>> str(m) == m.render("en")
True
"""

from __future__ import annotations

import gettext
import os
import re
from pathlib import Path
from typing import Iterable, Mapping

from .records import record

#: the languages replayer speaks; the first is the msgids' own
LANGUAGES = ("en", "ja", "de")
#: the environment variable that chooses the language before the locale's (the window and scripts
#: set it; ``--lang`` sets it for the process too)
ENV = "REPLAYER_LANG"
#: the locale variables gettext reads, in its order
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a message text (``{quick-play, atk-mod}`` is not one)."""
    return set(_PLACEHOLDER.findall(text))


# ---- choosing the language -----------------------------------------------------------------------
def normalize(code: str | None) -> str | None:
    """``"ja_JP.UTF-8"`` -> ``"ja"``; a language replayer does not speak (or ``C``) -> None."""
    if not code:
        return None
    base = re.split(r"[_.@-]", code.strip(), maxsplit=1)[0].lower()
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: :data:`ENV`, else the locale as gettext reads it
    (``LANGUAGE`` may list several: the first replayer speaks), else English."""
    environ = os.environ if environ is None else environ
    chosen = normalize(environ.get(ENV))
    if chosen:
        return chosen
    for var in LOCALE_VARS:
        value = environ.get(var)
        if not value:
            continue
        if var == "LANGUAGE":
            found = next((c for c in map(normalize, value.split(":")) if c), None)
            if found:
                return found
            continue
        return normalize(value) or "en"  # the first locale variable set decides (C, POSIX, fr: English)
    return "en"


_chosen: str | None = None


def use(lang: str | None) -> None:
    """Choose the language for this process (``--lang``); None: back to the environment's."""
    global _chosen
    _chosen = normalize(lang) if lang else None


def current() -> str:
    """The language output is rendered in: the one chosen by :func:`use`, else the environment's."""
    return _chosen or from_environment()


# ---- catalogs ------------------------------------------------------------------------------------
class Domain:
    """One gettext catalog (a domain and the folder of its ``<lang>/LC_MESSAGES/<domain>.mo``).
    Calling it makes a :class:`Msg`; :meth:`term` makes a rules word (a msgid with a context)."""

    def __init__(self, name: str, localedir: Path):
        self.name = name
        self.localedir = Path(localedir)
        self._translations: dict[str, gettext.NullTranslations] = {}

    def __call__(self, text: str, /, **params: object) -> "Msg":
        items = tuple(params.items())
        for _, v in items:  # (most messages have no list among their parameters: nothing to freeze)
            if isinstance(v, list):
                items = tuple((k, _freeze(v)) for k, v in items)
                break
        return Msg(self.name, text, items)

    def term(self, context: str, text: str) -> "Msg":
        """A rules word (``term("ygo timing", "before-calc")``): the English is the notation's word."""
        return Msg(self.name, text, (), context)

    def translations(self, lang: str) -> gettext.NullTranslations:
        t = self._translations.get(lang)
        if t is None:
            t = self._translations[lang] = gettext.translation(
                self.name, str(self.localedir), languages=[lang], fallback=True)
        return t

    def translate(self, lang: str, text: str, context: str | None = None) -> str:
        if lang == "en":
            return text
        t = self.translations(lang)
        return t.pgettext(context, text) if context is not None else t.gettext(text)


_DOMAINS: dict[str, Domain] = {}


def domain(name: str, localedir: str | Path | None = None) -> Domain:
    """The catalog ``name`` (made once: ``localedir`` defaults to ``replayer/locale``)."""
    d = _DOMAINS.get(name)
    if d is None:
        d = _DOMAINS[name] = Domain(name, Path(localedir) if localedir else Path(__file__).parent / "locale")
    return d


def domains() -> list[Domain]:
    return list(_DOMAINS.values())


# ---- messages ------------------------------------------------------------------------------------
@record
class Msg:
    """A message: its catalog, its English text (the msgid) and its parameters, rendered late."""

    domain: str
    text: str
    params: tuple[tuple[str, object], ...] = ()
    context: str | None = None

    def render(self, lang: str = "en") -> str:
        if lang == "en" and self.params and _plain(self):  # (kept: a log's findings repeat their messages)
            text = _ENGLISH.get(self)
            if text is None:
                if len(_ENGLISH) >= ENGLISH_KEPT:
                    _ENGLISH.clear()
                text = _ENGLISH[self] = self._render(lang)
            return text
        return self._render(lang)

    def _render(self, lang: str) -> str:
        d = _DOMAINS[self.domain]
        template = d.translate(lang, self.text, self.context)
        if not self.params:
            return template
        values = {k: render(v, lang) for k, v in self.params}
        return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)

    def __str__(self) -> str:
        return self.render("en")

    def format(self, **params: object) -> str:
        """The English text with these parameters, strictly: a placeholder without a value raises
        ``KeyError`` (as ``str.format`` would), so a table of templates can be checked against the
        words its caller fills in."""
        missing = placeholders(self.text) - params.keys() - {k for k, _ in self.params}
        if missing:
            raise KeyError(", ".join(sorted(missing)))
        return self.replace(**params).render("en")

    def param(self, name: str) -> object:
        return next((v for k, v in self.params if k == name), None)

    def replace(self, **params: object) -> "Msg":
        new = dict(self.params)
        new.update({k: _freeze(v) for k, v in params.items()})
        return Msg(self.domain, self.text, tuple(new.items()), self.context)


@record
class Name:
    """A card name: as the log wrote it, and the catalog's names by language. In English it is
    always as written (today's output); in another language the catalog's name there if it has one."""

    label: str
    names: tuple[tuple[str, str], ...] = ()

    def render(self, lang: str = "en") -> str:
        if lang != "en":
            for k, v in self.names:
                if k == lang and v:
                    return v
        return self.label

    def __str__(self) -> str:
        return self.label


@record
class Join:
    """A list rendered with a separator that is itself a message (`` or ``, ``, ``)."""

    items: tuple[object, ...]
    sep: object

    def render(self, lang: str = "en") -> str:
        return render(self.sep, lang).join(render(i, lang) for i in self.items)

    def __str__(self) -> str:
        return self.render("en")


class Said(str):
    """A message's English text that keeps the message (``.msg``), for an API that has always handed
    out plain strings (a card script's problems, the card import's): it is that English text to
    every reader of it, and in another language where it leaves (:func:`render` knows it; so does a
    message it is a parameter of). What str's own methods make of it (a slice, ``+``) is plain text.

    >>> s = Said(M("cannot read {error}", error="x"))
    >>> s == "cannot read x", "read" in s, render(s, "en")
    (True, True, 'cannot read x')
    """

    msg: "Msg | Join"

    def __new__(cls, msg: "Msg | Join") -> "Said":
        self = super().__new__(cls, msg.render("en"))
        self.msg = msg
        return self

    def render(self, lang: str = "en") -> str:
        return self.msg.render(lang)

    def __reduce__(self):  # (a worker process hands it back whole)
        return (Said, (self.msg,))


#: English renderings of messages, kept (a message -> its text): the messages of a library import's
#: findings are a few hundred distinct ones, each made again for every log (~9 a log); emptied
#: when it holds this many
ENGLISH_KEPT = 4096
_ENGLISH: dict[Msg, str] = {}


def _plain(value: object) -> bool:
    """Whether ``value`` (a message or one of its parameters) renders as the same English text as
    any value equal to it, so that its English text can be kept by it: strings, integers (not
    ``True``, equal to ``1``, nor ``1.0``), names, and messages and lists made of them."""
    t = type(value)
    if t is str or t is int or t is Name:
        return True
    if t is Msg:
        for _, v in value.params:  # type: ignore[attr-defined]
            t = type(v)
            if not (t is str or t is int or t is Name or _plain(v)):
                return False
        return True
    if t is Join:
        return all(_plain(i) for i in value.items) and _plain(value.sep)  # type: ignore[attr-defined]
    return False


def render(value: object, lang: str = "en") -> str:
    """A message, a parameter or a plain value in ``lang``."""
    r = getattr(value, "render", None)
    if r is not None and isinstance(value, (Msg, Name, Join, Said)):
        return r(lang)
    return "" if value is None else str(value)


def _freeze(v: object) -> object:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


# ---- the core's catalog and its small words --------------------------------------------------------
_ = M = domain("replayer")
OR = M.term("list", " or ")
AND = M.term("list", " and ")
COMMA = M.term("list", ", ")
SEMI = M.term("list", "; ")


#: the games' titles as words of a message (each game's words module adds its own: 遊戯王, デュエル・マスターズ)
TITLES: dict[str, Msg] = {}


def title(name: str) -> Msg | str:
    """A game's title in a message (the core knows no game: the game registered its title's term)."""
    return TITLES.get(name, name)


def join(items: Iterable[object], sep: Msg = OR) -> Join:
    return Join(tuple(_freeze(i) for i in items), sep)


def card_name(label: str, names: Mapping[str, str] | None = None) -> Name:
    return Name(label, tuple(sorted((names or {}).items())))


# ---- citations -------------------------------------------------------------------------------------
@record
class Source:
    """A citation's label in its source's own language (a Japanese FAQ is cited in Japanese), and the
    catalog that has the label's translations (the English label is the msgid)."""

    label: str  # the label as the rule registry has it (English: today's output)
    lang: str  # the language of the source itself
    own: str  # the label in that language
    domain: str = "replayer"


_SOURCES: dict[str, Source] = {}


def source(label: str, lang: str, own: str, catalog: Domain | None = None) -> str:
    """Register a source's label in its own language; returns ``label`` (``X = source(...)``)."""
    _SOURCES[label] = Source(label, lang, own, (catalog or M).name)
    return label


def sources() -> list[Source]:
    return list(_SOURCES.values())


def cite_in(label: str, lang: str) -> str:
    """A citation as a reader of ``lang`` sees it: in English as registered; else in the source's own
    language, with the label translated into ``lang`` beside it where the two differ. Several sources
    (``a; b``) are each cited so; a label with a part after its registered head (``… §3-§5``, ``…
    (2021-09-07 revision)``) keeps that part as it is."""
    if lang == "en" or not label:
        return label
    if label not in _SOURCES and "; " in label:
        return "; ".join(cite_in(part, lang) for part in label.split("; "))
    src = _SOURCES.get(label)
    tail = ""
    if src is None:
        head = next((k for k in sorted(_SOURCES, key=len, reverse=True) if label.startswith(k)), None)
        if head is None:
            return label
        src, tail = _SOURCES[head], label[len(head):]
    own = src.own + tail
    if lang == src.lang:
        return own
    translated = _DOMAINS[src.domain].translate(lang, src.label)
    if translated == src.label or translated == src.own:  # no translation: the source's label alone
        return own
    return M("{source} ({label})", source=own, label=translated + tail).render(lang)
