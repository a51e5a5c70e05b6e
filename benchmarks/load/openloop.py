"""An open-loop load generator: requests sent on a plan, each timed from its PLANNED send.

A closed-loop generator (each client waits for its answer before the next request, as ``wrk`` does)
slows down when the server does and so under-reports its own queueing ("coordinated omission"). Here
every request has a planned send time fixed in advance (``Plan``: periodic streams, each with its own
phase and gap); ``drive`` fires each at its time whatever happened to the ones before, and the
``Recorder`` takes latency as *answer time - planned time*. When the generator itself falls behind
(a busy CPU), that lag is in the latency too, and reported on its own (``lag``).

``Pool`` is a small HTTP/1.1 client on asyncio streams (keep-alive, ``Content-Length`` and chunked
bodies, ``Connection: close``, gzip bodies read as JSON): little Python per request, which matters when
the generator shares two cores with the server it measures (its CPU is reported with the figures).
"""

from __future__ import annotations

import asyncio
import gzip
import heapq
import json
import math
import time
from array import array
from collections import Counter, defaultdict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

# ---- the plan --------------------------------------------------------------------------------------


class Plan:
    """Streams of planned sends merged in time order. A stream is (first time, gap function): its sends
    are at ``first``, ``first + gap()``, ... (seconds on the run's clock). ``gap`` returning None ends it."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, int]] = []
        self._gaps: dict[int, Callable[[], float | None]] = {}
        self._seq = 0

    def add(self, stream: int, first: float, gap: Callable[[], float | None]) -> None:
        self._gaps[stream] = gap
        self._push(first, stream)

    def _push(self, at: float, stream: int) -> None:
        self._seq += 1
        heapq.heappush(self._heap, (at, self._seq, stream))

    def next_at(self) -> float | None:
        return self._heap[0][0] if self._heap else None

    def pop_due(self, now: float) -> list[tuple[float, int]]:
        """Every (planned time, stream) due at ``now``, in time order; each stream's next send is queued."""
        due: list[tuple[float, int]] = []
        while self._heap and self._heap[0][0] <= now:
            at, _, stream = heapq.heappop(self._heap)
            due.append((at, stream))
            gap = self._gaps[stream]()
            if gap is not None:
                self._push(at + max(gap, 1e-6), stream)
        return due

    def until(self, end: float) -> list[tuple[float, int]]:
        """Every planned send before ``end`` (consumes the plan): for tests and intended-rate counts."""
        out: list[tuple[float, int]] = []
        while self._heap and self._heap[0][0] < end:
            out.extend(p for p in self.pop_due(self._heap[0][0]) if p[0] < end)
        return out


def periodic(interval: float) -> Callable[[], float]:
    """A fixed gap (a page's ``setTimeout`` of ``interval`` seconds)."""
    return lambda: interval


async def drive(plan: Plan, fire: Callable[[int, float], None], start: float, end: float, *,
                clock: Callable[[], float] = time.monotonic,
                sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> int:
    """Fire every planned send before ``end`` (run clock) at its time: ``fire(stream, planned_monotonic)``
    must not block (it starts a task). Returns how many were fired."""
    fired = 0
    while True:
        nxt = plan.next_at()
        if nxt is None or nxt >= end:
            return fired
        delay = start + nxt - clock()
        if delay > 0:
            await sleep(delay)
        for at, stream in plan.pop_due(clock() - start + 1e-6):  # a microsecond early: float rounding
            if at >= end:
                return fired
            fire(stream, start + at)
            fired += 1


# ---- recording ------------------------------------------------------------------------------------


def percentile(values: Any, q: float) -> float:
    """Nearest-rank percentile of a sequence (0-100); NaN when empty."""
    if not len(values):
        return math.nan
    ordered = sorted(values)
    return float(ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1])


def is_error(status: str) -> bool:
    """Errors as DECISIONS.md counts them: any 5xx, and transport failures (no answer, a timeout)."""
    return status.startswith("5") or not status[:1].isdigit()


@dataclass
class Series:
    """One group's samples (a class such as tablet or viewer, or one operation)."""

    latency: array[float] = field(default_factory=lambda: array("d"))  # answer - planned send (s)
    lag: array[float] = field(default_factory=lambda: array("d"))  # actual send - planned send (s)
    statuses: Counter[str] = field(default_factory=Counter)
    planned: int = 0  # planned sends inside the window
    nbytes: int = 0

    def summary(self, window: float) -> dict[str, Any]:
        errors = sum(n for s, n in self.statuses.items() if is_error(s))
        answered = len(self.latency)
        return {
            "intended_per_s": self.planned / window if window else math.nan,
            "achieved_per_s": (answered - errors) / window if window else math.nan,
            "planned": self.planned, "answered": answered, "errors": errors,
            "p50_ms": percentile(self.latency, 50) * 1000, "p95_ms": percentile(self.latency, 95) * 1000,
            "p99_ms": percentile(self.latency, 99) * 1000,
            "max_ms": max(self.latency) * 1000 if answered else math.nan,
            "lag_p99_ms": percentile(self.lag, 99) * 1000,
            "bytes_per_s": self.nbytes / window if window else math.nan,
            "statuses": dict(sorted(self.statuses.items())),
        }


