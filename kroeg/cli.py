"""The `kroeg` command: a thin layer over the packages.

Each command parses its options, calls the library, and prints. A user's
mistake (bad input, a folder that is not a dataset, an illegal hand) ends
with one line `Error: …` and exit code 1; bad usage exits with 2.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, NoReturn

import typer
from typer.exceptions import TyperException

import kroeg._threads  # noqa: F401  (first: before numpy loads OpenBLAS)
from kroeg._native import describe
from kroeg._options import (
    Bar,
    DatasetArg,
    Engine,
    EngineOpt,
    FilesArg,
    GameOpt,
    GameType,
    Grouping,
    IncludeSimulatedOpt,
    LogFormat,
    MasterOpt,
    Partition,
    RulesOpt,
    SinceOpt,
    Source,
    TableFormat,
    UntilOpt,
    VariantOpt,
    Working,
    analyse,
    choice_message,
    day,
    friendly,
    open_dataset,
    read_line,
    red_suits,
    say,
    screen_width,
    stopped_lines,
    terminal_width,
)
from kroeg.analytics.words import LANGUAGES
from kroeg.analytics.workers import in_workers, usable_cores
from kroeg.parsers.files import import_files
from kroeg.parsers.validate import in_parts, validate_file
from kroeg.recorder.atomic import atomic_write
from kroeg.recorder.errors import (
    DashboardError,
    DatasetError,
    JournalError,
    KroegError,
    NotFoundError,
    RejectedError,
    UsageError,
)
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import check_simulation, simulate_into
from kroeg.recorder.text import plural, visible_text

if TYPE_CHECKING:
    from kroeg.recorder.store import Dataset

__all__ = ["app", "main"]

app = typer.Typer(
    name="kroeg",
    help="Record, replay and analyse hand histories of Dutch café card games "
    "(Toepen and Troefcall).\n\n"
    "Example: kroeg simulate --hands 1000 --out club.kroeg && kroeg info club.kroeg",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        import kroeg

        say(f"kroeg {kroeg.__version__} (engine: {describe()})")
        raise typer.Exit()


@app.callback()
def _kroeg(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Say kroeg's version and whether its engine runs compiled, then stop.",
        ),
    ] = False,
) -> None:
    """The options before a command (the app's help is the Typer's, above)."""


@app.command()
@friendly
def simulate(
    out: Annotated[Path, typer.Option("--out", help="Dataset folder to write into.")],
    rules: RulesOpt = "classic",
    variant: VariantOpt = None,
    players: Annotated[int, typer.Option(help="Players at the table.")] = 4,
    hands: Annotated[
        int, typer.Option(help="Total hands, split into as many games as needed.")
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same games.")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            help="Bot styles by seat, comma-separated. Toepen: random, cautious, bluffer, "
            "sharp; Troefcall: random, sharp."
        ),
    ] = "random",
    start: Annotated[
        datetime | None,
        typer.Option(
            help="The first evening, as 2026-11-01 (games are evenings of three, one a day, "
            "from 20:00). Default: evenings up to today, the last one today.",
            parser=day,
        ),
    ] = None,
    venue: Annotated[str | None, typer.Option(help="Venue to record with every game.")] = None,
) -> None:
    """Play engine games with bots and add them to a dataset.

    Example: kroeg simulate --rules classic --players 4 --hands 10000 --seed 1
    --bots random,bluffer,cautious,sharp --out club.kroeg

    Troefcall: kroeg simulate --rules troefcall -V target-15 --bots sharp,random --out club.kroeg
    """
    ruleset = Ruleset.resolve(rules, variant or [])
    check_simulation(ruleset, players, hands, bots.split(","), venue)  # before the progress bar
    dataset = open_dataset(out).create()
    began = time.perf_counter()
    if start is None:  # evenings up to tonight: no game dated in the future
        today = datetime.now(UTC).replace(hour=20, minute=0, second=0, microsecond=0)
        started, backwards = today, True
    else:
        started, backwards = start.replace(tzinfo=start.tzinfo or UTC), False
        if started.hour == 0 and started.minute == 0:
            started = started.replace(hour=20)  # a date alone: the evening
    with contextlib.ExitStack() as stack:
        update = None
        if sys.stderr.isatty():  # a bar on a terminal; nothing in a log or a pipe
            bar = stack.enter_context(Bar(hands, "Simulating"))
            update = bar.update
        report = simulate_into(
            dataset, ruleset, players, hands, seed, bots.split(","), started, venue, update,
            backwards=backwards,
        )  # fmt: skip
    seconds = time.perf_counter() - began
    say(
        f"Simulated {hands:,} hands in {report.games:,} games ({ruleset.name}, {players} "
        f"players, bots {bots}) in {seconds:.1f} s."
    )
    say(f"{out}: {report.added:,} games added, {report.skipped:,} already there.")


@app.command()
@friendly
def compact(
    dataset: DatasetArg,
    partition: Annotated[
        Partition | None,
        typer.Option(
            "--partition",
            help="month: one folder per month of play (month=2026-11), so that reading one "
            "month reads little (docs/FORMAT.md).",
        ),
    ] = None,
) -> None:
    """Rewrite a dataset's many small files into one sorted file per table.

    Readers running meanwhile see every game exactly once.

    Example: kroeg compact club.kroeg --partition month
    """
    ds = open_dataset(dataset)
    ds.check()
    size_before = _parquet_bytes(ds)
    with Working(f"Compacting {dataset}") as working:
        before, after = ds.compact(None if partition is None else partition.value, working.stage)
    size_after = _parquet_bytes(ds)
    say(
        f"{dataset}: {plural(before, 'file')} compacted into {after}; "
        f"{size_before:,} bytes before, {size_after:,} after."
    )
    if size_after > size_before:
        files = "one sorted file per table" + (" and month" if partition else "")
        say(
            f"It is {size_after - size_before:,} bytes larger: {files} reads faster, but "
            "can compress a little less well than the small files it replaced. Nothing was "
            "lost."
        )


def _parquet_bytes(ds: Dataset) -> int:
    """The bytes of the dataset's tables on disk (its Parquet files)."""
    return sum(p.stat().st_size for t in ("games", "events") for p in ds.files(t))


