"""Published results (docs/adr/0013): a change reaches the files at once (eager), byte for byte what Django
serves; unchanged renders write nothing; a changed file's mtime moves forward a whole second; an
unpublished or deleted event is withdrawn; the sweep publishes what no message announced."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from publishing import files, publish
from tests.tournaments.factories import current_game, make_organiser, win_game
from tournaments.models import OutboxMessage, Tournament
from tournaments.services import game_confirm, tournament_delete, tournament_update

pytestmark = pytest.mark.django_db(transaction=True)


def read(root: Path, address: str) -> bytes:
    return files.file_for(address, root).read_bytes()


def standings_json(root: Path, slug: str) -> dict[str, Any]:
    return json.loads(read(root, f"/api/v1/public/tournaments/{slug}/standings/"))


def play_and_confirm(board: Any, watch: str = "") -> float:
    """Win both games of the board for side A, then the organiser confirms them; the seconds from the last
    confirmation's call to the moment the file at ``watch`` was written (eager: the render runs inside the
    call, once its transaction commits)."""
    organiser = make_organiser(board.round.tournament)
    for _ in range(2):
        win_game(board, 0)
    games = list(board.games.exclude(status="voided").order_by("number"))
    game_confirm(game=games[0], party="organiser", user=organiser)
    written: list[float] = []
    original = files.write

    def timed_write(address: str, content: bytes, base: Path | None = None) -> bool:
        changed = original(address, content, base)
        if changed and address == watch:
            written.append(time.monotonic())
        return changed

    files.write = timed_write  # type: ignore[assignment]
    try:
        started = time.monotonic()
        game_confirm(game=games[-1], party="organiser", user=organiser)
    finally:
        files.write = original  # type: ignore[assignment]
    return (written[0] - started) if written else float("inf")


def test_a_confirmed_result_reaches_the_published_standings_and_their_json(event: Any, publish_root: Path) -> None:
    tournament, _round, boards, entries = event
    slug = tournament.slug
    seconds = play_and_confirm(boards[0], watch=f"/api/v1/public/tournaments/{slug}/standings/")
    rows = standings_json(publish_root, slug)["rows"]
    winner = next(r for r in rows if r["entry"] == entries[0].pk)
    assert winner["rank"] == 1 and winner["values"]["match_points"] > 0
    assert seconds < 2.0, f"freshness: the standings' JSON was written {seconds:.2f}s after the confirmation"
    # byte for byte what Django serves at the same addresses
    client = Client()
    for address in (f"/t/{slug}/standings/", f"/t/{slug}/standings/live/", f"/t/{slug}/standings/table/",
                    f"/api/v1/public/tournaments/{slug}/standings/", f"/t/{slug}/boards/{boards[0].pk}/",
                    f"/t/{slug}/rounds/1/", f"/t/{slug}/", f"/t/{slug}/pairs/{entries[0].pk}/"):
        assert read(publish_root, address) == client.get(address).content, address
    page = read(publish_root, f"/t/{slug}/standings/").decode()
    assert escape(str(entries[0].pair)) in page
    # and its gzip beside it, with the same modification time
    plain = files.file_for(f"/t/{slug}/standings/", publish_root)
    packed = plain.with_name("index.html.gz")
    assert packed.stat().st_mtime == plain.stat().st_mtime
    import gzip

    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()


def test_each_change_sends_one_publish_message_per_tournament(event: Any) -> None:
    tournament, _round, boards, _entries = event
    OutboxMessage.objects.all().delete()
    game = current_game(boards[0])
    win_game(boards[0], 0)  # four hands: four messages, one per hand
    assert OutboxMessage.objects.filter(task="publishing.tasks.publish_event").count() == 4
    OutboxMessage.objects.all().delete()
    game_confirm(game=game, party="organiser", user=make_organiser(tournament))
    messages = list(OutboxMessage.objects.filter(task="publishing.tasks.publish_event"))
    assert len(messages) == 1
    assert messages[0].args == [tournament.pk, {"boards": [boards[0].pk], "standings": True}]


def test_unchanged_renders_do_not_rewrite(event: Any, publish_root: Path) -> None:
    tournament, _round, _boards, _entries = event
    first = publish.publish_full(tournament.pk)
    assert first.written > 0
    address = f"/t/{tournament.slug}/standings/"
    before = files.file_for(address, publish_root).stat()
    again = publish.publish_full(tournament.pk)
    assert again.rendered == first.rendered and again.written == 0
    after = files.file_for(address, publish_root).stat()
    assert (after.st_mtime_ns, after.st_ino) == (before.st_mtime_ns, before.st_ino)


def test_a_changed_file_moves_its_mtime_forward_a_whole_second(event: Any, publish_root: Path) -> None:
    tournament, _round, boards, _entries = event
    address = f"/api/v1/public/tournaments/{tournament.slug}/standings/"
    publish.publish_full(tournament.pk)
    before = int(files.file_for(address, publish_root).stat().st_mtime)
    play_and_confirm(boards[0])  # at once: well within the same second of the clock, usually
    after = int(files.file_for(address, publish_root).stat().st_mtime)
    assert after >= before + 1
    # the rule itself, on a file written twice within one second
    assert files.write("/t/x/", b"one", publish_root)
    first = int(files.file_for("/t/x/", publish_root).stat().st_mtime)
    assert files.write("/t/x/", b"two", publish_root)
    assert int(files.file_for("/t/x/", publish_root).stat().st_mtime) >= first + 1
    assert not files.write("/t/x/", b"two", publish_root)


def test_an_unpublished_tournament_is_withdrawn(event: Any, publish_root: Path) -> None:
    tournament, _round, _boards, _entries = event
    publish.publish_full(tournament.pk)
    assert files.file_for(f"/t/{tournament.slug}/standings/", publish_root).exists()
    assert tournament.name.encode() in read(publish_root, "/")
    tournament_update(tournament=tournament, user=None, published=False)
    assert not (publish_root / "t" / tournament.slug).exists()
    assert not (publish_root / "api" / "v1" / "public" / "tournaments" / tournament.slug).exists()
    assert tournament.name.encode() not in read(publish_root, "/")  # the site's list follows


def test_a_deleted_tournament_is_withdrawn(db: Any, publish_root: Path) -> None:
    from tests.tournaments.factories import make_entries, make_tournament

    tournament = make_tournament()
    make_entries(tournament, 2)
    tournament_update(tournament=tournament, user=None, published=True)
    home = files.file_for(f"/t/{tournament.slug}/", publish_root)
    assert home.exists()
    tournament_delete(tournament=Tournament.objects.get(pk=tournament.pk), user=None)
    assert not home.exists() and not (publish_root / "t" / tournament.slug).exists()


def test_the_sweep_publishes_what_no_message_announced_and_withdraws_orphans(event: Any, publish_root: Path) -> None:
    tournament, _round, _boards, entries = event
    publish.publish_full(tournament.pk)
    # a change behind the services' back (an admin edit): the stored fingerprint no longer matches
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    files.write("/t/gone-event/", b"<p>stale</p>", publish_root)
    counts = publish.sweep()
    assert counts["events"] == 1 and counts["withdrawn"] == 1
    assert not (publish_root / "t" / "gone-event").exists()
    assert read(publish_root, f"/t/{tournament.slug}/") == Client().get(f"/t/{tournament.slug}/").content
    assert publish.sweep()["events"] == 0  # nothing moved since


def test_the_sweep_renders_stale_boards_for_a_bounded_time(event: Any, publish_root: Path, monkeypatch: Any) -> None:
    """The sweep holds the event's lock: it renders stale boards for at most SWEEP_BOARD_SECONDS and leaves the
    rest (still stale, so counted) to its next run; the event's own pages go out all the same."""
    from django.utils import timezone

    from tournaments.models import Board

    tournament, _round, boards, _entries = event
    monkeypatch.setattr(publish, "SWEEP_BUSY_SECONDS", 0.0)  # never busy here (the busy event: the next test)
    publish.publish_full(tournament.pk)
    ids = [b.pk for b in boards]
    standings_before = read(publish_root, f"/t/{tournament.slug}/standings/")
    Board.objects.filter(pk__in=ids).update(help_called=True, updated_at=timezone.now())  # no message announced
    monkeypatch.setattr(publish, "SWEEP_BOARD_SECONDS", 0.0)
    counts = publish.sweep()
    assert counts["events"] == 1 and counts["boards_left"] == len(ids)
    assert read(publish_root, f"/t/{tournament.slug}/standings/") != standings_before  # the event's pages went out
    assert publish.sweep()["boards_left"] == len(ids)  # still stale: the next sweep tries them again
    monkeypatch.setattr(publish, "SWEEP_BOARD_SECONDS", 60.0)
    counts = publish.sweep()  # the event unchanged since, the boards left are rendered
    assert counts["boards_left"] == 0 and counts["rendered"] >= 3 * len(ids)
    assert publish.sweep()["events"] == 0  # nothing stale left
    # a board never rendered (a round just published) goes out whatever the budget: else Django answers its reads
    state = publish.load_state(tournament.slug)
    del state["fp"][f"board:{ids[0]}"]
    publish.save_state(tournament.slug, state)
    files.remove(f"/t/{tournament.slug}/boards/{ids[0]}/")
    Board.objects.filter(pk__in=ids).update(updated_at=timezone.now())
    monkeypatch.setattr(publish, "SWEEP_BOARD_SECONDS", 0.0)
    counts = publish.sweep()
    assert counts["boards_left"] == len(ids) - 1
    assert files.file_for(f"/t/{tournament.slug}/boards/{ids[0]}/", publish_root).exists()


