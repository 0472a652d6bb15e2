"""The match library's commands: ``replayer import``, ``replayer search``, ``replayer stats``,
``replayer library`` (its root; ``relink``: logs that moved, found by their content; ``move``).

Thin: each command calls one function (:func:`replayer.importing.import_paths`,
:func:`replayer.store.search`, :func:`replayer.store.stats`) and prints its result. Text
that came from a log (paths, players, events, messages, notes) is printed through
:func:`replayer.safe.visible`, so that no escape sequence in a log reaches the terminal.
"""

from __future__ import annotations

from ..textwidth import ljust, width
from ..textwidth import table as text_table

import json
import os
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import games, i18n
from ..i18n import M, Msg
from ..cards.commands import cards_db_option
from ..reader import find_logs
from ..safe import json_safe, visible

if TYPE_CHECKING:  # imported where used: `replayer check` does not load SQLite
    from .. import store

DB_HELP = M("the library (default: library.db in the user's data folder; env REPLAYER_LIBRARY)").text


def _say(message: Msg) -> str:
    """A message of these commands in the process's language (``--lang``, REPLAYER_LANG, the locale)."""
    return message.render(i18n.current())


def db_option(f):
    return click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="REPLAYER_LIBRARY",
                        show_envvar=False, help=DB_HELP)(f)


def format_option(f):
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                        help=M("text for people, json for programs").text)(f)


def _library_path(db_path: str | None) -> Path:
    from .. import store  # here, not at the top: `replayer check` does not load SQLite

    return Path(db_path) if db_path else store.default_library_path()


def _open(db_path: str | None, *, must_exist: bool = False, reading: bool = False):
    """The library, or a message and exit 2. ``reading`` (search, stats): a library this process
    may not write is opened read-only, and that is said once on stderr."""
    path = _library_path(db_path)
    if must_exist and not path.is_file():
        click.echo(visible(_say(M("replayer: no library at {path}; import logs first: replayer import FOLDER",
                                path=str(path)))), err=True)
        sys.exit(2)
    from .. import store

    read_only = reading and not store.library_writable(path)
    try:
        try:
            db = store.open_library(path, read_only=read_only)
        except store.LibraryError as e:
            if not reading or read_only or "readonly" not in str(e):
                raise
            read_only = True  # writable by its permissions, yet not (a read-only mount)
            db = store.open_library(path, read_only=True)
    except store.LibraryError as e:
        click.echo(visible(f"replayer: {e}"), err=True)
        sys.exit(2)
    if read_only:
        click.echo(visible(_say(M("replayer: {path} is read-only: reading it as it is (nothing is written to it; "
                                "files imported since its search index was last updated may be missed)",
                                path=str(path)))), err=True)
    return db


@contextmanager
def reported_damage(db_path: str | None):
    """An SQLite error while the library is used: a clear message with ``PRAGMA integrity_check``'s
    verdict when the file is corrupt, exit 2; never a traceback."""
    from .. import store

    try:
        yield
    except store.LibraryError as e:
        click.echo(visible(f"replayer: {e}"), err=True)
        sys.exit(2)
    except sqlite3.DatabaseError as e:
        path = _library_path(db_path)
        if store.is_damage(e):
            message = str(store.LibraryDamaged(str(path), str(e), store.integrity_verdict(path)))
        else:
            message = _say(M("{path}: the library cannot be used now ({error})", path=str(path), error=str(e)))
        click.echo(visible(f"replayer: {message}"), err=True)
        sys.exit(2)


def shown_path(path: str) -> str:
    """A log's path (absolute: as a search gives it) as the user would type it: relative to
    here when under here."""
    try:
        return os.path.relpath(path) if Path(path).is_relative_to(Path.cwd()) else path
    except ValueError:
        return path


#: counted words, (one, more than one): "1 match", "2 matches"
COUNTED = {
    "match": (M("{n} match"), M("{n} matches")), "file": (M("{n} file"), M("{n} files")),
    "finding": (M("{n} finding"), M("{n} findings")), "note": (M("{n} note"), M("{n} notes")),
    "error": (M("{n} error"), M("{n} errors")), "warning": (M("{n} warning"), M("{n} warnings")),
    "log": (M("{n} log"), M("{n} logs")), "path": (M("{n} path"), M("{n} paths")),
    "new revision": (M("{n} new revision"), M("{n} new revisions")),
    "duplicate": (M("{n} duplicate"), M("{n} duplicates")), ".duel file": (M("{n} .duel file"), M("{n} .duel files")),
}