@app.command()
@friendly
def check(dataset: DatasetArg) -> None:
    """Read every file of a dataset and say what is wrong and how to recover; change nothing.

    Exit code 1 if anything is wrong (each problem on its own line).

    Example: kroeg check club.kroeg
    """
    ds = open_dataset(dataset)
    with Working(f"Checking {dataset}") as working:
        problems = ds.verify(working.stage) + stopped_lines(ds)
    for problem in problems:
        say(problem)
    if problems:
        raise DatasetError(f"{dataset}: {plural(len(problems), 'problem')} (listed above)")
    say(f"{dataset}: every file reads, every game has its events; nothing to do.")


@app.command()
@friendly
def info(dataset: DatasetArg) -> None:
    """Print a dataset in numbers: games, hands, size on disk, and each player's totals.

    Example: kroeg info club.kroeg
    """
    from kroeg.analytics.report import dataset_report
    from kroeg.analytics.views import consistently

    ds = open_dataset(dataset)
    ds.check()
    with Working(f"Reading {dataset}"):
        report = consistently(lambda: dataset_report(ds))
    say(report)


@app.command()
@friendly
def games(
    dataset: DatasetArg,
    since: SinceOpt = None,
    player: Annotated[
        str | None, typer.Option("--player", help="Only games with this player.")
    ] = None,
    venue: Annotated[str | None, typer.Option("--venue", help="Only games at this venue.")] = None,
    source: Annotated[
        Source | None, typer.Option("--source", help="Only typed, recorded or simulated games.")
    ] = None,
    format: Annotated[TableFormat, typer.Option("--format")] = TableFormat.table,
) -> None:
    """List the games, newest first: id, date, venue, rules, players, hands, result, source.

    Any command's --game takes an id from here, or the start of one. A long venue, rule
    set, roster or result is cut with …; on a terminal more, to fit its width. Piped,
    nothing more is cut; --format csv or json keep every cell whole.

    Example: kroeg games club.kroeg --since 2026-11-01 --player Anna
    """
    from kroeg.analytics.games import games_frame, games_table
    from kroeg.analytics.report import stats_csv, stats_json
    from kroeg.analytics.views import connect, consistently

    ds = open_dataset(dataset)
    ds.check()
    frame = consistently(lambda: games_frame(
        connect(ds), since.date() if since else None, player, venue,
        None if source is None else source.value,
    ))  # fmt: skip
    if format is TableFormat.table:
        say(visible_text(games_table(frame, screen_width())), nl=False)
    else:
        say((stats_csv if format is TableFormat.csv else stats_json)(frame), nl=False)