def test_the_sweep_leaves_a_busy_event_to_its_messages_but_not_for_long(event: Any, publish_root: Path,
                                                                        monkeypatch: Any) -> None:
    """An event rendered in the last ``SWEEP_BUSY_SECONDS`` has its messages flowing: the sweep looks at it only
    every ``SWEEP_BUSY_EVERY`` seconds; and it never renders the boards a deferred render is due to render."""
    from django.utils import timezone

    from tournaments.models import Board

    tournament, _round, boards, _entries = event
    ids = [b.pk for b in boards]
    clock = {"now": 2_000_000.0}
    monkeypatch.setattr(publish.time, "time", lambda: clock["now"])
    publish.publish_full(tournament.pk)
    Board.objects.filter(pk__in=ids).update(help_called=True, updated_at=timezone.now())  # no message announced
    state = publish.load_state(tournament.slug)
    state.update(swept_at=clock["now"] - 30, pending={"boards": [ids[0]]}, deferred_until=clock["now"] + 1)
    publish.save_state(tournament.slug, state)
    before = publish.load_state(tournament.slug)["fp"]
    publish.sweep()  # busy: its live pages left to its messages (the results, inline here, are another matter)
    assert publish.load_state(tournament.slug)["fp"] == before
    assert Client().get(f"/t/{tournament.slug}/boards/{ids[1]}/").content != read(
        publish_root, f"/t/{tournament.slug}/boards/{ids[1]}/")
    clock["now"] += publish.SWEEP_BUSY_EVERY  # still busy (a render just now), but not swept for long
    state = publish.load_state(tournament.slug)
    state.update(rendered_at=clock["now"] - 1, deferred_until=clock["now"] + 1)
    publish.save_state(tournament.slug, state)
    counts = publish.sweep()
    assert counts["boards_left"] == 1  # the board left to the deferred render: looked at again next time
    rendered = publish.load_state(tournament.slug)["fp"]
    assert f"board:{ids[0]}" in rendered  # its old print kept: the deferred render due renders it
    assert Client().get(f"/t/{tournament.slug}/boards/{ids[1]}/").content == read(
        publish_root, f"/t/{tournament.slug}/boards/{ids[1]}/")
    assert Client().get(f"/t/{tournament.slug}/boards/{ids[0]}/").content != read(
        publish_root, f"/t/{tournament.slug}/boards/{ids[0]}/")
    clock["now"] += 60  # the deferred render's time long past (its message lost): the sweep renders the board
    state = publish.load_state(tournament.slug)
    state.update(swept_at=0)
    publish.save_state(tournament.slug, state)
    publish.sweep()
    assert Client().get(f"/t/{tournament.slug}/boards/{ids[0]}/").content == read(
        publish_root, f"/t/{tournament.slug}/boards/{ids[0]}/")