def _plural(n: int, word: str) -> str:
    one, more = COUNTED[word]
    return (one if n == 1 else more).replace(n=n).render(i18n.current())


# ---- import ---------------------------------------------------------------------------------
@click.command("import", help=M("""Read, validate and store logs in the library: FILE or DIR (searched for *.duel).

    The same content again changes nothing; a changed file becomes a new revision of its
    match. A file that cannot be read is reported and skipped, the rest are imported.
    Exit status: 0, or 2 when a file was skipped.
    """).text)
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@db_option
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help=M("read and validate in N processes (0: one per CPU); writes stay in one process").text)
@click.option("--progress/--no-progress", default=True, show_default=True,
              help=M("show a progress bar (on a terminal)").text)
@cards_db_option
def import_command(paths: tuple[str, ...], db_path: str | None, jobs: int, progress: bool) -> None:
    files = find_logs(paths)
    if not files:
        click.echo(visible(_say(M("replayer: no .duel files found in {paths}", paths=", ".join(paths)))), err=True)
        sys.exit(2)
    with reported_damage(db_path):
        _import(files, db_path, jobs, progress)


def _import(files, db_path: str | None, jobs: int, progress: bool) -> None:
    db = _open(db_path)
    if jobs == 0:
        jobs = os.cpu_count() or 1
    counts = {"new": 0, "revision": 0, "unchanged": 0, "duplicate": 0, "moved": 0, "skipped": 0}
    problems: list[str] = []
    from ..importing import import_paths

    from .. import store

    root = store.library_root(db.conn)
    outcomes = import_paths(db, files, jobs=jobs)
    show = progress and sys.stderr.isatty()
    try:
        if show:
            with click.progressbar(outcomes, length=len(files), label=_say(M("importing")), file=sys.stderr,
                                   show_pos=True, show_eta=True) as bar:
                for outcome in bar:
                    _count(outcome, counts, problems, root)
        else:
            for outcome in outcomes:
                _count(outcome, counts, problems, root)
                if outcome.status == "skipped":
                    click.echo(problems[-1], err=True)
    finally:
        total = db.execute("SELECT count(*) FROM matches").fetchone()[0]
        db.close()
    if show:
        for line in problems:
            click.echo(line, err=True)
    parts = [_say(M("{n} new", n=counts["new"])), _plural(counts["revision"], "new revision"),
             _say(M("{n} unchanged", n=counts["unchanged"]))]
    if counts["duplicate"]:
        parts.append(_plural(counts["duplicate"], "duplicate"))
    if counts["moved"]:  # logs the library had under another path: their matches follow them
        parts.append(_say(M("{n} moved", n=counts["moved"])))
    if counts["skipped"]:
        parts.append(_say(M("{n} skipped", n=counts["skipped"])))
    click.echo(_say(M("{files}: {counts}; library {library}: {matches}", files=_plural(len(files), "file"),
                    counts=i18n.join(parts, i18n.COMMA), library=str(_library_path(db_path)), matches=_plural(total, "match"))),
               err=True)
    sys.exit(2 if counts["skipped"] else 0)


def _count(outcome: store.ImportOutcome, counts: dict[str, int], problems: list[str], root: str | None) -> None:
    from .. import store

    counts[outcome.status] += 1
    shown = shown_path(store.resolve_key(outcome.path, root))  # (kept relative to the library's root)
    if outcome.report is not None:  # a file that cannot be read: said as `replayer check` says it
        unopened = outcome.report["findings"][0]["rule"] == "file.unreadable"
        problems.append(("replayer: " if unopened else "") + outcome.message)  # (made visible already)
    elif outcome.status == "skipped":
        problems.append(visible(_say(M("replayer: skipped {path}: {why}", path=shown, why=outcome.message))))
    elif outcome.stored and outcome.message:  # stored, with a warning (a Date it cannot read)
        click.echo(visible(_say(M("replayer: warning: {path}: {why}", path=shown, why=outcome.message))), err=True)


