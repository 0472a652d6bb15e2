"""The import graph of replayer/: no circle at any level, and the core never imports the games.

Every module under replayer/ is parsed with ``ast``; an import counts wherever it is (module
level or inside a function); only ``if TYPE_CHECKING:`` blocks are aside. Relative imports are
resolved; ``from pkg import name`` counts as an import of ``pkg.name`` when that is a module.
The core (``CORE``, with the card readers of ``replayer.cards``) is handed the ``Game`` it works
for: only the composition root (check.py, importing.py, the package's ``__init__``, cli/, gui/,
export/, cards/commands.py) imports ``replayer.games``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "replayer"

#: the core: the stages and their records; none of them imports replayer.games
CORE = ("replayer.lines", "replayer.reader", "replayer.grammar", "replayer.replay", "replayer.states",
        "replayer.snapshot", "replayer.catalog", "replayer.store", "replayer.events", "replayer.diagnostics",
        "replayer.templates", "replayer.transform", "replayer.hints", "replayer.restart", "replayer.knockon",
        # the card readers: handed the Game whose cards they read (cards/commands.py, the CLI, picks it)
        "replayer.cards.db", "replayer.cards.layers", "replayer.cards.derive", "replayer.cards.text",
        "replayer.cards.lua", "replayer.cards.luarun", "replayer.cards.importer", "replayer.cards.names",
        "replayer.cards.constants")
#: imports of replayer.games by the core that are still to be handed down (each must still exist:
#: a stale entry fails, so the list only shrinks)
NOT_YET: set[tuple[str, str]] = set()


def _modules() -> dict[str, Path]:
    out = {}
    for p in ROOT.rglob("*.py"):
        parts = list(p.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(name: str, path: Path, modules: dict[str, Path], *, type_checking: bool = False) -> set[str]:
    """What module ``name`` imports; ``type_checking``: the ``if TYPE_CHECKING:`` blocks' imports too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[str] = []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child) and not type_checking:
                for c in child.orelse:
                    walk_one(c)
                continue
            walk_one(child)

    def walk_one(c: ast.AST) -> None:
        if isinstance(c, ast.Import):
            found.extend(a.name for a in c.names)
        elif isinstance(c, ast.ImportFrom):
            if c.level:
                base = package.split(".")
                base = base[: len(base) - (c.level - 1)]
                mod = ".".join(base) + ("." + c.module if c.module else "")
            else:
                mod = c.module or ""
            for a in c.names:
                sub = f"{mod}.{a.name}"
                found.append(sub if sub in modules else mod)
        else:
            walk(c)

    walk(ast.parse(path.read_text(encoding="utf-8")))
    out = set()
    for mod in found:
        while mod and mod not in modules:
            mod = mod.rpartition(".")[0]
        if mod and mod != name:
            out.add(mod)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _within(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            strong(v)
    return out


def test_the_graph_sees_imports_inside_functions_and_resolves_relative_ones():
    graph = _graph()
    assert "replayer.games" in graph["replayer.check"]  # `from . import games`
    assert "replayer.knockon" in graph["replayer.check"]  # inside check_match
    assert "replayer.cards.names" in graph["replayer.catalog"]  # inside Catalog.suggest


def test_no_circle_among_replayers_modules():
    assert _cycles(_graph()) == []


def test_the_core_never_imports_the_games():
    graph = _graph()
    found = {(v, w) for v, ws in graph.items() if _within(v, CORE) for w in ws if _within(w, ("replayer.games",))}
    assert found - NOT_YET == set()
    assert NOT_YET <= found  # a stale entry: take it off the list


def test_the_core_never_imports_the_pipeline_or_what_is_built_on_it():
    graph = _graph()
    up = ("replayer.check", "replayer.cli", "replayer.gui", "replayer.export", "replayer.importing")
    assert {(v, w) for v, ws in graph.items() if _within(v, CORE) for w in ws if _within(w, up)} == set()


#: the window's composition: the only modules of replayer/gui that know the MainWindow
WINDOW = ("replayer.gui.app", "replayer.gui.window")


def test_no_part_of_the_window_imports_the_window_or_takes_it():
    """The window's parts (every module of replayer/gui outside :data:`WINDOW`) are handed what they
    show: none imports app.py or the window package, not even for a type (``TYPE_CHECKING``
    counted: the MainWindow cannot be named without it), none names ``MainWindow``, and no function
    of theirs has a parameter called ``window`` (the way the whole window was handed over untyped;
    a parameter under another name cannot be told apart statically, so that much is a guard)."""
    modules = _modules()
    parts = {n: p for n, p in modules.items() if _within(n, ("replayer.gui",)) and not _within(n, WINDOW)}
    imports = {(n, w) for n, p in parts.items() for w in _imports(n, p, modules, type_checking=True)
               if _within(w, WINDOW)}
    assert imports == set()
    named = set()
    for n, p in parts.items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Name) and node.id == "MainWindow") or (
                    isinstance(node, ast.Attribute) and node.attr == "MainWindow") or (
                    isinstance(node, ast.Constant) and isinstance(node.value, str) and "MainWindow" in node.value):
                named.add((n, node.lineno))
            if isinstance(node, ast.arg) and node.arg in ("window", "main_window"):
                named.add((n, node.lineno))
    assert named == set()
