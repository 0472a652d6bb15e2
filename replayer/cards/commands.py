"""``replayer cards``: import card data, and show what is known of a card and where it came from.

    replayer cards import PATH…        read an EDOPro/YGOPro install, cdbs, scripts, JSON card lists
    replayer cards ygo NAME            a card's effects, their properties and their sources
    replayer cards dm NAME

``cards_db_option`` is the ``--cards-db PATH`` option that ``check``, ``view`` and ``import`` share.
"""

from __future__ import annotations

import json
import os
import sys
import time

import click

from .. import i18n
from ..i18n import M, Msg
from ..safe import json_safe, shorten, visible
from ..textwidth import ljust, width
from .layers import ENV, cards_db_path, catalog_for, suggest, use_cards_db

CARDS_DB_HELP = M("the card database (default: cards.db in the user data folder, used when it exists; "
                  "env REPLAYER_CARDS_DB)").text


def _choose(ctx, param, value):
    if value is not None:
        use_cards_db(value)
        os.environ[ENV] = value  # worker processes (import --jobs) choose the same
    return value


def cards_db_option(f):
    return click.option("--cards-db", "cards_db", type=click.Path(dir_okay=False), default=None, expose_value=False,
                        callback=_choose, is_eager=True, help=CARDS_DB_HELP)(f)


class _GameOrCommand(click.Group):
    """``cards <game> NAME`` for every game replayer knows (``cards ygo Honest``), and ``cards import PATH…``."""

    def parse_args(self, ctx, args):
        # `replayer cards ygo "Honest"`: the game is a subcommand; "Ygo" works too
        from .. import games

        if args and args[0].lower() in games.ALL:
            args = [args[0].lower()] + list(args[1:])
        return super().parse_args(ctx, args)

    def list_commands(self, ctx):
        from .. import games

        return sorted(super().list_commands(ctx)) + list(games.ALL)

    def get_command(self, ctx, name):
        from .. import games

        if name in games.ALL and name not in self.commands:
            return _game_command(games.ALL[name])
        return super().get_command(ctx, name)


@click.group("cards", cls=_GameOrCommand, context_settings={"help_option_names": ["-h", "--help"]}, help=M("""Card data: `cards ygo NAME`, `cards dm NAME`, `cards import PATH…`.""").text)
def cards() -> None:
    pass


def _say(message) -> str:
    """A message of these commands in the process's language (``--lang``, REPLAYER_LANG, the locale)."""
    return message.render(i18n.current())


def _echo(text: str = "", err: bool = False) -> None:
    """One line of card data to the terminal: text from outside (a card name, a script's comment line, a
    file name) leaves through safe.py, as a log's text does."""
    click.echo(visible(text), err=err)