# ---- search ---------------------------------------------------------------------------------
def _date_option(ctx, param, value):
    """--from/--to as an ISO date; a value that is no date is a usage error (exit 2)."""
    if value is None:
        return None
    from ..dates import FORMS, parse_date

    iso = parse_date(value)
    if iso is None:
        raise click.BadParameter(_say(M("{value} is not a date; write it as {forms}", value=repr(value), forms=FORMS)))
    return iso


def filter_options(f):
    """The filters ``search`` and ``stats`` share."""
    options = [
        click.option("--player", help=M("a player's name (header A/B) or the letter A or B").text),
        click.option("--event", help=M("part of the header Event (any case)").text),
        click.option("--from", "date_from", metavar="DATE", callback=_date_option,
                     help=M("header Date on or after (2024-05-01, 01.05.2024, 2024/05/01, 2024年5月1日)").text),
        click.option("--to", "date_to", metavar="DATE", callback=_date_option,
                     help=M("header Date on or before (the same forms)").text),
        click.option("--table", help=M("the header Table").text),
        click.option("--round", "round_", metavar="ROUND", help=M("the header Round").text),
        click.option("--game", type=click.Choice(list(games.ALL), case_sensitive=False)),
        click.option("--all-revisions", is_flag=True, help=M("also earlier revisions of changed files").text),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def finding_options(f):
    options = [
        click.option("--card", multiple=True, help=M("a card mentioned on the line (any of its names); repeatable").text),
        click.option("--rule", multiple=True, help=M("a rule id, or a prefix such as ygo.ds; repeatable").text),
        click.option("--kind", multiple=True, help=M("a finding kind (illegal-activation, wrong-timing, ordering, "
                                                   "state, syntax, unknown-card); repeatable").text),
        click.option("--severity", multiple=True, type=click.Choice(["error", "warning", "info"]),
                     help=M("repeatable").text),
    ]
    for option in reversed(options):
        f = option(f)
    return f


@click.command(help=M("""Find matches, findings and notes in the library.

    Match filters (player, event, dates, table, round, game, text) choose matches; finding
    filters (card, rule, kind, severity, and the player's lines) choose findings. Every
    finding and note is printed with its file and line.
    Exit status: 0 something found, 1 nothing found.

    \b
    Examples:
      replayer search --card Honest --kind illegal-activation --from 2024-01-01
      replayer search --player Yuki --severity error
      replayer search --event Frankfurt --table 12 --text appeal
    """).text)
@finding_options
@filter_options
@click.option("--text", help=M("full-text search in the notes (SQLite FTS5: words, \"a phrase\", appeal*, OR)").text)
@click.option("--limit", type=click.IntRange(min=0), default=100, show_default=True,
              help=M("at most this many of each list (0: all)").text)
@format_option
@db_option
def search(card, rule, kind, severity, player, event, date_from, date_to, table, round_, game, all_revisions,
           text, limit, fmt, db_path) -> None:
    from .. import store

    flt = store.Filters(card=card, rule=rule, kind=kind, severity=severity, player=player, event=event,
                        date_from=date_from, date_to=date_to, text=text, table=table, round=round_,
                        game=game.lower() if game else None, all_revisions=all_revisions)
    with reported_damage(db_path):
        db = _open(db_path, must_exist=True, reading=True)
        try:
            result = store.search(db, flt, limit=limit or None)
            messages = finding_messages(db, result.findings, i18n.current())
        finally:
            db.close()
    if fmt == "json":
        out = result.to_dict()
        for section in ("matches", "findings", "notes"):
            for row in out[section]:
                row["file"] = shown_path(row["path"])
        for row in out["findings"]:  # as `check --format json`: the message in the language, the English kept
            if row.get("finding_id") in messages:
                row["message_en"], row["message"] = row["message"], messages[row["finding_id"]]
        click.echo(json_safe(json.dumps(out, ensure_ascii=False)))
    else:
        click.echo(render_search(result, flt, limit, messages))
    sys.exit(0 if (result.total_matches or result.total_findings or result.total_notes) else 1)


def _match_cells(m: dict[str, Any]) -> list[str]:
    where = " · ".join(x for x in (m["event"], _say(M("round {value}", value=m["round"])) if m["round"] else None,
                                   _say(M("table {value}", value=m["table_no"])) if m["table_no"] else None) if x)
    counts = (", ".join(_plural(m[f"{s}_count"], s) for s in ("error", "warning") if m[f"{s}_count"])
              or _say(M("no findings")))
    rev = (_say(M(" (revision {revision} of {revisions})", revision=m["revision"], revisions=m["current_revision"]))
           if m["current_revision"] > 1 else "")
    return [visible(x) for x in (f"{shown_path(m['path'])}{rev}", m["game"],
                                 _say(M("{a} vs {b}", a=m["player_a"], b=m["player_b"])), m["date"] or "", where,
                                 f"[{counts}]")]


def _match_line(m: dict[str, Any]) -> str:
    return "  " + "  ".join(c for c in _match_cells(m) if c)


def render_search(result: store.SearchResult, flt: store.Filters, limit: int,
                  messages: dict[int, str] | None = None) -> str:
    """``replayer search``'s text; ``messages``: finding id -> its message in the chosen language
    (:func:`finding_messages`; a finding not in it shows the library's English)."""
    from ..diagnostics import SEVERITY_WORDS, Severity
    from ..i18n import render

    lang = i18n.current()
    out = [click.style(f"{_plural(result.total_matches, 'match')}", bold=True)]
    if result.matches:  # a table: its columns line up by display width (Japanese names take two a character)
        out += text_table([_match_cells(m) for m in result.matches], indent="  ").split("\n")
    more = "  … " + M("{n} more (--limit 0 shows all)").render(lang)
    if result.total_matches > len(result.matches):
        out.append(more.replace("{n}", str(result.total_matches - len(result.matches))))
    out.append(click.style(_plural(result.total_findings, "finding"), bold=True))
    for f in result.findings:
        who = f" ({f['player_name']})" if f["player_name"] else ""
        rev = _say(M(" [revision {revision}]", revision=f["revision"])) if flt.all_revisions else ""
        severity = f["severity"]
        if lang != "en" and severity in {s.value for s in Severity}:
            severity = render(SEVERITY_WORDS[Severity(severity)], lang)
        message = (messages or {}).get(f["finding_id"], f["message"])
        out.append(visible(f"  {shown_path(f['path'])}:{f['line']}:{f['column']}: {severity}[{f['rule']}]: "
                           f"{message}{who}{rev}"))
    if result.total_findings > len(result.findings):
        out.append(more.replace("{n}", str(result.total_findings - len(result.findings))))
    if flt.text:
        out.append(click.style(_plural(result.total_notes, "note"), bold=True))
        for n in result.notes:
            out.append(visible(f"  {shown_path(n['path'])}:{n['line']}: # {n['text']}"))
        if result.total_notes > len(result.notes):
            out.append(more.replace("{n}", str(result.total_notes - len(result.notes))))
    return "\n".join(out)


# ---- stats ----------------------------------------------------------------------------------
@click.command(help=M("""Count findings per player, per rule, per event, and per event and table.

    With --player, also that player's most frequent mistakes (errors and warnings of the
    rules kinds: illegal-activation, wrong-timing, ordering, state).
    """).text)
@finding_options
@filter_options
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help=M("rows of each table (and of a player's most frequent mistakes)").text)
@format_option
@db_option
def stats(card, rule, kind, severity, player, event, date_from, date_to, table, round_, game, all_revisions,
          top, fmt, db_path) -> None:
    from .. import store

    flt = store.Filters(card=card, rule=rule, kind=kind, severity=severity, player=player, event=event,
                        date_from=date_from, date_to=date_to, table=table, round=round_,
                        game=game.lower() if game else None, all_revisions=all_revisions)
    with reported_damage(db_path):
        db = _open(db_path, must_exist=True, reading=True)
        try:
            result = store.stats(db, flt, top=top)
        finally:
            db.close()
    if fmt == "json":
        click.echo(json_safe(json.dumps(result, ensure_ascii=False)))
        return
    click.echo(render_stats(result, top))