@app.command()
@friendly
def demo(
    out: Annotated[Path, typer.Option("--out", help="Where to build the demo dataset.")] = Path(
        "demo-data"
    ),
    dashboard_too: Annotated[
        bool, typer.Option("--dashboard/--no-dashboard", help="Open the dashboard afterwards.")
    ] = True,
    port: Annotated[int, typer.Option(help="Port for the dashboard.", min=1, max=65535)] = 8501,
) -> None:
    """Build a demo dataset (the sample logs and bot games of every style), then open the
    dashboard on it.

    Example: kroeg demo --out demo-data
    """
    from kroeg.analytics.demo import build_demo
    from kroeg.analytics.report import dataset_report

    dataset = build_demo(out, say)
    analyse(dataset)
    say("")
    say(dataset_report(dataset))
    if dashboard_too:
        say("")
        dashboard(dataset.path, port=port, host="127.0.0.1")


@app.command()
@friendly
def validate(files: FilesArg) -> None:
    """Parse and referee typed logs without storing anything; list every error.

    Errors read file:line:col: message. Exit code 1 if any file has an error.

    Example: kroeg validate sample_logs/classic-evening.txt
    """
    failed = 0
    for path in files:
        with contextlib.ExitStack() as stack:
            update = None
            run = in_workers if usable_cores() > 1 and in_parts(path) else None
            if run is not None and sys.stderr.isatty():  # a bar on a terminal, part by part
                update = stack.enter_context(Bar(path.stat().st_size, f"Checking {path}")).update
            found = validate_file(path, run, update)
        for error in found.errors:
            say(str(error))
        if found.errors:
            failed += 1
            say(f"{path}: {plural(len(found.errors), 'error')}")
        else:
            say(f"{path}: OK, {plural(found.games, 'game')}, {plural(found.hands, 'hand')}")
    if failed:
        raise RejectedError(
            f"{failed} of {plural(len(files), 'file')} {'has' if failed == 1 else 'have'} errors"
        )


@app.command(name="import")
@friendly
def import_(
    files: FilesArg,
    into: Annotated[Path, typer.Option("--into", help="Dataset folder to land the games in.")],
    lenient: Annotated[
        bool, typer.Option("--lenient", help="Land the good games and hands; list the rest.")
    ] = False,
) -> None:
    """Parse, referee and land typed logs in a dataset.

    Strict by default: each file lands whole or not at all. Importing the same
    file again adds nothing (its games are reported as duplicates). The games landed
    are analysed at once (knock strength, bluffs, fold regret).

    Example: kroeg import sample_logs/*.txt --into club.kroeg
    """
    fresh = not open_dataset(into).exists()
    dataset = open_dataset(into).create()
    try:
        reports = import_files(files, dataset, lenient=lenient)
    finally:
        # Nothing landed in a dataset made for this import: leave no empty folder behind.
        if fresh and not dataset.game_ids():
            import shutil

            shutil.rmtree(dataset.path, ignore_errors=True)
    rejected = 0
    for report in reports:
        for error in report.rejected:
            say(f"rejected: {error}")
        rejected += bool(report.rejected)
        if report.rejected and not report.imported and not report.duplicates:
            outcome = "rejected"
        else:
            outcome = (
                f"imported {plural(len(report.imported), 'game')} "
                f"({plural(report.hands, 'hand')}), "
                f"{plural(len(report.duplicates), 'duplicate')}"
            )
            if report.rejected:
                outcome += f", {plural(len(report.rejected), 'error')}"
        say(f"{report.path}: {outcome}")
        for game_id in report.imported:
            say(f"  game {game_id}")
    total = sum(len(r.imported) for r in reports)
    dupes = sum(len(r.duplicates) for r in reports)
    say(f"{into}: {plural(total, 'game')} imported, {plural(dupes, 'duplicate')}")
    if total:  # the expensive facts when a game lands: a dashboard open on it shows them
        analyse(dataset)
    if rejected:
        raise RejectedError(f"{rejected} of {plural(len(files), 'file')} had errors (listed above)")


