"""Before Qt aborts: `replayer view` finds the libraries Qt's X11 plugin lacks and a display that does
not answer, names the packages, and prints the findings as text instead (issue 14, point 1)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from replayer.gui import preflight

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = "samples/ygo/honest-in-calc.duel"

# what ldd printed on the machine where the issue was found (libxcb-cursor0 installed)
LDD_OUTPUT = """\
\tlinux-vdso.so.1 (0x00007fee82bc2000)
\tlibGL.so.1 => /lib/x86_64-linux-gnu/libGL.so.1 (0x00007fee82a64000)
\tlibxkbcommon-x11.so.0 => /lib/x86_64-linux-gnu/libxkbcommon-x11.so.0 (0x00007fee82a11000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007fee82a0a000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007fee82a02000)
\tlibxcb-keysyms.so.1 => not found
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007fee82000000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007fee82bc4000)
"""


def test_missing_sonames_are_read_from_ldd_once_each_in_order():
    assert preflight.missing_sonames(LDD_OUTPUT) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert preflight.missing_sonames("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n") == []


@pytest.mark.parametrize("soname, package", [
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libX11-xcb.so.1", "libx11-xcb1"),
    ("libdbus-1.so.3", "libdbus-1-3"),
    ("libEGL.so.1", "libegl1"),
    ("libglib-2.0.so.0", "libglib2.0-0"),
    ("libfontconfig.so.1.12.0", "libfontconfig1"),
])
def test_a_soname_maps_to_its_debian_package(soname, package):
    assert preflight.debian_package(soname) == package


def test_the_message_names_the_packages_and_the_display():
    found = preflight.Preflight(platform="xcb", display=":55", display_answers=False,
                                missing=preflight.missing_sonames(LDD_OUTPUT))
    assert not found.ok
    text = found.message()
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1" in text
    assert "DISPLAY=:55 does not answer" in text
    assert preflight.Preflight(platform="xcb", display=":0", display_answers=True).ok


def test_xcb_is_checked_only_where_qt_would_use_it():
    if not sys.platform.startswith("linux"):
        pytest.skip("xcb is Linux's")
    assert preflight.wants_xcb({"DISPLAY": ":0"})
    assert not preflight.wants_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"})
    assert preflight.wants_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"})
    assert not preflight.wants_xcb({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"})
    assert not preflight.wants_xcb({})


def test_a_display_that_listens_answers(tmp_path: Path):
    if not sys.platform.startswith("linux"):
        pytest.skip("X11 sockets are Linux's here")
    assert preflight.display_answers(":55") is False or os.path.exists("/tmp/.X11-unix/X55")
    assert preflight.display_answers("127.0.0.1:57") is False  # TCP port 6057: nothing listens
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        if port >= 6000:
            assert preflight.display_answers(f"127.0.0.1:{port - 6000}") is True


def _fake_ldd(folder: Path, output: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "ldd"
    script.write_text("#!/bin/sh\ncat <<'EOF'\n" + output + "EOF\n")
    script.chmod(0o755)
    return folder


def _view(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "replayer", "view", SAMPLE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_SESSION_TYPE")}
    env.update(extra)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux") or preflight.xcb_plugin() is None,
                    reason="needs Linux and PySide6's xcb plugin")
def test_view_with_missing_xcb_libraries_names_the_packages_and_prints_the_findings(tmp_path: Path):
    bin_dir = _fake_ldd(tmp_path / "bin", LDD_OUTPUT)
    env = _env(DISPLAY=":55", PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = _view(env)
    assert proc.returncode == 1, proc.stderr  # check's status: the sample has an error
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1" in proc.stderr
    assert "error[ygo.ds.atk-mod-after-calc]" in proc.stdout
    assert "Aborted" not in proc.stderr and "Could not load the Qt platform plugin" not in proc.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 displays are Linux's here")
def test_view_on_a_display_that_does_not_answer_prints_the_findings(tmp_path: Path):
    if os.path.exists("/tmp/.X11-unix/X55"):
        pytest.skip("something listens on :55 here")
    bin_dir = _fake_ldd(tmp_path / "bin", "\tlibc.so.6 => /lib/libc.so.6 (0x1)\n")  # every library found
    env = _env(DISPLAY=":55", PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = _view(env)
    assert proc.returncode == 1, proc.stderr
    assert "DISPLAY=:55 does not answer" in proc.stderr
    assert "apt install" not in proc.stderr
    assert "error[ygo.ds.atk-mod-after-calc]" in proc.stdout
    assert "Aborted" not in proc.stderr