#: the stats tables' column headings, by the column's key
STATS_HEADS = {"player": M.term("stats", "player"), "matches": M.term("stats", "matches"),
               "findings": M.term("stats", "findings"), "errors": M.term("stats", "errors"),
               "warnings": M.term("stats", "warnings"), "rule": M.term("stats", "rule"),
               "kind": M.term("stats", "kind"), "severity": M.term("stats", "severity"),
               "event": M.term("stats", "event"), "table": M.term("stats", "table"),
               "times": M.term("stats", "times"), "e.g.": M.term("stats", "e.g.")}


def _table(title, rows: list[dict], columns: list[tuple[str, str]], top: int) -> list[str]:
    """A stats table: ``title`` (a message), ``columns``: (the row's key, the heading's key in
    :data:`STATS_HEADS`), the cells padded by display width whatever the language."""
    lang = i18n.current()
    out = ["", click.style(title.render(lang), bold=True)]
    if not rows:
        return out + ["  " + _say(M("(none)"))]
    shown = rows[:top]
    cells = [[("—" if r[key] is None else visible(r[key])) for key, _ in columns] for r in shown]
    numeric = [all(isinstance(r[key], int) for r in shown) for key, _ in columns]
    # padded by display width: 全日本選手権 takes 12 columns, not 6 (replayer/textwidth.py)
    heads = [STATS_HEADS[head].render(lang) for _, head in columns]
    out += text_table([heads] + cells, numeric, indent="  ").split("\n")
    if len(rows) > top:
        out.append("  … " + _say(M("{n} more (--top)", n=len(rows) - top)))
    return out


