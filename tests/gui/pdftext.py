"""Just enough of a PDF text extractor to read back what Qt's PDF writer wrote (tests only).

Qt writes each glyph as ``<hex> Tj`` in a Type0 font with a ``ToUnicode`` CMap; this maps the
glyph codes of every text-showing operator back to characters, page by page.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from pathlib import Path

_OBJ = re.compile(rb"(\d+) 0 obj\s*(.*?)endobj", re.S)


def _objects(data: bytes) -> dict[int, bytes]:
    return {int(m.group(1)): m.group(2) for m in _OBJ.finditer(data)}


def _stream(body: bytes) -> bytes:
    m = re.search(rb"stream\r?\n", body)
    if not m:
        return b""
    raw = body[m.end(): body.rindex(b"endstream")]
    if b"/FlateDecode" in body[: m.start()]:
        try:
            return zlib.decompress(raw)
        except zlib.error:
            return zlib.decompressobj().decompress(raw)
    return raw


def _cmap(text: bytes) -> dict[int, str]:
    out: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", text, re.S):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[int(src, 16)] = bytes.fromhex(dst.decode()).decode("utf-16-be", "replace")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", text, re.S):
        for lo, hi, rest in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\[[^\]]*\]|<[0-9A-Fa-f]+>)", block):
            lo_i, hi_i = int(lo, 16), int(hi, 16)
            if rest.startswith(b"["):
                for k, dst in enumerate(re.findall(rb"<([0-9A-Fa-f]+)>", rest)):
                    out[lo_i + k] = bytes.fromhex(dst.decode()).decode("utf-16-be", "replace")
            else:
                base = int(rest[1:-1], 16)
                for k in range(hi_i - lo_i + 1):
                    out[lo_i + k] = chr(base + k)
    return out


def pdf_text(path: str | Path) -> str:
    """All text of the PDF, glyphs in drawing order, white space folded."""
    data = Path(path).read_bytes()
    objs = _objects(data)
    pages = [k for k, body in objs.items() if re.search(rb"/Type\s*/Page\b", body)]
    words: list[str] = []
    for page in sorted(pages):
        body = objs[page]
        contents = [int(x) for x in re.findall(rb"/Contents\s+(\d+) 0 R", body)]
        res_m = re.search(rb"/Resources\s+(\d+) 0 R", body)
        resources = objs.get(int(res_m.group(1)), b"") if res_m else body
        fonts: dict[bytes, dict[int, str]] = {}
        font_block = re.search(rb"/Font\s*<<(.*?)>>", resources, re.S)
        if font_block:
            for name, ref in re.findall(rb"/(\w+)\s+(\d+) 0 R", font_block.group(1)):
                font = objs.get(int(ref), b"")
                tu = re.search(rb"/ToUnicode\s+(\d+) 0 R", font)
                fonts[name] = _cmap(_stream(objs.get(int(tu.group(1)), b""))) if tu else {}
        for c in contents:
            stream = _stream(objs.get(c, b""))
            current: dict[int, str] = {}
            for m in re.finditer(rb"/(\w+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]+)>\s*Tj|\[(.*?)\]\s*TJ|\bET\b", stream, re.S):
                if m.group(1):
                    current = fonts.get(m.group(1), {})
                elif m.group(2):
                    hexs = m.group(2).decode()
                    for k in range(0, len(hexs), 4):
                        words.append(current.get(int(hexs[k:k + 4], 16), "?"))
                elif m.group(3) is not None:
                    for hexs in re.findall(rb"<([0-9A-Fa-f]+)>", m.group(3)):
                        h = hexs.decode()
                        for k in range(0, len(h), 4):
                            words.append(current.get(int(h[k:k + 4], 16), "?"))
                else:
                    words.append(" ")
    text = unicodedata.normalize("NFKC", "".join(words).replace("\t", " "))  # ﬁ -> fi
    return re.sub(r"\s+", " ", text)


def page_count(path: str | Path) -> int:
    data = Path(path).read_bytes()
    return len(re.findall(rb"/Type\s*/Page\b", data))