@app.command()
@friendly
def export(
    dataset: DatasetArg,
    game: Annotated[
        list[str] | None,
        typer.Option(
            "--game",
            help="A game's id, or the start of it; repeat it for several "
            "(default: every game, or those --since/--until).",
        ),
    ] = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    format: Annotated[LogFormat, typer.Option("--format", help="The notation to write.")] = (
        LogFormat.text
    ),
    out: Annotated[
        Path | None, typer.Option("--out", help="File to write (default: stdout).")
    ] = None,
) -> None:
    """Write games back in the typed notation or as JSON Lines (they read back identical):
    one game, several, a date range or the whole dataset, in the order they were played.

    Example: kroeg export club.kroeg --game e1f2 --format text --out friday.txt

    A month at once: kroeg export club.kroeg --since 2026-11-01 --until 2026-11-30 --out nov.txt
    """
    from kroeg.parsers.export import choose_games, export_games, skip_pandas_lookup

    skip_pandas_lookup()
    ds = open_dataset(dataset)
    ds.check()
    ids = choose_games(ds, game or (), since.date() if since else None,
                       until.date() if until else None)  # fmt: skip
    if not ids:
        raise NotFoundError(f"{dataset}: no games match --since/--until")
    fmt: Literal["text", "jsonl"] = "text" if format is LogFormat.text else "jsonl"
    with Working(f"Exporting {dataset}") as working:

        def progress(done: int, total: int) -> None:
            working.stage(f"{done:,} of {total:,} games")

        if out is None:  # as it is: a file piped from here must read back identical
            written = export_games(ds, ids, fmt, sys.stdout, progress)
            sys.stdout.flush()
        else:
            with atomic_write(out) as handle:  # the file whole, or not at all
                written = export_games(ds, ids, fmt, handle, progress)
    if out is not None:
        what = f"game {ids[0]}" if len(ids) == 1 else f"{written.games:,} games"
        say(f"{out}: {what} written ({plural(written.hands, 'hand')})")


@app.command()
@friendly
def replay(
    dataset: DatasetArg,
    game: GameOpt,
    hand: Annotated[int, typer.Option("--hand", help="Hand number, from 1.", min=1)] = 1,
    step: Annotated[
        bool, typer.Option("--step", help="Wait for Enter between steps (q to stop).")
    ] = False,
) -> None:
    """Show one hand in the terminal, step by step or all at once, with suit symbols.

    Example: kroeg replay club.kroeg --game e1f2 --hand 3 --step
    """
    from kroeg.analytics.views import consistently
    from kroeg.parsers.render import view_hand

    game = open_dataset(dataset).resolve_game(game)
    record = consistently(lambda: open_dataset(dataset).read_game(game))
    view = view_hand(record, hand)
    color = sys.stdout.isatty()
    for line in view.heading:
        typer.echo(typer.style(visible_text(line), bold=True) if color else visible_text(line))
    interactive = step and sys.stdin.isatty()
    for number, block in enumerate(view.steps, start=1):
        for line in block:
            typer.echo(red_suits(line) if color else visible_text(line))
        if interactive and number < len(view.steps):
            answer = input(
                typer.style(f"[{number}/{len(view.steps)}] Enter: next, q: stop ", dim=True)
            )
            if answer.strip().lower().startswith("q"):
                break