def _show(game: str, name: tuple[str, ...], fmt: str) -> None:
    from ..games import get as get_game

    text = " ".join(name)
    catalog = catalog_for(get_game(game))
    found = catalog.search(text)
    if not found:
        maybe = suggest(catalog, text)
        hint = _say(M(" — did you mean {names}?", names=i18n.join(f'"{m}"' for m in maybe))) if maybe else ""
        _echo(_say(M("replayer: no {game} card matches {text}{hint}", game=game, text=repr(text), hint=hint)), err=True)
        sys.exit(1)
    builtin = get_game(game).catalog
    for card in found[:20]:
        in_catalog = builtin.find(card.id) is card
        if fmt == "json":
            out = card.to_dict()
            out.setdefault("from", "built-in catalog" if in_catalog else "")
            click.echo(json_safe(json.dumps(out, ensure_ascii=False)))
            continue
        click.echo(click.style(visible(card.id), bold=True) + visible(
            "  " + (_say(M("(built-in catalog)")) if in_catalog else
                    _say(M("(imported: {source})", source=getattr(card, "source", ""))))))
        sources = dict(getattr(card, "sources", ()))
        langs = [lang for lang in ("en", "ja", "de") if lang in card.names]
        # the [sources] in one column, padded by display width (オネスト takes 8 columns, not 4)
        name_w = max((width(visible(card.names[lang])) for lang in langs), default=0)
        for lang in langs:
            where = sources.get(f"name.{lang}")
            name = visible(card.names[lang])
            _echo(f"  {lang}: " + (ljust(name, name_w) + f"   [{where}]" if where else name))
        for alias in card.aliases:
            _echo("  " + _say(M("also: {name}", name=alias)))
        if card.kind:
            where = sources.get("kind")
            _echo("  " + _say(M("kind: {kind}", kind=card.kind)) + (f"   [{where}]" if where else ""))
        stats = []
        if card.atk is not None or card.def_ is not None:
            stats.append(f"ATK/DEF {card.atk if card.atk is not None else '?'}/{card.def_ if card.def_ is not None else '?'}")
        if card.level is not None:
            stats.append(_say(M("level {n}", n=card.level)))
        if card.power is not None:
            stats.append(_say(M("power {n}", n=card.power)))
        if stats:
            where = sources.get("stats") or sources.get("power")
            _echo("  " + ", ".join(stats) + (f"   [{where}]" if where else ""))
        props = sorted(card.props - {card.kind})
        if props:
            _echo("  " + _say(M("properties: {words}", words=", ".join(props))))
        effect_sources = getattr(card, "effect_sources", ())
        timings = getattr(card, "effect_timings", ())
        details = getattr(card, "effect_details", ())
        for i, eff in enumerate(card.effects, 1):
            detail = details[i - 1] if i <= len(details) else {}
            if isinstance(detail.get("static"), dict):  # an ability on other creatures (Duel Masters)
                line = "  " + _say(M("effect {i}: static, while in the battle zone: {what}", i=i,
                                     what=_describe_static(detail["static"])))
            elif detail.get("unread"):
                line = "  " + _say(M("effect {i}: not read (an info says so where it matters; nothing is applied)", i=i))
            else:
                line = "  " + _say(M("effect {i}: {words}", i=i, words=", ".join(sorted(eff)) or _say(M("(no property words)"))))
            _echo(line)
            if i <= len(effect_sources):
                _echo("    " + _say(M("from: {source}", source=effect_sources[i - 1])))
                if i <= len(timings):  # the Damage Step timings the simulator allows (Yu-Gi-Oh! data)
                    allowed = [t for t in ("ds-start", "before-calc", "calc", "after-calc", "ds-end")
                               if t in timings[i - 1]]
                    _echo("    " + _say(M("Damage Step: {timings}", timings=", ".join(allowed) if allowed
                                           else _say(M("not allowed")))))
            elif in_catalog:
                _echo("    " + _say(M("from: built-in catalog ({file})", file=f"replayer/games/{game}/catalog.toml")))
        if in_catalog and not card.effects and props:
            _echo("    " + _say(M("from: built-in catalog ({file})", file=f"replayer/games/{game}/catalog.toml")))
        for note in card.notes:
            _echo("    " + _say(M("note: {note}", note=note)))
    if len(found) > 20:
        _echo(_say(M("… and {n} more", n=len(found) - 20)), err=True)


#: whose creatures a static ability is on (with "other": not the card itself)
_WHOSE = {("yours", False): M.term("static", "your"), ("yours", True): M.term("static", "your other"),
          ("opponents", False): M.term("static", "the opponent's"),
          ("opponents", True): M.term("static", "the opponent's other"),
          ("all", False): M.term("static", "all"), ("all", True): M.term("static", "all other")}
_WHILE_NO_SHIELDS = {"yours": M(" while you have no shields"), "opponents": M(" while your opponent has no shields")}


def _describe_static(st: dict) -> Msg:
    """'your other fire creatures: power-attacker 2000' for a static ability's dict (the property words
    and civilizations as the card data has them: the notation's words)."""
    gives = ", ".join(st.get("gives", ()))
    if st.get("itself"):
        return M("itself{when}: {gives}", when=_WHILE_NO_SHIELDS.get(st.get("while_no_shields"), ""), gives=gives)
    who = st.get("who") if st.get("who") in ("yours", "opponents", "all") else "all"
    civs = "".join(" " + c for c in st.get("civs", ()))
    race = M(" of race {races}", races=i18n.join(st["races"])) if st.get("races") else ""
    needs = M(" that have {words}", words=st["needs"]) if st.get("needs") else ""
    power = M(" of power {n} or more", n=st["power_at_least"]) if st.get("power_at_least") is not None else ""
    return M("{whose}{civs} creatures{race}{needs}{power}: {gives}", whose=_WHOSE[who, bool(st.get("other"))],
             civs=civs, race=race, needs=needs, power=power, gives=gives)


