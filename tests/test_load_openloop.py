"""The national day's open-loop generator (benchmarks/load/openloop.py): sends go out on the plan, however late
the answers, and latency counts from the planned send. No load here: a fake clock, a tiny local server."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest

from benchmarks.load import national
from benchmarks.load.openloop import Plan, Pool, Recorder, drive, is_error, periodic, timed

ROOT = Path(__file__).resolve().parent.parent


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_plan_merges_periodic_streams_in_time_order_at_their_rates():
    plan = Plan()
    plan.add(1, 0.5, periodic(2.0))  # 0.5, 2.5, 4.5, ...
    plan.add(2, 0.0, periodic(5.0))  # 0, 5, 10, ...
    sends = plan.until(60.0)
    assert [t for t, _ in sends] == sorted(t for t, _ in sends)
    assert [t for t, s in sends if s == 1][:3] == [0.5, 2.5, 4.5]
    assert sum(1 for _, s in sends if s == 1) == 30  # 60 s / 2 s
    assert sum(1 for _, s in sends if s == 2) == 12  # 60 s / 5 s


def test_a_stream_ends_when_its_gap_says_so():
    gaps = iter([1.0, 1.0, None])
    plan = Plan()
    plan.add(7, 0.0, lambda: next(gaps))
    assert [t for t, _ in plan.until(100.0)] == [0.0, 1.0, 2.0]


def test_drive_fires_each_send_at_its_planned_time_never_early():
    clock = FakeClock()
    plan = Plan()
    for stream in range(50):
        plan.add(stream, stream * 0.1, periodic(5.0))
    fired: list[tuple[int, float, float]] = []
    count = asyncio.run(drive(plan, lambda s, planned: fired.append((s, planned, clock())), clock(), 20.0,
                              clock=clock, sleep=clock.sleep))
    assert count == len(fired) == 50 * 4  # 20 s at one every 5 s per stream
    assert all(at >= planned - 1e-6 for _, planned, at in fired)
    assert max(at - planned for _, planned, at in fired) < 1e-6  # an idle generator is exactly on time
    assert fired[0][1] == pytest.approx(100.0)


def test_a_late_generator_still_sends_everything_and_latency_counts_from_the_planned_send():
    """Open loop: a stalled generator (or server) does not thin the plan out; the stall shows in latency."""
    clock = FakeClock()
    plan = Plan()
    plan.add(1, 0.0, periodic(1.0))
    recorder = Recorder()
    start = clock()
    recorder.window = (start, start + 10.0)
    stalls = iter([3.0] + [0.0] * 100)  # the first send stalls the generator 3 s

    def fire(stream: int, planned: float) -> None:
        sent = clock()
        clock.now += next(stalls)
        recorder.plan("viewer", "x", planned)
        recorder.add("viewer", "x", planned, sent, clock() + 0.010, "200", 100)

    asyncio.run(drive(plan, fire, start, 10.0, clock=clock, sleep=clock.sleep))
    series = recorder.classes["viewer"]
    assert series.planned == len(series.latency) == 10  # the sends due during the stall went out late, not never
    assert max(series.latency) == pytest.approx(3.010)  # the first: its own stall plus the answer
    assert sorted(series.latency)[-3] == pytest.approx(1.010)  # planned at 2 s, sent at 3 s
    summary = series.summary(10.0)
    assert summary["intended_per_s"] == summary["achieved_per_s"] == 1.0
    assert summary["lag_p99_ms"] == pytest.approx(2000.0)  # planned at 1 s, sent at 3 s


def test_only_planned_sends_inside_the_window_count_and_errors_are_5xx_and_transport_failures():
    recorder = Recorder()
    recorder.window = (10.0, 20.0)
    for planned, status in [(9.0, "500"), (10.0, "200"), (12.0, "304"), (13.0, "404"), (14.0, "503"),
                            (15.0, "transport:timeout"), (20.0, "500")]:
        recorder.plan("tablet", "op", planned)
        recorder.add("tablet", "op", planned, planned, planned + 0.1, status, 10)
    summary = recorder.classes["tablet"].summary(10.0)
    assert summary["planned"] == summary["answered"] == 5
    assert summary["errors"] == 2
    assert summary["achieved_per_s"] == pytest.approx(0.3)
    assert [is_error(s) for s in ("200", "304", "429", "500", "503", "transport:x")] == [False] * 3 + [True] * 3


def test_the_pool_keeps_connections_and_reads_lengths_chunks_and_closes():
    async def scenario() -> tuple[list[tuple[int, bytes]], int, int]:
        connections = 0

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal connections
            connections += 1
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    break
                length = re.search(rb"Content-Length: (\d+)", head)
                if length:
                    await reader.readexactly(int(length.group(1)))
                path = head.split(b" ")[1]
                if path == b"/chunked":
                    writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
                elif path == b"/close":
                    writer.write(b"HTTP/1.1 503 Busy\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno")
                    await writer.drain()
                    break
                elif path == b"/etag":
                    writer.write(b"HTTP/1.1 304 Not Modified\r\nETag: \"1-2\"\r\n\r\n")
                else:
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
                await writer.drain()
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        pool = Pool("127.0.0.1", port, size=1)
        recorder = Recorder()
        recorder.window = (0.0, 1e12)
        got = []
        for path in ("/a", "/chunked", "/etag", "/close", "/b"):
            answer = await timed(pool, recorder, "viewer", "get", asyncio.get_running_loop().time(), "POST" if path == "/a"
                                 else "GET", path, {"If-None-Match": '"1-2"'}, {"x": 1} if path == "/a" else None)
            assert answer is not None
            got.append((answer.status, answer.body))
        await pool.close()
        server.close()
        await server.wait_closed()
        return got, connections, recorder.classes["viewer"].statuses["503"]

    got, connections, busy = asyncio.run(scenario())
    assert got == [(200, b"hello"), (200, b"abcde"), (304, b""), (503, b"no"), (200, b"hello")]
    assert connections == 2  # one kept alive for four requests, a new one after the server's close
    assert busy == 1


def test_the_viewers_poll_at_the_pages_own_intervals():
    """The load model polls as a large event's pages do: change a page's interval and this fails."""
    from web.views import public

    templates = ROOT / "templates" / "public"
    for page, _, seconds in national.PAGES:
        assert public.POLL_SECONDS[page][1] == seconds, page  # the national day is a large event
        assert public.poll_seconds(page, pairs=1000) == seconds
        text = (templates / f"{page}.html").read_text()
        found = re.findall(r'data-poll-seconds="\{% if [^%]+%\}0\{% else %\}\{\{ (\w+) \}\}\{% endif %\}"', text)
        # the standings page of a large event polls its whole table too (a part of its own, once a minute)
        extra = ["whole_poll_seconds"] if page == "standings" else []
        assert found == ["poll_seconds", *extra], (page, found)
    assert national.WHOLE_TABLE_POLL == public.WHOLE_TABLE_POLL
    assert sum(share for _, share, _ in national.PAGES) == pytest.approx(1.0)
    assert "setInterval(tick, 10000)" in (ROOT / "static" / "js" / "tablet.js").read_text()
    assert national.TABLET_POLL == 10.0


def test_the_day_plan_asks_the_intended_rates():
    plan = Plan()
    rng = random.Random(1)
    scorers = [object() for _ in range(60)]
    viewers = [national.Viewer(v, national.page_chooser("x", 1, [1, 2]), seed=v) for v in range(300)]
    streams = national.plan_day(plan, scorers, viewers, rng=rng, viewers_arrive_over=10.0)  # type: ignore[arg-type]
    sends = plan.until(720.0)
    steady = [s for t, s in sends if 120.0 <= t < 720.0]  # ten minutes once everyone has started
    rates = national.intended_rates(60, 300)
    polls = sum(1 for s in steady if streams[s][0] == "poll") / 600
    hands = sum(1 for s in steady if streams[s][0] == "hand") / 600
    views = sum(1 for s in steady if streams[s][0] == "view") / 600
    wholes = sum(1 for s in steady if streams[s][0] == "whole") / 600
    assert wholes == pytest.approx(300 / national.WHOLE_TABLE_POLL, rel=0.01)  # fired; sent while on standings
    assert polls == pytest.approx(rates["tablet board polls"], rel=0.01)
    assert 3 * hands == pytest.approx(rates["tablet hands (preview + hand + read)"], rel=0.15)
    assert views == pytest.approx(rates["viewers"], rel=0.05)


def test_a_phone_has_one_request_out_at_a_time_as_live_js_polls():
    """A send planned while the last is out waits for it (latency from its plan); one more is never sent."""

    class SlowPool:
        def __init__(self) -> None:
            self.sent: list[str] = []
            self.gate = asyncio.Event()

        async def request(self, method, path, headers=None, body=None):
            self.sent.append(path)
            await self.gate.wait()
            from benchmarks.load.openloop import Answer

            return Answer(200, {"etag": '"1"'}, b"x", 10)

    async def scenario() -> tuple[list[str], Recorder]:
        pool, recorder = SlowPool(), Recorder()
        recorder.window = (0.0, 1e12)
        viewer = national.Viewer(1, national.page_chooser("x", 1, [7]), seed=3)
        now = asyncio.get_running_loop().time
        first = asyncio.ensure_future(viewer.act(pool, recorder, now()))  # the page load
        await asyncio.sleep(0)
        await viewer.act(pool, recorder, now())  # waits for the first
        await viewer.act(pool, recorder, now())  # dropped: one is already waiting
        assert pool.sent == [viewer.page]
        pool.gate.set()
        await first
        return pool.sent, recorder

    sent, recorder = asyncio.run(scenario())
    assert len(sent) == 2 and sent[1].endswith("live/")
    series = recorder.classes["viewer"]
    assert series.planned == 3 and len(series.latency) == 2
    assert series.summary(1.0)["achieved_per_s"] == 2.0


def test_a_phone_on_the_standings_polls_the_whole_table_and_elsewhere_sends_nothing():
    """The standings page's second part (the whole table, once a minute) is polled only while the phone is on
    the standings, revalidated with its own ETag, one request out at a time."""
    from benchmarks.load.openloop import Answer

    class Pool:
        def __init__(self) -> None:
            self.sent: list[tuple[str, str]] = []

        async def request(self, method, path, headers=None, body=None):
            self.sent.append((path, (headers or {}).get("If-None-Match", "")))
            return Answer(200, {"etag": f'"{len(self.sent)}"'}, b"x", 10)

    def only(kind):
        def choose(rng):
            base = "/t/x/standings/" if kind == "standings" else "/t/x/rounds/1/"
            return kind, base, base + "live/", 5.0
        return choose

    async def scenario(kind):
        pool, recorder = Pool(), Recorder()
        recorder.window = (0.0, 1e12)
        viewer = national.Viewer(1, only(kind), seed=3)
        await viewer.act_whole(pool, recorder, 0.0)  # before the page is loaded: nothing
        await viewer.act(pool, recorder, 0.0)  # the page
        await viewer.act_whole(pool, recorder, 1.0)
        await viewer.act_whole(pool, recorder, 2.0)
        return pool.sent

    sent = asyncio.run(scenario("standings"))
    assert sent == [("/t/x/standings/", ""), ("/t/x/standings/table/", ""), ("/t/x/standings/table/", '"2"')]
    assert asyncio.run(scenario("pairings")) == [("/t/x/rounds/1/", "")]


def test_the_harness_knows_when_the_standings_page_has_its_whole_table_apart():
    from web.views.public import LIVE_ALL_UPTO

    assert national.LIVE_ALL_UPTO == LIVE_ALL_UPTO
    assert national.has_whole_table(31) and not national.has_whole_table(30)
