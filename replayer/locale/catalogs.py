"""The message catalogs, for a developer (Babel: ``pip install -e '.[i18n]'``); replayer itself reads
only the compiled ``.mo`` files, with the stdlib's :mod:`gettext` (:mod:`replayer.i18n`).

    python -m replayer.locale.catalogs update    # extract the messages, merge them into each .po
    python -m replayer.locale.catalogs compile   # write each .mo from its .po
    python -m replayer.locale.catalogs check     # what is missing, stale or untranslated (exit 1 if any)

Each catalog (gettext domain) is extracted from its own folder: the core's (``replayer``) from
``replayer/`` without ``games/`` and ``gui/``, each game's from its package, the window's
(``replayer-gui``) from ``replayer/gui`` (``tr("…")`` is one of its messages too). A message is a call
``M("…")``, a rules word ``M.term("context", "…")``, a citation's label ``source("…", …)``.
The ``.mo`` files are committed beside the ``.po`` files, so that an editable install and a wheel
have them without a build step (tests/test_i18n.py checks they are the compile of the ``.po``).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
LANGUAGES = ("ja", "de")
#: the extraction keywords (Babel's spec: None = the first argument is the msgid)
KEYWORDS = {"M": None, "term": ((1, "c"), 2), "source": (1,), "_rule": (3,)}  # _rule: a game's rule titles
#: domain -> (the folder its messages are in, the folders below it that are other domains', its locale dir)
DOMAINS = {
    "replayer": (PACKAGE, ("games", "gui", "locale"), PACKAGE / "locale"),
    "replayer-ygo": (PACKAGE / "games" / "ygo", ("locale",), PACKAGE / "games" / "ygo" / "locale"),
    "replayer-dm": (PACKAGE / "games" / "dm", ("locale",), PACKAGE / "games" / "dm" / "locale"),
    # the window (replayer/gui/shared/language.py); its PDF export's modules speak through the report's catalog
    "replayer-gui": (PACKAGE / "gui", ("locale", "report"), PACKAGE / "gui" / "locale"),
}
#: a domain's keywords beyond :data:`KEYWORDS` (the window's ``tr("…")`` renders at once)
DOMAIN_KEYWORDS = {"replayer-gui": {"tr": None}}


def po_path(domain: str, lang: str) -> Path:
    return DOMAINS[domain][2] / lang / "LC_MESSAGES" / f"{domain}.po"


def extract(domain: str):
    """The messages of ``domain``'s sources: a Babel catalog (msgids with their places)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file

    root, skip, _ = DOMAINS[domain]
    catalog = Catalog(domain=domain, project="replayer", charset="utf-8")
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in skip or "__pycache__" in rel.parts:
            continue
        for lineno, message, comments, context in extract_from_file(
                "python", str(path), keywords={**KEYWORDS, **DOMAIN_KEYWORDS.get(domain, {})}, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            if not message:
                continue
            where = (str(path.relative_to(PACKAGE.parent)), lineno)
            catalog.add(message, None, [where], auto_comments=comments, context=context)
    return catalog


def read(domain: str, lang: str):
    from babel.messages.pofile import read_po

    path = po_path(domain, lang)
    if not path.exists():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def update(translations: dict | None = None) -> None:
    """Merge the extracted messages into each ``.po`` (new ones empty, removed ones dropped);
    ``translations``: ``{lang: {msgid or (context, msgid): text}}`` to fill in."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    for domain in DOMAINS:
        template = extract(domain)
        for lang in LANGUAGES:
            old = read(domain, lang)
            new = Catalog(locale=lang, domain=domain, project="replayer", charset="utf-8")
            given = (translations or {}).get(lang, {})
            for m in template:
                if not m.id:
                    continue
                key = (m.context, m.id) if m.context else m.id
                text = given.get(key)
                if text is None and old is not None:
                    prev = old.get(m.id, context=m.context)
                    text = prev.string if prev is not None and not prev.fuzzy else None
                new.add(m.id, text or "", m.locations, context=m.context)
            path = po_path(domain, lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            buf = io.BytesIO()
            write_po(buf, new, width=100, sort_output=False, omit_header=False, include_previous=False)
            path.write_bytes(buf.getvalue())


def compile_all() -> None:
    from babel.messages.mofile import write_mo

    for domain in DOMAINS:
        for lang in LANGUAGES:
            catalog = read(domain, lang)
            if catalog is None:
                continue
            with po_path(domain, lang).with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog, use_fuzzy=False)


def problems() -> list[str]:
    """Every message that is missing from a catalog, stale in it, untranslated, or translated with
    other ``{placeholders}`` or other `…` spans than its English."""
    import re

    from replayer.i18n import placeholders

    out = []
    for domain in DOMAINS:
        wanted = {(m.context, m.id) for m in extract(domain) if m.id}
        for lang in LANGUAGES:
            catalog = read(domain, lang)
            if catalog is None:
                out.append(f"{domain}/{lang}: no catalog")
                continue
            have = {(m.context, m.id): m for m in catalog if m.id}
            for key in sorted(wanted - have.keys(), key=str):
                out.append(f"{domain}/{lang}: missing {key[1]!r}" + (f" ({key[0]})" if key[0] else ""))
            for key in sorted(have.keys() - wanted, key=str):
                out.append(f"{domain}/{lang}: stale {key[1]!r}" + (f" ({key[0]})" if key[0] else ""))
            for key, m in have.items():
                if key not in wanted:
                    continue
                if not m.string or m.fuzzy:
                    out.append(f"{domain}/{lang}: untranslated {m.id!r}")
                elif placeholders(m.string) != placeholders(m.id):
                    out.append(f"{domain}/{lang}: {m.id!r} has {sorted(placeholders(m.id))}, its translation "
                               f"{sorted(placeholders(m.string))}")
                elif len(re.findall(r"`[^`]*`", m.id)) != len(re.findall(r"`[^`]*`", m.string)):
                    out.append(f"{domain}/{lang}: {m.id!r}: the translation has other `…` spans")
    return out


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    found = problems()
    for p in found:
        print(p)
    return 1 if found and command == "check" else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