def test_a_page_no_longer_public_is_withdrawn_on_a_full_render(event: Any, publish_root: Path) -> None:
    tournament, _round, _boards, entries = event
    publish.publish_full(tournament.pk)
    stray = f"/t/{tournament.slug}/boards/999999/"
    files.write(stray, b"old", publish_root)
    publish.publish_full(tournament.pk)
    assert not files.file_for(stray, publish_root).exists()


def test_renders_are_merged_to_one_a_second_under_a_worker(event: Any, publish_root: Path, monkeypatch: Any) -> None:
    tournament, _round, boards, _entries = event
    monkeypatch.setattr(publish, "MIN_INTERVAL", 60.0)  # "a second", stretched: this machine may be slow
    publish.save_state(tournament.slug, {"fp": {}})  # the fixture's own renders (eager) are forgotten
    deferred: list[float] = []
    first = publish.publish_event(tournament.pk, {"boards": [boards[0].pk]}, defer=deferred.append)
    assert not first.deferred and first.rendered > 0
    second = publish.publish_event(tournament.pk, {"boards": [boards[1].pk]}, defer=deferred.append)
    third = publish.publish_event(tournament.pk, {"rounds": [1]}, defer=deferred.append)
    assert second.deferred and third.deferred
    assert len(deferred) == 1 and 0 < deferred[0] <= publish.MIN_INTERVAL  # one later render for both
    state = publish.load_state(tournament.slug)
    assert state["pending"] == {"boards": [boards[1].pk], "rounds": [1]}
    late = publish.publish_event(tournament.pk, {"deferred": True}, defer=deferred.append)
    assert not late.deferred and f"board:{boards[1].pk}" in late.groups
    assert publish.load_state(tournament.slug).get("pending") in (None, {})


