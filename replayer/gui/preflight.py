"""Before Qt starts: can the window open here?

Qt aborts the whole process (``qt.qpa.plugin: Could not load the Qt platform plugin "xcb"``,
exit 134) when its X11 platform plugin lacks a shared library or the display does not answer,
and its message names a library that may not be the missing one. This module finds out first,
without importing Qt: ``ldd`` on PySide6's ``platforms/libqxcb.so`` lists the libraries the
loader cannot find, which are mapped to the Debian/Ubuntu packages that carry them, and a
connection to the X server tells whether ``DISPLAY`` answers. ``replayer view`` then says what
to install and prints the findings as text instead of aborting.

Nothing here imports PySide6 (only its location is looked up), so it is safe to call first.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: sonames whose Debian package name does not follow the usual rule (see :func:`debian_package`)
PACKAGE_OF_SONAME = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libGLX.so.0": "libglx0",
    "libGLdispatch.so.0": "libglvnd0",
    "libOpenGL.so.0": "libopengl0",
    "libfreetype.so.6": "libfreetype6",
    "libpng16.so.16": "libpng16-16",
    "libz.so.1": "zlib1g",
    "libzstd.so.1": "libzstd1",
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
}

#: what a bare Debian/Ubuntu desktop may lack for Qt's xcb plugin (the README lists the same)
XCB_PACKAGES = ("libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-image0",
                "libxcb-render-util0", "libxcb-shape0", "libxcb-xkb1", "libxkbcommon-x11-0",
                "libegl1", "libgl1", "libfontconfig1", "libdbus-1-3")

_SONAME = re.compile(r"^(?P<stem>lib[\w.+-]*?)\.so\.(?P<major>\d+)(?:\.\d+)*$")
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$")


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships ``soname``, by Debian's library-package naming
    (``libxcb-icccm.so.4`` → ``libxcb-icccm4``; a stem ending in a digit takes a hyphen:
    ``libxkbcommon-x11.so.0`` → ``libxkbcommon-x11-0``), with :data:`PACKAGE_OF_SONAME` for the
    exceptions."""
    if soname in PACKAGE_OF_SONAME:
        return PACKAGE_OF_SONAME[soname]
    m = _SONAME.match(soname)
    if not m:
        return soname
    stem, major = m["stem"].lower(), m["major"]
    return f"{stem}-{major}" if stem[-1].isdigit() else f"{stem}{major}"


def missing_sonames(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` reports as ``not found``, once each, in the order it printed them."""
    found = [m.group(1) for line in ldd_output.splitlines() if (m := _NOT_FOUND.match(line))]
    return list(dict.fromkeys(found))


def pyside_dir() -> Path | None:
    """PySide6's folder, without importing it (None if it is not installed)."""
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def xcb_plugin() -> Path | None:
    """PySide6's X11 platform plugin, if it is there."""
    base = pyside_dir()
    if base is None:
        return None
    for candidate in (base / "Qt" / "plugins" / "platforms" / "libqxcb.so",
                      base / "plugins" / "platforms" / "libqxcb.so"):
        if candidate.is_file():
            return candidate
    return None


def ldd_missing(library: Path) -> list[str] | None:
    """The sonames ``library`` needs that the loader cannot find (None: ``ldd`` not available)."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    try:
        proc = subprocess.run([ldd, str(library)], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return missing_sonames(proc.stdout + "\n" + proc.stderr)


def _x11_address(display: str) -> tuple[str, str | int] | None:
    """Where the X server of ``display`` listens: ("unix", path) or ("tcp", (host, port))."""
    m = re.match(r"^(?:(?P<proto>[a-z]+)/)?(?P<host>[^:]*):(?P<num>\d+)(?:\.\d+)?$", display)
    if not m:
        return None
    host, num = m["host"], int(m["num"])
    if m["proto"] == "unix" or host in ("", "unix"):
        return ("unix", f"/tmp/.X11-unix/X{num}")
    return ("tcp", (host, 6000 + num))  # type: ignore[return-value]


def display_answers(display: str, timeout: float = 2.0) -> bool | None:
    """Whether an X server answers at ``display`` (None: the address cannot be read, so unknown).

    A connection is opened and closed; X's authorisation is left to Qt."""
    if display.startswith("/"):  # a launchd socket path (macOS XQuartz)
        return os.path.exists(display) or None
    address = _x11_address(display)
    if address is None:
        return None
    kind, where = address
    try:
        if kind == "unix":
            path = str(where)
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(timeout)
                try:
                    s.connect(path)
                    return True
                except OSError:
                    pass
            if sys.platform.startswith("linux"):  # X servers on Linux also listen on the abstract socket
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                    s.settimeout(timeout)
                    s.connect("\0" + path)
                    return True
            return False
        with socket.create_connection(where, timeout=timeout):  # type: ignore[arg-type]
            return True
    except OSError:
        return False


@dataclass
class Preflight:
    """What stops the window from opening here (nothing: :attr:`ok`)."""

    platform: str = ""
    display: str | None = None
    display_answers: bool | None = None
    missing: list[str] = field(default_factory=list)

    @property
    def packages(self) -> list[str]:
        return list(dict.fromkeys(debian_package(s) for s in self.missing))

    @property
    def ok(self) -> bool:
        return not self.missing and self.display_answers is not False

    def message(self) -> str:
        parts = []
        if self.missing:
            parts.append(f"Qt's X11 platform plugin cannot load: {', '.join(self.missing)} "
                         f"{'is' if len(self.missing) == 1 else 'are'} missing. On Debian/Ubuntu: "
                         f"sudo apt install {' '.join(self.packages)}")
        if self.display_answers is False:
            if self.display:
                parts.append(f"the display DISPLAY={self.display} does not answer (no X server there, "
                             "or an ssh session without X forwarding)")
            else:
                parts.append("QT_QPA_PLATFORM asks for xcb but DISPLAY is not set")
        return "; ".join(parts)


def wants_xcb(env: dict[str, str] | os._Environ = os.environ) -> bool:
    """Whether Qt would start its X11 (xcb) platform plugin in this environment."""
    if not sys.platform.startswith("linux"):
        return False
    platform = env.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(";")[0].split(":")[0] == "xcb"
    if env.get("WAYLAND_DISPLAY") and env.get("XDG_SESSION_TYPE") == "wayland":
        return False  # Qt 6 prefers its Wayland plugin there
    return bool(env.get("DISPLAY"))


def check(env: dict[str, str] | os._Environ = os.environ) -> Preflight:
    """Look before Qt leaps: the xcb plugin's libraries and the display (only where xcb is used)."""
    result = Preflight(platform="xcb" if wants_xcb(env) else env.get("QT_QPA_PLATFORM", ""))
    if result.platform != "xcb":
        return result
    plugin = xcb_plugin()
    if plugin is not None:
        result.missing = ldd_missing(plugin) or []
    result.display = env.get("DISPLAY") or None
    result.display_answers = display_answers(result.display) if result.display else False
    return result
