"""The recording HTTP client: every request timed per operation, every status counted, every 5xx kept.

Requests go to the private gunicorn on 127.0.0.1 only, through one ``httpx.AsyncClient``. Each carries
the headers a Caddy front would add (``X-Forwarded-Proto: https`` and the client's address in
``X-Forwarded-For``; production trusts one proxy hop), so the production settings serve plain HTTP here
without their HTTPS redirect, and per-address rate limits see one address per tablet as at a venue.
"""

from __future__ import annotations

import math
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by the nearest-rank method; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Recorder:
    """Latency per operation and status counts; unexpected answers kept for the report."""

    durations: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    problems: list[str] = field(default_factory=list)
    counters: Counter[str] = field(default_factory=Counter)
    window: tuple[float, float] | None = None  # only requests started inside it count (None: all)

    def add(self, op: str, status: str, seconds: float, started: float) -> None:
        if self.window is not None and not (self.window[0] <= started <= self.window[1]):
            return
        self.durations[op].append(seconds)
        self.statuses[op][status] += 1

    def problem(self, text: str) -> None:
        if len(self.problems) < 200:
            self.problems.append(text)
        self.counters["problems"] += 1

    def snapshot(self) -> dict[str, Counter[str]]:
        """Status counts per operation so far (to diff a phase against)."""
        return {op: Counter(c) for op, c in self.statuses.items()}

    def since(self, before: dict[str, Counter[str]]) -> dict[str, Counter[str]]:
        """Status counts per operation since ``before``."""
        out: dict[str, Counter[str]] = {}
        for op, counts in self.statuses.items():
            diff = counts - before.get(op, Counter())
            if diff:
                out[op] = diff
        return out

    def server_errors(self) -> int:
        return sum(n for c in self.statuses.values() for s, n in c.items() if s.startswith("5") and s != "503")

    def table(self, wall: float) -> list[dict[str, Any]]:
        rows = []
        for op in sorted(self.durations):
            values = self.durations[op]
            rows.append({
                "op": op, "count": len(values), "per_second": len(values) / wall if wall else math.nan,
                "p50_ms": percentile(values, 50) * 1000, "p99_ms": percentile(values, 99) * 1000,
                "max_ms": max(values) * 1000 if values else math.nan,
                "statuses": dict(sorted(self.statuses[op].items())),
            })
        return rows


class Api:
    """One client's view of the API: its headers (credentials, proxy headers) and the shared recorder."""

    def __init__(self, client: httpx.AsyncClient, recorder: Recorder, *, address: str,
                 authorization: str | None = None) -> None:
        self.client = client
        self.recorder = recorder
        self.headers = {"X-Forwarded-Proto": "https", "X-Forwarded-For": address, "Accept": "application/json"}
        if authorization:
            self.headers["Authorization"] = authorization

    async def request(self, op: str, method: str, path: str, *, json: Any = None, key: str | None = None,
                      headers: dict[str, str] | None = None,
                      timeout: float | None = None) -> httpx.Response | None:
        """Send one request; None on a transport error or a timeout (recorded as such)."""
        sent = dict(self.headers)
        if key is not None:
            sent["Idempotency-Key"] = key
        if headers:
            sent.update(headers)
        started = time.monotonic()
        try:
            response = await self.client.request(method, path, json=json, headers=sent,
                                                 timeout=timeout if timeout is not None else self.client.timeout)
        except httpx.TimeoutException:
            self.recorder.add(op, "timeout", time.monotonic() - started, started)
            return None
        except httpx.TransportError as exc:
            self.recorder.add(op, f"transport:{type(exc).__name__}", time.monotonic() - started, started)
            return None
        self.recorder.add(op, str(response.status_code), time.monotonic() - started, started)
        if response.status_code >= 500 and response.status_code != 503:
            self.recorder.problem(f"{op}: {method} {path} answered {response.status_code}: {response.text[:300]}")
        elif response.status_code == 503 and "Retry-After" not in response.headers:
            self.recorder.problem(f"{op}: {method} {path} answered 503 without Retry-After")
        return response


def retry_after(response: httpx.Response, cap: float = 5.0) -> float:
    """The response's Retry-After in seconds (capped), 1 when absent or unreadable."""
    try:
        return min(cap, max(0.2, float(response.headers.get("Retry-After", "1"))))
    except ValueError:
        return 1.0


def error_code(response: httpx.Response) -> str:
    """The ``error.code`` of an API refusal, or ''."""
    try:
        return str(response.json().get("error", {}).get("code", ""))
    except ValueError:
        return ""
