"""The header's ``[Date]``: the usual ways people write a date, read as an ISO date.

``2024-05-18``, ``2024-5-18``, ``2024/05/18``, ``2024.05.18``, ``18.05.2024`` (German),
``2024年5月18日`` (Japanese; full-width digits too), ``18 May 2024``, ``May 18, 2024`` and
``18. Mai 2024``. A form whose day and month cannot be told apart (``05/06/2024``: US or
European?) is not guessed: it is not read, and ``replayer check`` and ``import`` warn about it.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from functools import lru_cache

_MONTHS = {name: n for n, names in enumerate([
    (), ("january", "jan", "januar", "jänner"), ("february", "feb", "februar"), ("march", "mar", "märz", "maerz", "mrz"),
    ("april", "apr"), ("may", "mai"), ("june", "jun", "juni"), ("july", "jul", "juli"),
    ("august", "aug"), ("september", "sep", "sept"), ("october", "oct", "oktober", "okt"),
    ("november", "nov"), ("december", "dec", "dezember", "dez")]) for name in names}

_YMD = re.compile(r"^(\d{4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})$")
_DMY_DOTS = re.compile(r"^(\d{1,2})\s*\.\s*(\d{1,2})\s*\.\s*(\d{4})$")
_JA = re.compile(r"^(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日?$")
_D_MONTH_Y = re.compile(r"^(\d{1,2})\.?\s+([^\W\d_]+)\.?,?\s+(\d{4})$")
_MONTH_D_Y = re.compile(r"^([^\W\d_]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$")


def _iso(y: int, m: int, d: int) -> str | None:
    try:
        return date(y, m, d).isoformat()
    except ValueError:
        return None


def parse_date(text: str | None) -> str | None:
    """``text`` as ``YYYY-MM-DD``, or None if it is not a date in one of the forms above."""
    if not text:
        return None
    # (a library import reads each log's date twice, and a corpus has few distinct dates: they are
    # kept, the short ones only)
    return _parse_kept(text) if len(text) <= 40 else _parse(text)


def _parse(text: str) -> str | None:
    s = unicodedata.normalize("NFKC", text).strip()
    if m := _YMD.match(s):
        return _iso(int(m[1]), int(m[2]), int(m[3]))
    if m := _DMY_DOTS.match(s):
        return _iso(int(m[3]), int(m[2]), int(m[1]))
    if m := _JA.match(s):
        return _iso(int(m[1]), int(m[2]), int(m[3]))
    if (m := _D_MONTH_Y.match(s)) and m[2].casefold() in _MONTHS:
        return _iso(int(m[3]), _MONTHS[m[2].casefold()], int(m[1]))
    if (m := _MONTH_D_Y.match(s)) and m[1].casefold() in _MONTHS:
        return _iso(int(m[3]), _MONTHS[m[1].casefold()], int(m[2]))
    return None


_parse_kept = lru_cache(maxsize=1024)(_parse)

FORMS = "2024-05-18, 18.05.2024, 2024/05/18, 2024年5月18日 or 18 May 2024"