@app.command()
@friendly
def record(
    into: Annotated[
        Path | None, typer.Option("--into", help="Dataset to store the game in.")
    ] = None,
    players: Annotated[
        str | None, typer.Option(help="Names in seat order, comma-separated (asked if left out).")
    ] = None,
    rules: RulesOpt = "classic",
    variant: VariantOpt = None,
    venue: Annotated[str | None, typer.Option(help="Café, club or table.")] = None,
    evening: Annotated[
        str | None,
        typer.Option(
            "--evening",
            help="king-of-the-hill (Troefcall): the winners stay on; after each game kroeg "
            "asks who challenges them and starts the next.",
        ),
    ] = None,
    journal: Annotated[
        Path | None, typer.Option(help="Journal file (default: DATASET/journal/record-….jsonl).")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue the game kept in this journal.")
    ] = None,
) -> None:
    """Enter a game at the table, hand by hand; the engine checks every step.

    Every accepted step is written to a journal before the next prompt, so nothing
    typed is lost; --resume continues after a crash. The game is stored when it
    ends or on 'quit'; 'pause' (or end of input) keeps it for --resume.
    Commands are read line by line when standard input is not a terminal.

    Example: kroeg record --into club.kroeg --players Anna,Ben,Carla,Dan

    Troefcall: kroeg record --into club.kroeg --players Anna,Ben,Carla,Dan --rules troefcall

    A king-of-the-hill evening (docs/RULES.md): kroeg record --into club.kroeg --players
    Anna,Ben,Carla,Dan --rules troefcall --evening king-of-the-hill
    """
    # Here, not at the top: the other commands start 0.05 s sooner without them.
    from kroeg.parsers import commands
    from kroeg.recorder.manual import ManualGame

    interactive = sys.stdin.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - arrow keys and history at the prompt
    if resume is not None:
        manual = ManualGame.resume(resume)
        if manual.landed is not None:
            raise JournalError(f"{resume}: this game was already stored as {manual.landed}")
        say(f"resuming {resume}: hand {manual.game.hand_no}, {len(manual.inputs)} steps")
    else:
        if into is None:
            raise UsageError("say where to store the game: --into DATASET (or --resume JOURNAL)")
        ruleset = Ruleset.resolve(rules, variant or [])
        if players is None:
            players = read_line("players (seat order, commas): ", interactive) or ""
        names = [n.strip() for n in players.split(",")]  # an empty one is refused, not lost
        fresh = not open_dataset(into).exists()
        dataset = open_dataset(into).create()
        stamp = datetime.now(UTC)
        # to the microsecond: two recordings started in one second keep a journal each
        path = journal or dataset.path / "journal" / f"record-{stamp:%Y%m%d-%H%M%S-%f}.jsonl"
        try:
            manual = ManualGame.start(
                names, ruleset, path, dataset=into, venue=venue, started_at=stamp, evening=evening
            )
        except KroegError:
            if fresh:  # refused before anything was typed: leave no empty dataset behind
                import shutil

                shutil.rmtree(dataset.path, ignore_errors=True)
            raise
        say(f"journal: {path}  (after a crash: kroeg record --resume {path})")

    def read(prompt: str) -> str | None:
        return read_line(prompt, interactive)

    refused = commands.loop(commands.Session(manual), read, say)
    # A king-of-the-hill evening goes on: the winners stay, challengers are asked for.
    while manual.header.get("evening") and manual.landed is not None and manual.over:
        holders = manual.hill_holders()
        if holders is None:
            say("a draw: nobody holds the hill; start the next game with kroeg record "
                "--evening king-of-the-hill and any four players")  # fmt: skip
            break
        pair = " & ".join(holders)
        seats = " and ".join(str(s + 1) for s, p in enumerate(manual.players) if p in holders)
        say(f"{pair} won and stay on the hill as partners, in seats {seats}")
        line = read(f"[who challenges {pair}? two names, commas; Enter to stop] > ")
        if not line or not line.strip():
            break
        challengers = [n.strip() for n in line.split(",")]
        stamp = datetime.now(UTC)
        path = manual.journal.parent / f"record-{stamp:%Y%m%d-%H%M%S-%f}.jsonl"
        try:
            manual = manual.next_on_the_hill(challengers, path, stamp)
        except KroegError as exc:
            refused += 1
            say(f"  refused: {exc}")
            continue
        say(f"next game: {', '.join(manual.players)}; journal: {path}")
        refused += commands.loop(commands.Session(manual), read, say)
    if refused and not interactive:
        raise RejectedError(f"{plural(refused, 'line')} refused (see above)")


@app.command(name="analyse")
@friendly
def analyse_command(
    dataset: DatasetArg, engine: EngineOpt = Engine.duckdb, master: MasterOpt = "local[2]"
) -> None:
    """Work out the derived facts (knock strength, bluffs, fold regret) of every game not
    analysed yet; games already analysed are skipped. kroeg stats does this by itself.

    Example: kroeg analyse club.kroeg --engine spark --master local[2]
    """
    ds = open_dataset(dataset)
    ds.check()
    done = analyse(ds, engine, master)
    say(f"{dataset}: {plural(done, 'game')} analysed, "
        f"{plural(len(ds.game_ids()) - done, 'game')} already were")  # fmt: skip


