"""Stored settings in the registry's canonical form (issue 10).

Bye policies written before the registry (``{"result": "win", "score": "average"}``) become the full
per-figure policy; match and team formats are spelled out (a race board without its ``n`` takes its team
match's target); tie-break lists are kept as they are once the registry reads them. A value the registry
cannot read is left alone, so nothing stored is lost and results stay recomputable.
"""

from django.db import migrations

from tournaments.formats import AwardPolicy, FormatError, MatchFormat, TeamFormat


def _canonical(read, value):
    try:
        return read(value)
    except (FormatError, TypeError, ValueError):
        return value


def _team(value):
    return TeamFormat.from_dict(value).to_dict() if value else value


def _board_format(value, team_format):
    if isinstance(value, dict) and value.get("kind") == "race" and "n" not in value:
        value = {**value, "n": (team_format or {}).get("n", 1)}
    return MatchFormat.from_dict(value, chosen=False).to_dict() if value else value


def forwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Round = apps.get_model("tournaments", "Round")
    Board = apps.get_model("tournaments", "Board")
    TeamMatch = apps.get_model("tournaments", "TeamMatch")
    for t in Tournament.objects.all():
        t.bye_policy = _canonical(lambda v: AwardPolicy.from_dict(v).to_dict(), t.bye_policy)
        t.match_format = _canonical(lambda v: MatchFormat.from_dict(v, chosen=False).to_dict(), t.match_format)
        t.team_format = _canonical(_team, t.team_format)
        t.save(update_fields=["bye_policy", "match_format", "team_format"])
    for r in Round.objects.exclude(match_format=None):
        r.match_format = _canonical(lambda v: MatchFormat.from_dict(v, chosen=False).to_dict() if v else v,
                                    r.match_format)
        r.save(update_fields=["match_format"])
    for m in TeamMatch.objects.exclude(team_format=None):
        m.team_format = _canonical(_team, m.team_format)
        m.save(update_fields=["team_format"])
    for b in Board.objects.select_related("team_match").iterator():
        team_format = b.team_match.team_format if b.team_match_id else None
        fixed = _canonical(lambda v, tf=team_format: _board_format(v, tf), b.match_format)
        if fixed != b.match_format:
            b.match_format = fixed
            b.save(update_fields=["match_format"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_registry_choices")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