def render_stats(result: dict[str, Any], top: int) -> str:
    t = result["totals"]
    out = [_say(M("{matches}, {findings} ({errors}, {warnings}, {infos} info)", matches=_plural(t["matches"], "match"),
                findings=_plural(t["findings"], "finding"), errors=_plural(t["errors"], "error"),
                warnings=_plural(t["warnings"], "warning"), infos=t["infos"]))]
    counts = [("findings", "findings"), ("errors", "errors"), ("warnings", "warnings")]
    out += _table(M("Findings per player"), result["players"], [("player", "player"), ("matches", "matches"), *counts],
                  top)
    out += _table(M("Findings per rule"), result["rules"],
                  [("rule", "rule"), ("kind", "kind"), ("severity", "severity"), ("findings", "findings"),
                   ("matches", "matches")], top)
    out += _table(M("Findings per event"), result["events"], [("event", "event"), ("matches", "matches"), *counts],
                  top)
    out += _table(M("Findings per event and table"), result["tables"],
                  [("event", "event"), ("table_no", "table"), ("matches", "matches"), *counts], top)
    if "mistakes" in result:
        rows = [{**r, "example": shown_path(r["example"].rsplit(":", 1)[0]) + ":" + r["example"].rsplit(":", 1)[1]}
                for r in result["mistakes"]]
        out += _table(M("Most frequent mistakes"), rows,
                      [("rule", "rule"), ("kind", "kind"), ("findings", "times"), ("matches", "matches"),
                       ("example", "e.g.")], top)
    return "\n".join(out)


def finding_messages(db, findings: list[dict], lang: str) -> dict[int, str]:
    """The messages of the library's ``findings`` (search rows) in ``lang``: finding id -> message.

    The library stores a finding's message in English (its text and its JSON stay as they were);
    its parameters (the card, the timing, the player) are in the log, whose text the library keeps
    with each revision. So each revision the rows come from is checked again here, and a stored
    finding takes the message of the finding the check gives at the same line, column and rule with
    the same English message; one that the check no longer gives (the rules changed since it was
    imported) keeps its English. English: nothing to do."""
    if lang == "en" or not findings:
        return {}
    from .. import store
    from ..check import check_text

    out: dict[int, str] = {}
    checked: dict[tuple[str, int], dict] = {}
    for f in findings:
        key = (f["path"], f["revision"])
        if key not in checked:
            checked[key] = {}
            text = store.match_text(db, f["path"], f["revision"])
            if text is None:
                continue
            try:
                result = check_text(text, f["path"])
            except Exception:  # (a log the current code cannot check: its findings keep their English)
                continue
            words = result.hint_words
            checked[key] = {(x.span.line, x.span.column, x.rule, x.message): x.in_language(lang, words).message
                            for x in result.findings}
        message = checked[key].get((f["line"], f["column"], f["rule"], f["message"]))
        if message is not None:
            out[f["finding_id"]] = message
    return out