@app.command()
@friendly
def stats(
    dataset: DatasetArg,
    by: Annotated[
        Grouping,
        typer.Option(
            "--by",
            help="A column per player (player), in a block per game, month or venue, or a "
            "column per partnership (side).",
        ),
    ] = Grouping.player,
    format: Annotated[TableFormat, typer.Option("--format")] = TableFormat.table,
    player: Annotated[str | None, typer.Option("--player", help="Only this player.")] = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    game_type: Annotated[
        GameType | None,
        typer.Option(
            "--type", help="Only games of this type, toepen or troefcall (default: both)."
        ),
    ] = None,
    engine: EngineOpt = Engine.duckdb,
    master: MasterOpt = "local[2]",
) -> None:
    """Player statistics: each figure as a rate with done/opportunities.

    Example: kroeg stats club.kroeg --by month --since 2026-11-01 --format table

    Partnerships (Troefcall, team toepen): kroeg stats club.kroeg --type troefcall --by side

    On Apache Spark, the same figures: kroeg stats club.kroeg --engine spark
    """
    from kroeg.analytics.engines import connect_engine
    from kroeg.analytics.report import stats_csv, stats_json, stats_table
    from kroeg.analytics.stats import stats_blocks
    from kroeg.analytics.views import consistently

    ds = open_dataset(dataset)
    ds.check()
    analyse(ds, engine, master)
    dates = (since.date() if since else None, until.date() if until else None)
    kind = None if game_type is None else game_type.value
    one_only = None if format is TableFormat.table else format.value
    with Working(f"Counting {dataset}"):
        blocks = consistently(lambda: stats_blocks(
            connect_engine(ds, engine.value, master), kind, by.value, player, *dates,
            one_only=one_only,
        ))  # fmt: skip
    for block in blocks:
        if format is TableFormat.table:
            if len(blocks) > 1:
                say(f"== {block.title} ==\n")
            say(stats_table(block.frame, by.value, block.stats, terminal_width()) + "\n", nl=False)
            if block is not blocks[-1]:
                say("")
        else:
            say((stats_csv if format is TableFormat.csv else stats_json)(block.frame), nl=False)
    if not blocks:
        if player or since or until or game_type:
            raise NotFoundError(
                f"{dataset}: no finished hands match --player/--since/--until/--type"
            )
        raise NotFoundError(
            f"{dataset}: no finished hands yet: add games with kroeg simulate, import or record"
        )


@app.command()
@friendly
def ratings(
    dataset: DatasetArg,
    game_type: Annotated[
        GameType | None,
        typer.Option("--game", help="Only this game type, toepen or troefcall (default: both)."),
    ] = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    format: Annotated[TableFormat, typer.Option("--format")] = TableFormat.table,
    simulated: Annotated[
        bool,
        typer.Option(
            "--simulated", help="The ratings of the bots' games (kroeg simulate, the demo)."
        ),
    ] = False,
) -> None:
    """Skill ratings per player and game type (Bayesian, of who places last), best first, each
    with its interval (±2σ); ? marks a provisional rating (fewer than 20 games).

    Rated game by game in the order played, Troefcall partners and team-toepen sides
    together; the club's games only, or with --simulated the bots' games alone (never
    mixed). Stored once under DATASET/derived/ratings; --since/--until rate only the games
    of those dates, from scratch.

    Example: kroeg ratings club.kroeg --game toepen --since 2026-09-01 --format table
    """
    from kroeg.analytics.ratings import INTERVAL, PROVISIONAL_GAMES, ratings_frame, update_ratings
    from kroeg.analytics.report import ratings_table, stats_csv, stats_json
    from kroeg.analytics.views import connect, consistently

    ds = open_dataset(dataset)
    ds.check()
    kind = None if game_type is None else game_type.value
    dates = (since.date() if since else None, until.date() if until else None)
    if since and until and dates[0] > dates[1]:  # type: ignore[operator]
        raise UsageError(f"--since {dates[0]} is after --until {dates[1]}")
    with Working(f"Rating {dataset}"):
        update_ratings(ds)
        frame = consistently(lambda: ratings_frame(connect(ds), kind, simulated, *dates))
    if frame.is_empty():
        whose = "games the bots played" if simulated else "club games"
        asked = " match --game/--since/--until" if kind or since or until else ""
        hint = "" if simulated else " (kroeg ratings --simulated rates the bots' games)"
        raise NotFoundError(f"{dataset}: nothing to rate: no {whose}{asked}{hint}")
    if format is TableFormat.table:
        say(ratings_table(frame, PROVISIONAL_GAMES, INTERVAL), nl=False)
    else:
        say((stats_csv if format is TableFormat.csv else stats_json)(frame), nl=False)


