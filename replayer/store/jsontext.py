"""JSON text as the library stores it: the encoders of the events, cards, notes and header."""

from __future__ import annotations

import json
from typing import Any, Callable

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _json_encoder(item_separator: str = ",", key_separator: str = ":") -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False, separators=(item_separator, key_separator))`` for the
    values the store writes (lists, dicts, strings, numbers, None), without the set-up
    ``json.dumps`` does at each call."""
    try:
        from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - CPython has the C encoder
        c_make_encoder = None
    if c_make_encoder is None:  # pragma: no cover
        encoder = json.JSONEncoder(ensure_ascii=False, separators=(item_separator, key_separator))
        return encoder.encode
    default = json.JSONEncoder().default
    # markers None: no check for circular values (the store's values are trees)
    chunks = c_make_encoder(None, default, encode_basestring, None, key_separator, item_separator, False, False,
                            True)
    join = "".join

    def dumps(value: Any) -> str:
        return join(chunks(value, 0))

    return dumps


def _fast_encoder() -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, by orjson (the same text,
    several times as fast); values orjson does not take (integers beyond 64 bits) go to the
    standard library's encoder."""
    fallback = _json_encoder()
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency; a platform without its wheel still works
        return fallback
    encode = orjson.dumps

    def dumps(value: Any) -> str:
        try:
            return encode(value).decode()
        except TypeError:  # orjson.JSONEncodeError
            return fallback(value)

    return dumps


_dumps = _fast_encoder()
#: ``json.dumps(value, ensure_ascii=False)`` (the header tags: default separators)
_dumps_header = _json_encoder(", ", ": ")