# ---- library: the root, logs that moved --------------------------------------------------------
@click.group("library", invoke_without_command=True, help=M("""Where the library's logs are: its root, and the logs not where it has them.

    The library keeps each log under its root by its path relative to the root (at first the
    root is the library's own folder), so that a library copied to another machine with its
    logs, or on a share mounted elsewhere, still opens them. The root is kept relative to the
    library's folder too. A log outside the root is kept by its absolute path.

    \b
    Examples:
      replayer library --db /mnt/team/event/library.db
      replayer library --db db/library.db --root .
      replayer library relink --db /mnt/team/event/library.db
    """).text)
@click.option("--root", "root", metavar="DIR", type=click.Path(exists=True, file_okay=False),
              help=M("make DIR the library's root: the logs under it are kept by their path relative to it").text)
@db_option
@click.pass_context
def library(ctx: click.Context, root: str | None, db_path: str | None) -> None:
    ctx.obj = {"db_path": db_path}
    if ctx.invoked_subcommand is not None and root is None:
        return
    with reported_damage(db_path):
        db = _open(db_path, must_exist=True, reading=root is None)
        try:
            from .. import store

            if root is not None:
                change = store.set_root(db, root)
                click.echo(visible(_say(M("root: {root} (kept as {setting}, relative to the library's folder); "
                                          "{paths} changed", root=shown_path(change.root or root),
                                          setting=repr(change.setting), paths=_plural(change.changed, "path")))))
            if ctx.invoked_subcommand is None:
                click.echo(render_places(store.library_places(db), _library_path(db_path)))
        finally:
            db.close()


def render_places(places: store.LibraryPlaces, db_file: Path, shown: int = 20) -> str:
    from .. import store

    root = places.root or ""
    how = store.shown_root(places.setting)
    heads = {k: _say(v) for k, v in (("library", M.term("places", "library")), ("root", M.term("places", "root")),
                                      ("matches", M.term("places", "matches")), ("missing", M.term("places", "missing")))}
    pad = max(max(width(h) for h in heads.values()) + 2, 9)

    def row(key: str, text: str) -> str:
        return ljust(heads[key], pad) + text

    out = [visible(row("library", shown_path(str(db_file)))),
           visible(row("root", f"{root} ({how})" if root else _say(M("none (an in-memory library)")))),
           row("matches", _say(M("{n}: {relative} relative to the root, {absolute} by absolute path", n=places.matches,
                                 relative=places.relative, absolute=places.absolute)))]
    if places.missing:
        logs = _plural(len(places.missing), "log")
        out.append(row("missing", _say(M("{logs} not where the library has them:", logs=logs) if len(places.missing) != 1
                                       else M("{logs} not where the library has it:", logs=logs))))
        out += [visible(f"  {shown_path(p)}") for p in places.missing[:shown]]
        if len(places.missing) > shown:
            out.append("  … " + _say(M("{n} more", n=len(places.missing) - shown)))
        out.append("  " + _say(M("`replayer library relink [DIR]` finds logs that moved, by their content")))
    else:
        out.append(row("missing", _say(M("none: every log is where the library has it"))))
    return "\n".join(out)


def _group_db(ctx: click.Context, db_path: str | None) -> str | None:
    return db_path or (ctx.obj or {}).get("db_path")


@library.command("relink", help=M("""Find the logs that moved or were renamed, by their content, and relink their matches.

    Scans the .duel files under FOLDER (default: the library's root). A file with the bytes
    of a missing log is that log: its match (revisions, findings, verdicts) now points there.
    A file of the same name with other content is reported, not relinked (edited after it
    moved? `replayer library move` relinks it by hand). Logs still missing are listed.
    Exit status: 0 every log found, 1 some still missing.
    """).text)