@app.command()
@friendly
def newsletter(
    dataset: DatasetArg,
    month: Annotated[str, typer.Option("--month", help="The month, as YYYY-MM.")],
    out: Annotated[Path, typer.Option("--out", help="Folder for the .md, .html and .csv.")],
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=f"The bulletin's language: {', '.join(LANGUAGES)} (docs/LANGUAGES.md); "
            "by default the club file's `language`, else English.",
        ),
    ] = None,
    include_simulated: IncludeSimulatedOpt = False,
) -> None:
    """Write the month's bulletin: Markdown, a standalone HTML page with charts, and CSV.

    It tells the club's games; simulated (bot) games are left out unless
    --include-simulated, and the bulletin says so in a line.

    Example: kroeg newsletter club.kroeg --month 2026-11 --out bulletin/ --lang nl
    """
    from kroeg.analytics.club import club_language
    from kroeg.analytics.newsletter import build, check_request, write
    from kroeg.analytics.ratings import update_ratings
    from kroeg.analytics.views import connect, consistently

    ds = open_dataset(dataset)
    ds.check()
    language = lang or club_language(ds.path) or "en"
    check_request(month, language)  # a mistyped month is said before the analysis runs
    analyse(ds)
    update_ratings(ds)  # the risers and fallers: stored once, like the analysis
    with Working(f"Writing the bulletin of {month}"):
        news = consistently(lambda: build(connect(ds), ds, month, language, include_simulated))
        paths = write(news, out)
    for path in paths:
        say(f"wrote {path}")


@app.command()
@friendly
def standings(
    dataset: DatasetArg,
    season: Annotated[
        str, typer.Option("--season", help="The season's name, as the club file names it.")
    ],
    club: Annotated[
        Path | None,
        typer.Option("--club", help="The club file (default: club.toml in the dataset)."),
    ] = None,
    include_simulated: IncludeSimulatedOpt = False,
    format: Annotated[TableFormat, typer.Option("--format")] = TableFormat.table,
) -> None:
    """A season's table: each evening's players placed by games won minus games lost,
    points per place, the season's total with the worst evenings dropped.

    The seasons and their rules (minimum evenings, evenings dropped, points per place)
    are in the club file, docs/SEASONS.md:

    \b
        [[seasons]]
        name = "Autumn 2026"
        from = 2026-09-01
        to = 2026-11-30
        min_evenings = 3
        drop_worst = 1

    Example: kroeg standings demo-data --season "Autumn 2026" --include-simulated
    (the demo's club file names this season)
    """
    from kroeg.analytics.club import CLUB_FILE, read_club
    from kroeg.analytics.report import stats_csv, stats_json
    from kroeg.analytics.season import standings as season_standings
    from kroeg.analytics.season import standings_text
    from kroeg.analytics.views import connect, consistently

    ds = open_dataset(dataset)
    ds.check()
    chosen = read_club(club if club is not None else ds.path / CLUB_FILE).season(season)
    found = consistently(lambda: season_standings(connect(ds), chosen, include_simulated))
    if format is TableFormat.table:
        say(visible_text(standings_text(found)), nl=False)
    else:
        say((stats_csv if format is TableFormat.csv else stats_json)(found.table), nl=False)


@app.command()
@friendly
def hill(
    dataset: DatasetArg,
    evening: Annotated[
        datetime | None,
        typer.Option(
            "--evening", help="The evening's day, as 2026-11-27 (default: the latest).", parser=day
        ),
    ] = None,
    venue: Annotated[str | None, typer.Option("--venue", help="The evening's venue.")] = None,
    format: Annotated[TableFormat, typer.Option("--format")] = TableFormat.table,
) -> None:
    """A king-of-the-hill Troefcall evening's standings: each pair's games together, wins
    and longest reign (wins in a row on the hill), and each player's games and wins.

    The evening's games are those typed with 'evening: king-of-the-hill' (or recorded
    with kroeg record --evening king-of-the-hill) on that day at that venue.

    Example: kroeg hill club.kroeg --evening 2026-08-28 --venue "Café Paramaribo"
    (the sample logs' evening)
    """
    from kroeg.analytics.hill import hill_csv, hill_json, hill_standings, hill_text
    from kroeg.analytics.views import connect, consistently

    ds = open_dataset(dataset)
    ds.check()
    when = evening.date() if evening else None
    found = consistently(lambda: hill_standings(connect(ds), when, venue))
    write = {TableFormat.table: hill_text, TableFormat.csv: hill_csv, TableFormat.json: hill_json}
    say(visible_text(write[format](found)), nl=False)


def dashboard_address(host: str, port: int) -> str:
    """Where a browser finds the dashboard: `http://0.0.0.0:8501` opens nothing, so a
    server on every address is named by this machine's name, and by localhost here."""
    if host in ("0.0.0.0", "::", ""):
        import socket

        here = f"http://localhost:{port}"
        return f"http://{socket.gethostname()}:{port} from another machine ({here} on this one)"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@app.command()
