"""The round clock as read (docs/decisions.md, "The clock and closing"): ``Round.ends_at`` and the venue's
time zone give the time left; nothing ticks. ``services/closing.py`` moves the clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from tournaments.models import Round, Tournament
from tournaments.models.querysets import RoundQuerySet

OPEN_ROUND_STATUSES = RoundQuerySet.LIVE_STATUSES


@dataclass(frozen=True)
class Clock:
    """A round's clock as read at ``now``: ``ends_at`` (None: no limit), seconds left (0 once called)."""

    ends_at: datetime | None
    seconds_left: int | None
    time_called: bool
    ends_local: str = ""
    zone: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"ends_at": self.ends_at.isoformat() if self.ends_at else None, "seconds_left": self.seconds_left,
                "time_called": self.time_called, "ends_local": self.ends_local, "time_zone": self.zone}


def venue_zone(tournament: Tournament) -> Any:
    """The event's time zone (the server's when the stored name is unknown)."""
    try:
        return ZoneInfo(tournament.time_zone)
    except (KeyError, ValueError):
        return timezone.get_current_timezone()


def round_clock(round_: Round, *, now: datetime | None = None) -> Clock:
    """The clock of ``round_`` at ``now``: time left and whether time is called (a closed round: called, no
    time left)."""
    ends = round_.ends_at
    if ends is None:
        return Clock(None, None, False)
    now = now or timezone.now()
    zone = venue_zone(round_.tournament)
    closed = round_.status not in OPEN_ROUND_STATUSES
    left = 0 if closed else max(int((ends - now).total_seconds()), 0)
    called = left == 0
    return Clock(ends, left, called, timezone.localtime(ends, zone).strftime("%H:%M"), str(zone))