def test_changes_arriving_during_a_long_render_go_out_together_after_it(event: Any, publish_root: Path,
                                                                        monkeypatch: Any) -> None:
    """The interval counts from a render's end: at 1,000 pairs on a busy box a render took 2-5 s, longer than
    the interval, so counted from its start every queued message rendered its own board, one a render, and
    the queue grew all day (the national day of 2026-12-06)."""
    tournament, _round, boards, _entries = event
    monkeypatch.setattr(publish, "MIN_INTERVAL", 30.0)  # the render below lasts longer than its "second"
    monkeypatch.setattr(publish, "RENDER_PACE", 0.0)  # the interval alone (the pace: the test at the end)
    publish.save_state(tournament.slug, {"fp": {}})
    real = publish._render_event
    clock = {"now": 1_000_000.0}
    monkeypatch.setattr(publish.time, "time", lambda: clock["now"])

    def long_render(*args: Any, **kwargs: Any) -> publish.Outcome:
        clock["now"] += 45.0  # the render takes longer than MIN_INTERVAL
        return real(*args, **kwargs)

    monkeypatch.setattr(publish, "_render_event", long_render)
    deferred: list[float] = []
    first = publish.publish_event(tournament.pk, {"boards": [boards[0].pk]}, defer=deferred.append)
    assert not first.deferred
    clock["now"] += 1.0  # the messages queued meanwhile come in just after it ended
    second = publish.publish_event(tournament.pk, {"boards": [boards[1].pk]}, defer=deferred.append)
    third = publish.publish_event(tournament.pk, {"rounds": [1]}, defer=deferred.append)
    assert second.deferred and third.deferred and deferred == [29.0]  # one render for both, 30 s after the end
    assert publish.load_state(tournament.slug)["pending"] == {"boards": [boards[1].pk], "rounds": [1]}


def test_files_are_readable_by_the_proxy_and_never_half_written(publish_root: Path) -> None:
    assert files.write("/t/a/standings/", b"x" * 10, publish_root)
    path = files.file_for("/t/a/standings/", publish_root)
    assert oct(path.stat().st_mode & 0o777) == "0o644"
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".tmp-")] == []
    with pytest.raises(ValueError):
        files.file_for("/t/../etc/", publish_root)
    assert os.path.commonpath([path, publish_root]) == str(publish_root)


def test_the_publish_command_renders_every_published_event(event: Any, publish_root: Path, settings: Any) -> None:
    from io import StringIO

    from django.core.management import call_command

    tournament, _round, _boards, entries = event
    settings.PUBLISH_ENABLED = True
    withdraw_me = publish_root / "t" / "old-event"
    files.write("/t/old-event/", b"old", publish_root)
    (publish_root / "t" / tournament.slug).rename(publish_root / "gone")  # as after restoring a backup
    out = StringIO()
    call_command("publish", stdout=out)
    assert f"{tournament.name}: " in out.getvalue() and "sweep: 1 withdrawn" in out.getvalue()
    assert files.file_for(f"/t/{tournament.slug}/pairs/{entries[0].pk}/", publish_root).exists()
    assert not withdraw_me.exists()


def test_a_long_render_paces_the_next_one(event: Any, publish_root: Path, monkeypatch: Any) -> None:
    """The next render starts no sooner than ``RENDER_PACE`` times the last render's own time after its end
    (``MIN_INTERVAL`` when that is longer): cheaper renders on a busy box made more renders, not a freer box
    (the national day's check of 2026-12-06 10:31)."""
    tournament, _round, boards, _entries = event
    monkeypatch.setattr(publish, "MIN_INTERVAL", 1.0)
    monkeypatch.setattr(publish, "RENDER_PACE", 1.5)
    publish.save_state(tournament.slug, {"fp": {}})
    real = publish._render_event
    clock = {"now": 1_000_000.0}
    monkeypatch.setattr(publish.time, "time", lambda: clock["now"])

    def slow_render(*args: Any, **kwargs: Any) -> publish.Outcome:
        clock["now"] += 4.0  # a render of 4 s: the next no sooner than 6 s after it
        return real(*args, **kwargs)

    monkeypatch.setattr(publish, "_render_event", slow_render)
    deferred: list[float] = []
    assert not publish.publish_event(tournament.pk, {"boards": [boards[0].pk]}, defer=deferred.append).deferred
    assert publish.load_state(tournament.slug)["render_seconds"] == 4.0
    clock["now"] += 2.0
    assert publish.publish_event(tournament.pk, {"boards": [boards[1].pk]}, defer=deferred.append).deferred
    assert deferred == [4.0]  # 6 s after the end, 2 s of them gone
    assert publish.render_interval({"render_seconds": 0.2}) == 1.0  # a quick render: the interval alone