def _game_command(game) -> click.Command:
    """``cards <game> NAME``: a card of ``game`` (any of its names, or part of one), its effects and
    where each came from."""

    about = M("A {game} card (any of its names, or part of one): its effects and where each came from.",
              game=i18n.title(game.title))

    @click.command(game.id, help=about.render("en"))
    @click.argument("name", nargs=-1, required=True)
    @click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
    @cards_db_option
    def show(name: tuple[str, ...], fmt: str) -> None:
        _show(game.id, name, fmt)

    show.help_text = about  # type: ignore[attr-defined]  # (its help in another language: replayer.cli.helptext)
    return show


@cards.command("import", help=M("""Import card data: an EDOPro/YGOPro folder (with its language packs), .cdb files, script
    folders, a YGOProDeck cardinfo JSON file (in any of its languages), a Duel Masters card list.
    Re-importing writes what changed.
    """).text)
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@cards_db_option
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=min(2, os.cpu_count() or 1), show_default=True,
              help=M("read scripts in N processes").text)
@click.option("--progress/--no-progress", default=True, show_default=True, help=M("show a progress bar (on a terminal)").text)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--lang", type=click.Choice(["en", "ja", "de", "fr", "it", "pt"]), default=None,
              help=M("the language of the card names in these files (a YGOProDeck card info in German: --lang de); "
                   "default: told by the folder or file name (de-DE/, cardinfo_de.json), else English").text)
def cards_import(paths: tuple[str, ...], jobs: int, progress: bool, fmt: str, lang: str | None) -> None:
    from .db import CardDB, CardDBError
    from .importer import import_cards

    path = cards_db_path()
    if path is None:
        click.echo(_say(M("replayer: no card database chosen (REPLAYER_CARDS_DB is empty); use --cards-db PATH")),
                   err=True)
        sys.exit(2)
    db = CardDB(path)
    bar = None
    show = progress and sys.stderr.isatty() and fmt == "text"
    started = time.perf_counter()

    def tick(what: str, done: int, total: int) -> None:
        nonlocal bar
        if not show:
            return
        if bar is None:
            bar = click.progressbar(length=total, label=_say(M("reading card data")), file=sys.stderr)
            bar.__enter__()
        bar.update(done - bar.pos)

    try:
        summary = import_cards(paths, db, jobs=jobs, progress=tick, lang=lang)
    except CardDBError as e:
        if bar is not None:
            bar.__exit__(None, None, None)
        _echo(f"replayer: {e}", err=True)
        sys.exit(2)
    if bar is not None:
        bar.__exit__(None, None, None)
    seconds = time.perf_counter() - started
    if fmt == "json":
        click.echo(json_safe(json.dumps({"db": str(path), "seconds": round(seconds, 2),
                                         **summary.to_dict(i18n.current())},
                                        ensure_ascii=False)))
    else:
        if "unchanged files" in summary.cards:
            _echo(_say(M("{n} files read before, none changed since: nothing to import → {path}", n=summary.files,
                         path=str(path))))
            return
        from .. import games as known

        games = i18n.join((M("{n} {game}", n=n, game=i18n.title(known.ALL[g].title) if g in known.ALL else g)
                           for g, n in summary.cards.items()), i18n.COMMA)
        _echo(_say(M("{n} files read in {seconds} s: {games} cards, {effects} effects; {written} cards written, "
                     "{unchanged} unchanged → {path}", n=summary.files, seconds=f"{seconds:.1f}",
                     games=games if summary.cards else M("no"), effects=summary.effects, written=summary.written,
                     unchanged=summary.unchanged, path=str(path))))
        if summary.scripts:
            share = summary.complete_scripts / summary.scripts
            click.echo(_say(M("scripts: {complete} of {scripts} read completely ({share})",
                              complete=summary.complete_scripts, scripts=summary.scripts, share=f"{share:.1%}")))
        if summary.problems:
            click.echo(_say(M("{n} things could not be read:", n=len(summary.problems))))
            for p in summary.problems[:30]:
                _echo(f"  {shorten(i18n.render(p, i18n.current()), 300)}")  # (a script's own text, quoted, is cut and made visible)
            if len(summary.problems) > 30:
                click.echo("  " + _say(M("… and {n} more (--format json lists them all)", n=len(summary.problems) - 30)))
    if not summary.cards:
        sys.exit(1)