class Recorder:
    """Samples per class (``tablet``, ``viewer``, ...) and per operation; only planned sends inside
    ``window`` (monotonic start, end) count."""

    def __init__(self) -> None:
        self.classes: dict[str, Series] = defaultdict(Series)
        self.ops: dict[str, Series] = defaultdict(Series)
        self.window: tuple[float, float] | None = None
        self.problems: list[str] = []
        self.problem_count = 0
        # (wall-clock planned send, class, operation, latency s, status): kept only when asked (--samples), to
        # place a slow answer in time beside the stack's logs
        self.raw: list[tuple[float, str, str, float, str]] | None = None
        self._wall_offset = time.time() - time.monotonic()

    def inside(self, planned: float) -> bool:
        return self.window is not None and self.window[0] <= planned < self.window[1]

    def plan(self, klass: str, op: str, planned: float) -> None:
        if self.inside(planned):
            self.classes[klass].planned += 1
            self.ops[op].planned += 1

    def add(self, klass: str, op: str, planned: float, sent: float, done: float, status: str, nbytes: int) -> None:
        if not self.inside(planned):
            return
        for series in (self.classes[klass], self.ops[op]):
            series.latency.append(done - planned)
            series.lag.append(sent - planned)
            series.statuses[status] += 1
            series.nbytes += nbytes
        if self.raw is not None and klass != "viewer":
            self.raw.append((planned + self._wall_offset, klass, op, done - planned, status))

    def problem(self, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < 100:
            self.problems.append(text)


# ---- the HTTP client --------------------------------------------------------------------------------


class HttpError(Exception):
    """A transport failure: refused, reset, timed out, or an answer that is not HTTP/1.1."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes
    nbytes: int  # bytes received, head included

    def json(self) -> Any:
        body = self.body
        if self.headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        return json.loads(body)


class Pool:
    """Keep-alive HTTP/1.1 connections to one host and port, at most ``size`` at once (callers queue for a
    free one: that wait counts in their latency, as a browser's would)."""

    def __init__(self, host: str, port: int, size: int = 256, timeout: float = 60.0) -> None:
        self.host, self.port, self.size, self.timeout = host, port, size, timeout
        self.idle: deque[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = deque()
        self.open = 0
        self.gate = asyncio.Semaphore(size)
        self.host_header = f"{host}:{port}".encode()

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: Any = None) -> Answer:
        """One request; HttpError on any transport failure (the connection is then dropped)."""
        payload = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        lines = [f"{method} {path} HTTP/1.1".encode(), b"Host: " + self.host_header]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}".encode())
        if body is not None:
            lines.append(b"Content-Type: application/json")
        if payload or method in ("POST", "PUT", "PATCH"):
            lines.append(b"Content-Length: " + str(len(payload)).encode())
        raw = b"\r\n".join(lines) + b"\r\n\r\n" + payload
        async with self.gate:
            conn = self.idle.popleft() if self.idle else None
            for attempt in (0, 1):
                if conn is None:
                    try:
                        async with asyncio.timeout(self.timeout):
                            conn = await asyncio.open_connection(self.host, self.port)
                    except OSError as exc:  # TimeoutError included
                        raise HttpError(f"connect: {type(exc).__name__}") from exc
                    self.open += 1
                    reused = False
                else:
                    reused = True
                reader, writer = conn
                try:
                    writer.write(raw)
                    async with asyncio.timeout(self.timeout):  # no task of its own, unlike wait_for
                        answer, keep = await self._read(reader, method)
                except TimeoutError as exc:
                    self._drop(writer)
                    raise HttpError("timeout") from exc
                except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                    self._drop(writer)
                    conn = None
                    if reused and attempt == 0:  # a keep-alive connection the server had closed: once more
                        continue
                    raise HttpError(type(exc).__name__) from exc
                if keep:
                    self.idle.append(conn)
                else:
                    self._drop(writer)
                return answer
        raise HttpError("unreachable")  # pragma: no cover

    def _drop(self, writer: asyncio.StreamWriter) -> None:
        self.open -= 1
        writer.close()

    async def _read(self, reader: asyncio.StreamReader, method: str) -> tuple[Answer, bool]:
        head = await reader.readuntil(b"\r\n\r\n")
        first, *rest = head[:-4].split(b"\r\n")
        version, status_text = first.split(b" ", 2)[:2]
        headers: dict[str, str] = {}
        for line in rest:
            name, _, value = line.partition(b":")
            headers[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")
        status = int(status_text)
        size = len(head)
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            body = b""
        elif "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                line = await reader.readuntil(b"\r\n")
                size += len(line)
                n = int(line.split(b";")[0], 16)
                chunk = await reader.readexactly(n + 2)
                size += n + 2
                if n == 0:
                    break
                parts.append(chunk[:-2])
            body = b"".join(parts)
        else:  # read to close
            body = await reader.read()
            headers["connection"] = "close"
        keep = version == b"HTTP/1.1" and headers.get("connection", "").lower() != "close"
        return Answer(status, headers, body, size + len(body)), keep

    async def close(self) -> None:
        while self.idle:
            _, writer = self.idle.popleft()
            writer.close()
        self.open = 0


async def timed(pool: Pool, recorder: Recorder, klass: str, op: str, planned: float, method: str, path: str,
                headers: dict[str, str] | None = None, body: Any = None) -> Answer | None:
    """Send one request (now, however late against ``planned``) and record it; None on a transport failure."""
    sent = time.monotonic()
    try:
        answer = await pool.request(method, path, headers, body)
    except HttpError as exc:
        recorder.add(klass, op, planned, sent, time.monotonic(), f"transport:{exc}", 0)
        return None
    recorder.add(klass, op, planned, sent, time.monotonic(), str(answer.status), answer.nbytes)
    if answer.status >= 500:
        recorder.problem(f"{op}: {method} {path} answered {answer.status}: {answer.body[:200]!r}")
    return answer