@friendly
def dashboard(
    dataset: DatasetArg,
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8501,
    host: Annotated[
        str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    expose: Annotated[
        bool,
        typer.Option(
            "--expose",
            help="Allow a --host other than this machine. Without --token the dashboard is "
            "read-only (no Record page).",
        ),
    ] = False,
    token: Annotated[
        str | None,
        typer.Option(
            envvar="KROEG_TOKEN",
            help="A secret every visitor must give (?token=… or the sidebar); with it the "
            "Record page is on beyond this machine too.",
        ),
    ] = None,
) -> None:
    """Open the dashboard (Streamlit) on a dataset: replay hands, see who bluffs.

    It listens on 127.0.0.1 (this machine) unless told otherwise; docs/RELIABILITY.md
    says how to share it safely.

    Example: kroeg dashboard club.kroeg --port 8501
    """
    from kroeg.dashboard.access import dashboard_access

    access = dashboard_access(host, expose, token)
    ds = open_dataset(dataset)
    ds.check()
    _check_address(host, port)  # before the analysis: a wrong port is said at once
    analyse(ds)
    from kroeg.analytics.workers import module_command

    # Its environment's import path is set where the watcher is started, which passes it on.
    serve, _ = module_command("kroeg.dashboard.serve")  # streamlit, imports warm
    command = [
        *serve,
        "--server.address", host, "--server.port", str(port), "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--", str(ds.path.resolve()),
    ]  # fmt: skip
    if access.warning:
        say(access.warning, err=True)
    say(f"kroeg dashboard on {dashboard_address(host, port)} (Ctrl-C to stop)")
    env = {**os.environ, "KROEG_DATASET": str(ds.path.resolve()), **access.environment}
    # glibc gives each of the server's threads an arena of its own (8 per core) and keeps
    # what they freed: the server's memory stayed 40 % above its idle figure after a busy
    # evening. Two arenas serve its threads as fast (the GIL serialises them anyway).
    env.setdefault("MALLOC_ARENA_MAX", "2")
    _serve_until_stopped(command, env)


def _check_address(host: str, port: int) -> None:
    """The host must be an address of this machine and the port free, or one `Error:`
    line says which (Streamlit itself printed a traceback, or a warning, and exit 0)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise DashboardError(
            f"--host {host!r} is not an address or a name this machine knows"
        ) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise DashboardError(
                    f"port {port} is in use (another dashboard?): stop it, or choose "
                    "another with --port"
                ) from None
            raise DashboardError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def _serve_until_stopped(command: list[str], env: dict[str, str]) -> None:
    """Become the small process that runs the server and waits (`kroeg._watch`: the same
    pid, nothing of pyarrow, DuckDB or polars kept): SIGTERM, SIGINT, SIGHUP or Ctrl-C
    stop the server too, and the server dies with it whatever kills it. A server that
    stops by itself with an error is an `Error:` line there."""
    sys.stdout.flush()
    sys.stderr.flush()
    from kroeg.analytics.workers import module_command

    watch, imports = module_command("kroeg._watch")
    os.execve(sys.executable, [*watch, *command], {**env, **imports})


def _leave(code: int) -> NoReturn:
    """End the process with `code` once what it printed is out. Every command has closed
    its files and put what it keeps on disk by now, so the interpreter's teardown has
    nothing left to do but destroy the libraries' thread pools; on a loaded machine a
    pool's C++ thread can still be joinable there and abort the process ("terminate
    called without an active exception", exit -6 after a correct `Error:` line, or after
    Ctrl-C's `Interrupted:` line). Skipping the teardown removes that race."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # the reader went away, or it closed
            stream.flush()
    os._exit(code)


def main() -> NoReturn:
    """Entry point of the `kroeg` console script. A usage mistake click catches (an
    unknown command or option, a value of the wrong kind) is one `Error:` line too."""
    try:
        code = app(standalone_mode=False, prog_name="kroeg")
    except TyperException as exc:  # click's UsageError and the like, as typer raises them
        context = getattr(exc, "ctx", None)
        where = context.command_path if context is not None else "kroeg"
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        message = choice_message(message)
        if type(exc).__name__ == "NoArgsIsHelpError":  # `kroeg` alone: its help, as asked
            say(message)
        else:
            say(f"Error: {message} (see {where} --help)", err=True)
        _leave(getattr(exc, "exit_code", 2))
    except typer.Abort:
        say("Aborted.", err=True)
        _leave(1)
    except SystemExit as exc:  # a command that ended itself with an exit status
        if exc.code is None or isinstance(exc.code, int):
            _leave(exc.code or 0)
        say(str(exc.code), err=True)  # as the interpreter would have printed it
        _leave(1)
    _leave(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
