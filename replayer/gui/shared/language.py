"""The window's language (issue 24): English, Japanese or German, switched at once from View ▸ Language.

The window speaks through the same gettext catalogs as the rest of replayer (:mod:`replayer.i18n`),
in its own domain ``replayer-gui`` (``replayer/gui/locale``), rather than Qt's ``.ts``/``.qm``
files: one catalog format and one completeness check (``python -m replayer.locale.catalogs check``,
tests/test_i18n.py) for every layer, and the findings, which carry :class:`~replayer.i18n.Msg`
objects, are rendered by the same code in the terminal, the report and the window; Qt's own
strings (the standard buttons and dialogs) come from Qt's translations, loaded here with a
``QTranslator`` when PySide6 ships them.

The language is, in order: ``--lang`` / ``REPLAYER_LANG``, else the setting ``view/language`` (the
menu's choice, kept across restarts), else the user's locale. A log's own language never switches it.

* :func:`tr` renders a message now (a text the window computes each time it shows it);
* :func:`live` sets a widget's text and sets it again whenever the language changes (menus, actions,
  buttons: the texts set once when a widget is made);
* :func:`set_language` switches: every :func:`live` text is set again and :data:`NOTIFIER` 's
  ``changed`` signal tells the panes to redraw what they compute (the findings, the state, the bands).
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QObject, QTranslator, Signal
from PySide6.QtWidgets import QApplication

from ... import i18n
from ...i18n import LANGUAGES, Msg, domain, normalize, render

M = domain("replayer-gui", Path(__file__).resolve().parent.parent / "locale")
#: each language by its own name (View ▸ Language)
NAMES = {"en": "English", "ja": "日本語", "de": "Deutsch"}
#: the setting that keeps the menu's choice
SETTING = "view/language"

_lang = "en"
_bound: list[tuple[weakref.ref, str, object, tuple]] = []
_qt_translators: list[QTranslator] = []


class _Notifier(QObject):
    changed = Signal(str)


#: ``changed(lang)`` after every switch
NOTIFIER = _Notifier()


def lang() -> str:
    """The window's language now."""
    return _lang


def tr(text: str, /, **params: object) -> str:
    """``text`` (an English msgid of the ``replayer-gui`` catalog) in the window's language."""
    return M(text, **params).render(_lang)


def text(value: object) -> str:
    """A message, a parameter or a plain value in the window's language."""
    return render(value, _lang)


def live(obj: QObject, message: object, setter: str = "setText", *args: object) -> QObject:
    """``obj.setter(*args, message)`` now and again after each switch of the language; ``message``
    is a :class:`~replayer.i18n.Msg` or a function of no argument returning one or a string."""
    _apply(obj, setter, message, args)
    _bound.append((weakref.ref(obj), setter, message, args))
    return obj


def _apply(obj: QObject, setter: str, message: object, args: tuple) -> None:
    value = message() if callable(message) and not isinstance(message, Msg) else message
    getattr(obj, setter)(*args, render(value, _lang))


def explicit() -> str | None:
    """The language ``--lang`` or ``REPLAYER_LANG`` asks for, if one does."""
    return getattr(i18n, "_chosen", None) or normalize(os.environ.get(i18n.ENV))


def initial(settings) -> str:
    """The language a new window starts in: ``--lang``/``REPLAYER_LANG``, the setting, the locale."""
    return explicit() or normalize(str(settings.value(SETTING, "") or "")) or i18n.from_environment()


_started = False


def start(settings) -> str:
    """The first window's language (:func:`initial`), once a process; later windows speak as the
    first does now. Returns the language."""
    global _started
    if not _started:
        _started = True
        set_language(initial(settings))
    else:
        set_language(_lang)  # (Qt's translations, for an application made since)
    return _lang


def reset() -> None:
    """Back to English, the next window choosing again (tests)."""
    global _started
    set_language("en")
    i18n.use(None)
    _started = False


def set_language(code: str) -> None:
    """Switch the window's language (and Qt's own strings) now."""
    global _lang
    code = normalize(code) or "en"
    changed = code != _lang
    _lang = code
    # what the core says in this process (an error's text, an import's outcome, a message kept
    # as plain text) follows the window: the window is the process's one speaker
    i18n.use(code)
    _install_qt_translations(code)
    if not changed:
        return
    alive = []
    for ref, setter, message, args in _bound:
        obj = ref()
        if obj is None or not _valid(obj):
            continue
        try:
            _apply(obj, setter, message, args)
        except RuntimeError:  # deleted under us
            continue
        alive.append((ref, setter, message, args))
    _bound[:] = alive
    NOTIFIER.changed.emit(code)


def _valid(obj: QObject) -> bool:
    try:
        import shiboken6

        return shiboken6.isValid(obj)
    except ImportError:  # pragma: no cover
        return True


def _install_qt_translations(code: str) -> None:
    """Qt's translations of its standard dialogs and buttons (qtbase_ja, qtbase_de), if PySide6 has them."""
    app = QApplication.instance()
    if app is None:
        return
    for t in _qt_translators:
        app.removeTranslator(t)
    _qt_translators.clear()
    if code == "en":
        return
    folder = QLibraryInfo.path(QLibraryInfo.TranslationsPath)
    for name in ("qtbase", "qtmultimedia"):
        t = QTranslator(app)
        if t.load(f"{name}_{code}", folder):
            app.installTranslator(t)
            _qt_translators.append(t)



def plural(n: int, one: Msg, many: Msg, grouped: bool = True, **params: object) -> str:
    """``one`` or ``many`` (messages with a ``{n}``) for ``n`` things, in the window's language (the
    window's languages count as English does: one, or more; Japanese writes both alike);
    ``grouped``: ``1,234``; ``params``: the messages' other parameters."""
    return (one if n == 1 else many).replace(n=f"{n:,}" if grouped else n, **params).render(_lang)


# ---- the words of a finding, as the window shows them ------------------------------------------------
KINDS = {"syntax": M.term("kind", "syntax"), "illegal-activation": M.term("kind", "illegal-activation"),
         "wrong-timing": M.term("kind", "wrong-timing"), "ordering": M.term("kind", "ordering"),
         "state": M.term("kind", "state"), "unknown-card": M.term("kind", "unknown-card")}


def severity(value: str) -> str:
    """``error`` / ``warning`` / ``info`` in the window's language (the core's words: the terminal's)."""
    from ...diagnostics import SEVERITY_WORDS, Severity

    return render(SEVERITY_WORDS[Severity(value)], _lang)


def kind(value: str) -> str:
    return render(KINDS.get(value, value), _lang)


def label(word: str) -> str:
    """``hint`` / ``cite`` / ``from`` as a finding's text rendering writes them."""
    from ...diagnostics import CITE_LABEL, FROM_LABEL, HINT_LABEL

    return render({"hint": HINT_LABEL, "cite": CITE_LABEL, "from": FROM_LABEL}[word], _lang)


__all__ = ["LANGUAGES", "M", "NAMES", "NOTIFIER", "SETTING", "explicit", "initial", "kind", "label", "lang", "live",
           "plural", "reset", "set_language", "severity", "start", "text", "tr"]
