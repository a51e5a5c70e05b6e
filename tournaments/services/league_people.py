"""Teams and roster pairs typed by name on the league console (issue 15): the organiser types a club's name
and two players' names; these find the records of the caller's organisations by name (case aside) or make
them, then call the league services. One transaction each."""

from __future__ import annotations

from django.db import transaction

from tournaments.actors import Actor
from tournaments.models import Club, Entry, Pair, Player, Team, Tournament
from tournaments.selectors.availability import owned_records

from .errors import ValidationFailed
from .leagues import roster_add, team_captains_set, team_create
from .people import club_create, pair_create, player_create


def _club(name: str, tournament: Tournament, user: Actor) -> Club:
    found: Club | None = owned_records(Club.objects.filter(name__iexact=name.strip()), user).order_by("id").first()
    if found is not None:
        return found
    owner = tournament.league.owner_id if tournament.league_id else None
    return club_create(name=name.strip(), user=user, owner=owner)


@transaction.atomic
def team_add_by_club_name(*, tournament: Tournament, user: Actor, club: str, name: str = "",
                          division: int | None = None) -> Team:
    """A team of the club called ``club`` (found among the caller's clubs, else made in the league's
    organisation), named ``name`` (default: the club's name). ``team_create``'s refusals."""
    found = _club(club or name, tournament, user)
    team: Team = team_create(tournament=tournament, club=found, user=user, name=name.strip() or None,
                             division=division)
    return team


def _player(name: str, club: Club, user: Actor) -> Player:
    found: Player | None = owned_records(Player.objects.filter(name__iexact=name.strip(), club=club), user).order_by(
        "id").first()
    return found or player_create(name=name, user=user, club=club)


@transaction.atomic
def roster_add_by_names(*, team: Team, user: Actor, player_1: str, player_2: str) -> Entry:
    """Put the pair of these two players (of the team's club: found by name or made) on the team's roster.
    ``player_create``, ``pair_create`` and ``roster_add``'s refusals."""
    one, two = _player(player_1, team.club, user), _player(player_2, team.club, user)
    pair: Pair | None = owned_records(Pair.objects.filter(player_1__in=[one, two], player_2__in=[one, two]), user).first()
    if pair is None:
        pair = pair_create(player_1=one, player_2=two, user=user, club=team.club)
    entry: Entry = roster_add(team=team, pair=pair, user=user)
    return entry


@transaction.atomic
def team_captains_by_names(*, team: Team, user: Actor, usernames: str) -> Team:
    """The team's captains from their account names (comma or space separated; empty: none). 400
    ``unknown_account`` naming the first unknown one; ``team_captains_set``'s refusals."""
    from django.contrib.auth import get_user_model

    names = [n for n in usernames.replace(",", " ").split() if n]
    accounts = list(get_user_model().objects.filter(username__in=names))
    known = {a.get_username() for a in accounts}
    missing = [n for n in names if n not in known]
    if missing:
        raise ValidationFailed("unknown_account", f"No account called {missing[0]}: a captain signs in with their own "
                               "account (invite them first).", fields={"captains": f"no account {missing[0]}"})
    done: Team = team_captains_set(team=team, captains=accounts, user=user)
    return done