@click.argument("folder", required=False, type=click.Path(exists=True, file_okay=False))
@click.option("--dry-run", is_flag=True, help=M("say what would be relinked; change nothing").text)
@format_option
@db_option
@click.pass_context
def relink(ctx: click.Context, folder: str | None, dry_run: bool, fmt: str, db_path: str | None) -> None:
    from .. import store

    db_path = _group_db(ctx, db_path)
    with reported_damage(db_path):
        db = _open(db_path, must_exist=True, reading=dry_run)  # (a dry run reads a read-only library too)
        try:
            report = store.relink(db, folder, dry_run=dry_run)
        finally:
            db.close()
    if fmt == "json":
        click.echo(json_safe(json.dumps(report.to_dict(), ensure_ascii=False)))
    else:
        click.echo(render_relink(report))
    sys.exit(1 if report.lost else 0)


def render_relink(report: store.RelinkReport, shown: int = 50) -> str:
    def listed(items: list[str]) -> list[str]:
        lines = [visible(f"  {item}") for item in items[:shown]]
        if len(items) > shown:
            lines.append("  … " + _say(M("{n} more", n=len(items) - shown)))
        return lines

    where = shown_path(report.folder) if report.folder else _say(M("(no folder)"))
    out = [visible(_say(M("{files} under {folder}; {matches}, {present} where the library has them",
                          files=_plural(report.scanned, ".duel file"), folder=where,
                          matches=_plural(report.matches, "match"), present=report.present)))]
    logs = _plural(len(report.moved), "log")
    if report.moved:
        out.append(click.style(_say(M("would relink {logs}, found by content:", logs=logs) if report.dry_run
                                    else M("relinked {logs}, found by content:", logs=logs)), bold=True))
        out += listed([f"{shown_path(a)} -> {shown_path(b)}" for a, b in report.moved])
    if report.edited:
        out.append(click.style(_say(M("not relinked: {logs} whose name is there with other content (edited after it "
                                      "moved?):", logs=_plural(len(report.edited), "log"))), bold=True))
        out += listed([_say(M("{log}: {others} differs; if it is the same match: replayer library move {log} {first}",
                              log=shown_path(a), others=", ".join(shown_path(c) for c in cands),
                              first=shown_path(cands[0])))
                       for a, cands in report.edited])
    if report.taken:
        out.append(click.style(_say(M("not relinked: {logs} whose content is at a path the library holds as another "
                                      "match:", logs=_plural(len(report.taken), "log"))), bold=True))
        out += listed([_say(M("{log}: same content as {other}", log=shown_path(a), other=shown_path(b)))
                       for a, b in report.taken])
    if report.missing:
        out.append(click.style(_say(M("still missing: {logs} (no file with its content under the folder; the library "
                                      "keeps its text):", logs=_plural(len(report.missing), "log"))), bold=True))
        out += listed([shown_path(p) for p in report.missing])
    if report.changed:
        out.append(click.style(_say(M("changed since imported: {logs} (`replayer import` stores the new revision):",
                                      logs=_plural(len(report.changed), "log"))), bold=True))
        out += listed([shown_path(p) for p in report.changed])
    if not (report.moved or report.lost):
        out.append(_say(M("every log is where the library has it")))
    return "\n".join(out)


@library.command("move", help=M("""Relink the match of the log WAS (as the library shows it) to the file NOW, whatever its
    content: for a log that moved and was edited. `replayer import NOW` then stores its
    content as a new revision of that match (the earlier ones and their verdicts stay).""").text)
@click.argument("was", type=click.Path())
@click.argument("now", type=click.Path(exists=True, dir_okay=False))
@db_option
@click.pass_context
def move(ctx: click.Context, was: str, now: str, db_path: str | None) -> None:
    from .. import store

    db_path = _group_db(ctx, db_path)
    with reported_damage(db_path):
        db = _open(db_path, must_exist=True)
        try:
            store.move_to(db, was, now)
        finally:
            db.close()
    click.echo(visible(_say(M("{was} -> {now}; `replayer import {now}` stores its content as the match's next "
                              "revision", was=shown_path(was), now=shown_path(now)))))
