"""The team (club) table outside the HTML standings page (issue 15, "team standings everywhere"): its CSV
export. The printed standings carry it too (``console.print_standings``), and the public API's standings
answer it under ``clubs``.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse

from tournaments import csvsafe, selectors
from web.permissions import organiser_tournament


@login_required
def export_team_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """One line per team (club) from the latest snapshot: rank, club, then the table's columns (a bye in
    ``byes``, never counted in ``played``)."""
    tournament = organiser_tournament(request.user, slug)
    table = selectors.club_standings(tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-teams.csv"'
    response.write("\ufeff")  # spreadsheet programs read UTF-8
    writer = csvsafe.writer(response)
    writer.writerow(["rank", "club", *[key for key, _, _ in table.columns]])
    for row in table.rows:
        writer.writerow([row.rank, row.name, *row.values])
    return response
