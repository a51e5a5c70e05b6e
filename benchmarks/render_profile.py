"""A change's published render at a national day's size, page by page, in this process: CPU and queries per
address, and the whole render's CPU, against a baseline (one ``render`` of the site's home) of the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hj_prof .venv/bin/python benchmarks/tablet_profile.py --rebuild
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hj_render .venv/bin/python benchmarks/render_profile.py \
        --template hj_prof_template
    ... benchmarks/render_profile.py --template hj_prof_template --profile   # and a cProfile top list

The event is ``benchmarks/tablet_profile.py``'s (a 1,000-pair Swiss, round 1 in play, every board staggered),
copied from its template database into ``DATABASE_URL``'s and analysed. A change's render is what the
publisher does for one message naming ``--boards`` boards (``publishing.publish._render_event``'s groups, the
event's, the round's and the boards', forced as a change forces them; the standings group only when its
fingerprint moved, as on the day), with the standings recomputed once first as the worker would have:
``--repeat`` times, each time after touching those boards, so the kept
entries and the fingerprints behave as between two renders on the day. Per address: the mean CPU
(``time.process_time``) and queries over the repeats, inside one render's memo as the publisher renders.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.tablet_profile import django_setup, recreate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--template", default="hj_prof_template", help="the set-up event's database")
    parser.add_argument("--boards", type=int, default=20, help="boards a change names (the day's mean: about 20)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--settings", default="config.settings.production")
    parser.add_argument("--results", action="store_true",
                        help="a results pass instead (every page of the results group, once), by kind of page")
    parser.add_argument("--profile", action="store_true", help="print a cProfile top list of the renders")
    parser.add_argument("--only", default="", help="with --profile: profile only the addresses ending so")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("DATABASE_URL must name a PostgreSQL database (e.g. postgres://postgres@127.0.0.1:5432/hj_render)")
    recreate(url, urlsplit(url).path.lstrip("/"), args.template)
    os.environ["PUBLISH_ROOT"] = tempfile.mkdtemp(prefix="hangjack-render-profile-")
    django_setup(args.settings)
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import F
    from django.utils import timezone

    from publishing import pages
    from publishing.publish import event_groups, group_boards
    from publishing.render import render
    from tournaments.models import Board, Tournament
    from tournaments.selectors.memo import render_memo
    from tournaments.selectors.public import prefetch_boards

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    tournament = Tournament.objects.filter(published=True).order_by("-id").first()
    if tournament is None:
        raise SystemExit("no published tournament in the template: run benchmarks/tablet_profile.py --rebuild")
    from tournaments.services.standings import tournament_standings_recompute

    tournament_standings_recompute(tournament_id=tournament.pk)  # the day's table (the template's tasks never ran)
    slug = tournament.slug
    if args.results:
        results_pass(tournament, args)
        return
    board_ids = list(Board.objects.filter(round__tournament=tournament).order_by("id").values_list("id", flat=True))
    chosen = board_ids[:: max(1, len(board_ids) // args.boards)][: args.boards]

    def addresses() -> list[tuple[str, str]]:
        groups = event_groups(tournament, rounds=None, boards=chosen, results=False)
        out = []
        for group in groups:
            kind = group.key.split(":")[0]
            if kind == "round" and group.key != groups[2].key:
                continue
            out += [(kind, address) for address in group.addresses]
        return out

    per: dict[str, list[float]] = {}
    queries: dict[str, list[int]] = {}
    totals: list[float] = []
    profiler = cProfile.Profile() if args.profile else None
    baseline = []
    for attempt in range(args.repeat + 1):  # the first is a warm-up (the kept entries, the templates)
        Board.objects.filter(pk__in=chosen).update(updated_at=timezone.now())
        tournament.refresh_from_db()
        start = time.process_time()
        render(pages.site_addresses()[0])
        baseline.append(time.process_time() - start)
        listed = addresses()
        started = time.process_time()
        whole = profiler is not None and attempt and not args.only
        if whole:
            profiler.enable()
        with render_memo():
            t0 = time.process_time()
            with _Counter(connection) as counter:  # as publishing.publish._render_event does first
                prefetch_boards(tournament, group_boards(event_groups(tournament, rounds=None, boards=chosen,
                                                                      results=False)))
            if attempt:
                per.setdefault("prefetch  the boards' reads, all at once", []).append(time.process_time() - t0)
                queries.setdefault("prefetch  the boards' reads, all at once", []).append(counter.count)
            for kind, address in listed:
                one = profiler is not None and attempt and args.only and address.endswith(args.only)
                if one:
                    profiler.enable()
                t0 = time.process_time()
                with _Counter(connection) as counter:
                    render(address)
                spent = time.process_time() - t0
                if one:
                    profiler.disable()
                if attempt:
                    key = f"{kind:9} {_short(address, slug)}"
                    per.setdefault(key, []).append(spent)
                    queries.setdefault(key, []).append(counter.count)
        if whole:
            profiler.disable()
        if attempt:
            totals.append(time.process_time() - started)
        Board.objects.filter(pk__in=chosen).update(updated_at=F("updated_at"))
    mean = sum(totals) / len(totals)
    base = sum(baseline[1:]) / max(1, len(baseline) - 1)
    print(f"{tournament.name}: {Board.objects.filter(round__tournament=tournament).count()} boards; "
          f"a change naming {len(chosen)} boards, {args.repeat} renders")
    print(f"baseline (the site's home): {base * 1000:.1f} ms of CPU")
    print(f"a change's render: {mean * 1000:.0f} ms of CPU ({mean / base:.0f}x the baseline)\n")
    grouped: dict[str, tuple[float, int]] = {}
    for key, values in per.items():
        ms = sum(values) / len(values) * 1000
        q = sum(queries[key]) // len(queries[key])
        grouped[key] = (ms, q)
    board_ms = sum(ms for key, (ms, _q) in grouped.items() if key.startswith("board"))
    for key, (ms, q) in sorted(grouped.items(), key=lambda kv: -kv[1][0]):
        if not key.startswith("board"):
            print(f"  {key:60} {ms:8.1f} ms  {q:3d} queries")
    print(f"  {'boards (' + str(len(chosen)) + ' x 3 pages)':60} {board_ms:8.1f} ms  "
          f"({board_ms / len(chosen):.1f} ms a board)")
    first = [k for k in grouped if k.startswith("board")][:3]
    for key in first:
        print(f"    e.g. {key:53} {grouped[key][0]:8.1f} ms  {grouped[key][1]:3d} queries")
    if profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(args.top)
        if os.environ.get("PROFILE_CALLERS"):
            stats.print_callers(os.environ["PROFILE_CALLERS"])
        print(out.getvalue())


def results_pass(tournament: object, args: argparse.Namespace) -> None:
    """One results pass (``publishing.results``'s pages, in their order, inside one memo as a slice renders
    them), CPU by kind of page."""
    from publishing.publish import results_addresses
    from publishing.render import render
    from tournaments.selectors.memo import render_memo

    addresses = results_addresses(tournament)  # type: ignore[arg-type]
    profiler = cProfile.Profile() if args.profile else None
    by_kind: dict[str, list[float]] = {}
    for attempt in range(2):  # a warm-up, then the pass measured
        started = time.process_time()
        if profiler is not None and attempt:
            profiler.enable()
        with render_memo():
            for address in addresses:
                t0 = time.process_time()
                render(address)
                if attempt:
                    by_kind.setdefault(_kind(address), []).append(time.process_time() - t0)
        if profiler is not None:
            profiler.disable()
        total = time.process_time() - started
    print(f"a results pass: {len(addresses)} pages, {total:.2f} s of CPU")
    for kind, values in sorted(by_kind.items(), key=lambda kv: -sum(kv[1])):
        print(f"  {kind:28} {len(values):5d} pages  {sum(values):7.2f} s  {sum(values) / len(values) * 1000:7.1f} ms a page")
    if profiler is not None:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(args.top)
        print(out.getvalue())


def _kind(address: str) -> str:
    if address.startswith("/clubs/"):
        return "club history"
    if address.startswith("/players/"):
        return "player history"
    if "/pairs/" in address:
        return "pair page"
    if "/clubs/" in address and address.rstrip("/").split("/")[-1].isdigit():
        return "club page"
    return address.split("/", 3)[-1] if address.startswith("/t/") else address


def _short(address: str, slug: str) -> str:
    return address.replace(f"/{slug}", "/<slug>")


class _Counter:
    """Counts the statements run inside it (``connection.execute_wrapper``)."""

    def __init__(self, connection: object) -> None:
        self.connection = connection
        self.count = 0

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        self.count += 1
        return execute(sql, params, many, context)

    def __enter__(self) -> _Counter:
        self._cm = self.connection.execute_wrapper(self)  # type: ignore[attr-defined]
        self._cm.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._cm.__exit__(*exc)


if __name__ == "__main__":
    main()
