"""Tournaments and their entries: create, change, delete, each one transaction with its audit event.

Every setting is checked by the registry (``tournaments.formats``) and stored in its canonical form
(``to_dict()``): ``match_format`` by ``MatchFormat``, ``team_format`` by ``TeamFormat``, ``tiebreaks``
by ``TIE_BREAKS``, ``bye_policy`` by ``AwardPolicy`` and ``forfeit_policy`` by ``formats.forfeit_policy``
(a preset name is stored spelled out), the entrant type, pairing system, time-called policy and club
avoidance by their enums; ``grace_minutes`` (0 to ``MAX_GRACE_MINUTES``) and ``late_entry_bye`` here.
A refusal names every field at fault (``fields``: ``match_format.kind``, ``tiebreaks[2]``), coded by the first.

Refusals (docs/services.md): 400 ``unknown_field``, ``required``, ``too_long``, ``slug_taken``,
``invalid_choice``, ``out_of_range``, the registry's codes (``bad_kind``, ``unknown_tie_break``,
``repeated_tie_break``, ``no_tie_breaks``, ``unknown_preset``, ``bad_source`` ...), the engine's codes for
``rules``, ``rules_players``, ``ends_before_starts``, ``team_format_required``,
``qualifies_from_itself``, ``no_race_target``, ``pair_already_entered``; 403 ``not_organiser``,
``qualifies_from_not_organised`` (a knockout seeded from a tournament the caller does not run), ``not_owner``
(another organisation's pair or player); 400 ``player_entered_twice`` (one player, one entry per event),
and ``entry_substitute``'s own (below);
409 ``tournament_has_rounds``, ``tournament_finished``, ``entry_has_boards``, ``settings_fixed``,
``settings_between_rounds``, ``rounds_planned_too_low`` (docs/decisions.md, "What may change when").
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F, Q

from tournaments import adapters, formats
from tournaments.actors import Actor
from tournaments.formats import FormatError
from tournaments.models import Entry, EntrySubstitution, Hand, Pair, Player, Tournament, TournamentRole

from ._common import actor, is_organiser, require_organiser, require_role
from ._rules import model_clean, refuse, rules_resolved, unknown_fields
from .audit import audit_record
from .devices import tournament_devices_revoke
from .errors import Conflict, NotAllowed, ValidationFailed
from .organisations import is_member, require_member
from .publication import public_change
from .standings import tournament_standings_recompute

#: What an organiser sets on a tournament (everything else is derived or recorded).
TOURNAMENT_FIELDS = (
    "name", "slug", "venue", "starts_on", "ends_on", "status", "published", "rules", "entrant_type",
    "pairing_system", "match_format", "team_format", "rounds_planned", "tiebreaks", "bye_policy",
    "club_avoidance", "time_called", "third_place_match", "qualifies_from", "round_minutes", "time_zone",
    "requires_check_in", "entry_fee", "currency", "forfeit_policy", "grace_minutes", "late_entry_bye",
)
#: Settings the standings are computed from: a change recomputes them.
RANKING_FIELDS = frozenset({"entrant_type", "match_format", "team_format", "tiebreaks", "bye_policy",
                            "forfeit_policy"})
#: When a setting may change (docs/decisions.md, "What may change when"): fixed once any board of the event
#: is seated (what round 1 was drawn and is played under, the knockout's shape included; a round not yet
#: seated may still override its own match format) ...
FIXED_ONCE_SEATED = frozenset({"rules", "entrant_type", "pairing_system", "match_format", "team_format",
                               "third_place_match", "qualifies_from"})
#: ... between rounds only (refused while a round is published or in play); every other setting (name, slug,
#: venue, dates, status, published, time zone, entry fee, currency; the grace time before a no-show is
#: forfeited, which an organiser may stretch while waiting for a pair; whether a late entry may take a bye,
#: read only when a round is drawn) at any time.
BETWEEN_ROUNDS = frozenset({"tiebreaks", "bye_policy", "forfeit_policy", "club_avoidance", "time_called",
                            "rounds_planned", "round_minutes", "requires_check_in"})
#: ... of which a league season may change these at any time: its fixtures are fixed in advance (no draw reads
#: the table) and postponed or replayed fixtures can keep a match day in play for weeks; the table is
#: recomputed at once (docs/leagues-model.md, "Settings of a season").
LEAGUE_ANY_TIME = frozenset({"tiebreaks", "bye_policy", "forfeit_policy"})
#: Checked by the registry below, not by the model's own field checks.
_REGISTRY_FIELDS = ("rules", "rules_resolved", "entrant_type", "pairing_system", "match_format", "team_format",
                    "tiebreaks", "bye_policy", "forfeit_policy", "club_avoidance", "time_called", "qualifies_from",
                    "grace_minutes", "late_entry_bye")
#: The longest grace time an event may set before a pair that has not come is forfeited (minutes).
MAX_GRACE_MINUTES = 240
ENTRY_FIELDS = ("pair", "seed", "withdrawn")


# ---- settings through the registry ----------------------------------------------------------------------


def _choice(enum: Any, value: Any, path: str) -> str:
    try:
        return str(enum(value).value)
    except ValueError:
        raise FormatError("invalid_choice", f"One of {', '.join(m.value for m in enum)}.", path) from None


def _club_avoidance(value: Any, path: str) -> int:
    levels = sorted({0, *(c.level for c in formats.ClubAvoidance)})
    low, high = levels[0], levels[-1]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FormatError("out_of_range", f"A level from {low} (ignore clubs) to {high} (strong).", path)
    return value


def _grace_minutes(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_GRACE_MINUTES:
        raise FormatError("out_of_range", f"Whole minutes from 0 to {MAX_GRACE_MINUTES}.", path)
    return value


def _yes_no(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise FormatError("invalid_choice", "true or false.", path)
    return value


def _team_format(value: Any, path: str) -> dict[str, Any] | None:
    return None if value is None else formats.TeamFormat.from_dict(value, path).to_dict()


@functools.cache
def _time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def _time_zone(value: Any, path: str) -> str:
    if not isinstance(value, str) or value not in _time_zones():
        raise FormatError("invalid_choice", "A time zone such as America/Port_of_Spain.", path)
    return value


def _currency(value: Any, path: str) -> str:
    if not isinstance(value, str) or not (len(value) == 3 and value.isascii() and value.isalpha()):
        raise FormatError("invalid_choice", "A three-letter currency code such as TTD.", path)
    return value.upper()


#: Each registry-checked setting: its canonical stored value, or ``FormatError`` with the field's path.
_PARSERS: dict[str, Any] = {
    "entrant_type": lambda v, p: _choice(formats.EntrantType, v, p),
    "pairing_system": lambda v, p: _choice(formats.PairingSystem, v, p),
    "time_called": lambda v, p: _choice(formats.TimeCalled, v, p),
    "match_format": lambda v, p: formats.MatchFormat.from_dict(v, p).to_dict(),
    "team_format": _team_format,
    "tiebreaks": lambda v, p: list(formats.TIE_BREAKS.parse(v, p)),
    "bye_policy": lambda v, p: formats.AwardPolicy.from_dict(v, p).to_dict(),
    "forfeit_policy": lambda v, p: formats.forfeit_policy(v, p).to_dict(),
    "grace_minutes": _grace_minutes,
    "late_entry_bye": _yes_no,
    "club_avoidance": _club_avoidance,
    "time_zone": _time_zone,
    "currency": _currency,
}


def tournament_settings_clean(values: Mapping[str, Any], *, instance: Tournament | None = None) -> dict[str, Any]:
    """``values`` (some of ``TOURNAMENT_FIELDS``) checked and in their stored form, ``rules_resolved``
    added when ``rules`` is given; the settings are checked together with the ``instance``'s others, and
    with its state: a setting that changes must be one that may change now (409 ``settings_fixed``,
    ``settings_between_rounds``, ``rounds_planned_too_low``; ``FIXED_ONCE_SEATED``, ``BETWEEN_ROUNDS``).

    A pure check (no write): the API, the console and the admin may call it to validate a form.
    """
    unknown_fields(values, TOURNAMENT_FIELDS, "a tournament")
    cleaned = dict(values)
    errors: dict[str, tuple[str, str]] = {}
    for name, parse in _PARSERS.items():
        if name in values:
            try:
                cleaned[name] = parse(values[name], name)
            except FormatError as exc:
                errors[exc.path or name] = (exc.code, exc.message)
    if "rules" in values:
        try:
            cleaned["rules_resolved"] = rules_resolved(values["rules"])
        except ValidationFailed as exc:
            for path, text in (exc.fields or {"rules": exc.message}).items():
                errors[path] = (exc.code, text)
        else:
            if _rules_changed(cleaned["rules_resolved"], values["rules"], instance):
                for problem in formats.rule_bound_errors(cleaned["rules_resolved"]):
                    errors[problem.path] = (problem.code, problem.message)
    refuse(errors)

    def current(name: str, default: Any = None) -> Any:
        return cleaned[name] if name in cleaned else getattr(instance, name, default)

    starts, ends = current("starts_on"), current("ends_on")
    if isinstance(starts, dt.date) and isinstance(ends, dt.date) and ends < starts:
        errors["ends_on"] = ("ends_before_starts", "The tournament cannot end before it starts.")
    entrant = current("entrant_type", formats.DEFAULT_ENTRANT_TYPE.value)
    team_format = current("team_format")
    if entrant == formats.EntrantType.CLUB_TEAMS and not team_format:
        errors["team_format"] = ("team_format_required", "A club-team event needs its team format.")
    qualifies_from = current("qualifies_from")
    if instance is not None and instance.pk is not None and qualifies_from is not None \
            and getattr(qualifies_from, "pk", qualifies_from) == instance.pk:
        errors["qualifies_from"] = ("qualifies_from_itself", "A tournament cannot qualify from itself.")
    refuse(errors)
    _check_race_target(cleaned, current, entrant)
    if instance is not None and instance.pk is not None:
        _check_when(instance, settings_changed(instance, cleaned), cleaned)
    return cleaned


def settings_changed(instance: Tournament, cleaned: Mapping[str, Any]) -> set[str]:
    """The settings of ``cleaned`` that differ from the ``instance``'s (a rule set spelled another way that
    resolves the same is no change)."""
    changed = {key for key, value in cleaned.items() if getattr(instance, key) != value}
    if "rules" in changed and not _rules_changed(cleaned["rules_resolved"], cleaned["rules"], instance):
        changed -= {"rules", "rules_resolved"}
    return changed


def _rules_changed(resolved: Mapping[str, Any], spec: Any, instance: Tournament | None) -> bool:
    """Whether ``spec`` (resolved) changes the ``instance``'s rules: a rule set stored out of range before the
    bounds (docs/decisions.md, "Hardening details") may be sent again unchanged (a PUT of every field)."""
    if instance is None or instance.pk is None:
        return True
    if instance.rules_resolved:
        return dict(resolved) != instance.rules_resolved
    return bool(spec != instance.rules)


def _check_race_target(cleaned: Mapping[str, Any], current: Any, entrant: str) -> None:
    """A bye or forfeit policy that awards the race target needs an event that has one (first to N, or a
    team race)."""
    if not any(name in cleaned for name in ("bye_policy", "forfeit_policy", "match_format", "team_format",
                                            "entrant_type")):
        return
    try:
        awarding = [name for name, policy in (("bye_policy", formats.AwardPolicy.from_dict(current("bye_policy"))),
                                              ("forfeit_policy", formats.forfeit_policy(current("forfeit_policy"))))
                    if policy.uses_race_target]
        if not awarding:
            return
        board = formats.MatchFormat.from_dict(current("match_format") or formats.DEFAULT_MATCH_FORMAT.to_dict())
        team = None
        if entrant == formats.EntrantType.CLUB_TEAMS:
            team = formats.TeamFormat.from_dict(current("team_format")) if current("team_format") else None
    except FormatError:
        return  # a stored shape the registry no longer reads is the migration's business, not this change's
    if formats.race_target(board, team) is None:
        texts = {name: (f"This {name.split('_')[0]} policy awards the race target, but the event has none: choose "
                        f"first to N games (or a team race), or another {name.split('_')[0]} policy.")
                 for name in awarding}
        raise ValidationFailed("no_race_target", next(iter(texts.values())), fields=texts)


def _jsonable(data: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, Tournament):
            value = value.pk
        out[key] = value if isinstance(value, (str, int, bool, list, dict, type(None))) else str(value)
    return out


# ---- tournaments ------------------------------------------------------------------------------------------


def _check_qualifier(user: Actor, qualifier: Any) -> None:
    """A knockout is seeded only from a tournament the caller runs (staff: any), 403
    ``qualifies_from_not_organised`` on ``qualifies_from`` otherwise; ``services.knockout.qualifier_order``
    checks a stored one again when it seeds."""
    if qualifier is None or actor(user) is None:
        return
    if not is_organiser(user, getattr(qualifier, "pk", qualifier)):
        text = "A knockout is seeded only from a tournament you organise."
        raise NotAllowed("qualifies_from_not_organised", text, fields={"qualifies_from": text})


@transaction.atomic
def tournament_create(*, user: Actor, name: str, slug: str, add_organiser: bool = True,
                      **settings: Any) -> Tournament:
    """A new tournament from ``name``, ``slug`` and any other ``TOURNAMENT_FIELDS`` (the rest take the
    registry's defaults); ``user`` becomes its organiser unless ``add_organiser`` is False (the admin,
    where staff set roles themselves). The rules are resolved and stored in ``rules_resolved``."""
    settings.setdefault("rules", adapters.DEFAULT_TOURNAMENT_RULES)
    values = tournament_settings_clean({"name": name, "slug": slug, **settings})
    _check_qualifier(user, values.get("qualifies_from"))
    tournament = Tournament(**values)
    model_clean(tournament, exclude=_REGISTRY_FIELDS)
    tournament.save()
    if add_organiser and actor(user) is not None:
        TournamentRole.objects.create(tournament=tournament, user=user, role=TournamentRole.Role.ORGANISER)
    audit_record(action="tournament.create", obj=tournament, tournament_id=tournament.pk, user=user,
                 after={"name": tournament.name, "rules": tournament.rules})
    return tournament


def _check_when(locked: Tournament, changed: set[str], values: Mapping[str, Any]) -> None:
    """409 when a changed setting may not change now: ``settings_fixed`` (a board is seated),
    ``settings_between_rounds`` (a round is published or in play), ``rounds_planned_too_low`` (fewer rounds
    planned than created); ``fields`` names each setting at fault."""
    fixed = sorted(FIXED_ONCE_SEATED & changed)
    if fixed and locked.rounds.filter(boards__isnull=False).exists():
        text = "Fixed once a board of the event is seated: play has begun under it."
        raise Conflict("settings_fixed", f"Play has begun: {', '.join(fixed)} can no longer change.",
                       fields={name: text for name in fixed})
    between = sorted(BETWEEN_ROUNDS & changed - (LEAGUE_ANY_TIME if locked.league_id is not None else frozenset()))
    live = locked.rounds.live().order_by("number").first() if between else None
    if live is not None:
        state = "in play" if live.status == "in_play" else "published"
        text = f"Changes between rounds only: round {live.number} is {state}."
        raise Conflict("settings_between_rounds",
                       f"Round {live.number} is {state}: {', '.join(between)} may change between rounds only.",
                       fields={name: text for name in between})
    if "rounds_planned" in changed:
        created = locked.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        if values["rounds_planned"] < created:
            text = f"At least {created}: the event has {created} rounds already."
            raise Conflict("rounds_planned_too_low", text, fields={"rounds_planned": text})


@transaction.atomic
def tournament_update(*, tournament: Tournament, user: Actor, **changes: Any) -> Tournament:
    """Change some of ``TOURNAMENT_FIELDS``; each checked with the tournament's other settings and with the
    event's state (``FIXED_ONCE_SEATED``, ``BETWEEN_ROUNDS``: 409 otherwise; a setting sent unchanged is no
    change). A change to what the standings are computed from (tie-breaks, bye policy, formats) recomputes
    them at once, in the same transaction. Finishing the tournament revokes its tablets for good."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if user is not None:
        require_organiser(user, locked.pk)
    target = changes.get("status")
    if target in (Tournament.Status.FINISHED, Tournament.Status.RUNNING) and locked.status != target and (
            target == Tournament.Status.FINISHED or locked.status == Tournament.Status.FINISHED):
        # Finishing and reopening are the end-of-event services (their checks, the frozen results, the tablets).
        from .finish import tournament_finish, tournament_reopen

        rest = {key: value for key, value in changes.items() if key != "status"}
        if rest:
            locked = tournament_update(tournament=locked, user=user, **rest)
        if target == Tournament.Status.FINISHED:
            return tournament_finish(tournament=locked, user=user)
        return tournament_reopen(tournament=locked, user=user)
    values = tournament_settings_clean(changes, instance=locked)  # with the event's state (_check_when)
    changed = settings_changed(locked, values)
    if "qualifies_from" in changed:
        _check_qualifier(user, values["qualifies_from"])
    for key, value in values.items():
        setattr(locked, key, value)
    model_clean(locked, exclude=_REGISTRY_FIELDS)
    locked.save()
    if "status" in changed and locked.status == Tournament.Status.FINISHED:
        tournament_devices_revoke(tournament=locked, user=user)  # running again brings none back
    if RANKING_FIELDS & changed and locked.rounds.exists():
        # at once, in this transaction: the standings never show the old order after the change is saved
        tournament_standings_recompute(tournament_id=locked.pk)
    audit_record(action="tournament.update", obj=locked, tournament_id=locked.pk, user=user,
                 after=_jsonable(values))
    public_change(locked.pk, full=True)
    return locked


@transaction.atomic
def tournament_delete(*, tournament: Tournament, user: Actor) -> None:
    """Delete a tournament that has no rounds yet (409 ``tournament_has_rounds``: finish it instead)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if user is not None:
        require_role(user, locked.pk, "tournament_delete")  # the organiser, not a co-organiser
    if locked.rounds.exists():
        raise Conflict("tournament_has_rounds", "A tournament with rounds cannot be deleted; finish it instead.")
    before = {"name": locked.name, "slug": locked.slug}
    pk = locked.pk
    locked.delete()
    locked.pk = pk  # the audit event names the deleted row (it outlives it: no tournament link)
    audit_record(action="tournament.delete", obj=locked, tournament_id=None, user=user, before=before)
    public_change(pk, slug=before["slug"])


# ---- entries ----------------------------------------------------------------------------------------------


def players_in_event(tournament: Tournament | int, *, exclude: Entry | None = None) -> dict[int, Entry]:
    """Every player who plays for an entry of the tournament (its recorded players and its substitutes), with
    that entry; ``exclude`` left out (the entry being changed)."""
    entries = Entry.objects.filter(tournament=tournament).select_related("pair__player_1", "pair__player_2")
    if exclude is not None:
        entries = entries.exclude(pk=exclude.pk)
    found: dict[int, Entry] = {}
    by_id = {e.pk: e for e in entries}
    for e in by_id.values():
        for player_id in (e.player_1_id or e.pair.player_1_id, e.player_2_id or e.pair.player_2_id):
            found.setdefault(player_id, e)
    for entry_id, player_id in EntrySubstitution.objects.filter(entry_id__in=by_id).values_list("entry_id",
                                                                                                 "in_player_id"):
        found.setdefault(player_id, by_id[entry_id])
    return found


def check_players_free(tournament: Tournament | int, players: dict[str, Player | int | None], *,
                       exclude: Entry | None = None) -> None:
    """400 ``player_entered_twice`` when one of ``players`` (field -> player) already plays for another
    entry of the tournament: one player, one entry per event (docs/decisions.md, "Owners")."""
    taken = players_in_event(tournament, exclude=exclude)
    errors: dict[str, str] = {}
    for field, player in players.items():
        player_id = getattr(player, "pk", player)
        if player_id in taken:
            name = player.name if isinstance(player, Player) else Player.objects.get(pk=player_id).name
            errors[field] = f"{name} already plays in this tournament, for {taken[player_id].pair.display_name}."
    if errors:
        first = next(iter(errors.values()))
        raise ValidationFailed("player_entered_twice", first if len(errors) == 1 else
                               "Players of this pair already play in this tournament.", fields=errors)


def entry_has_boards(entry: Entry) -> bool:
    return entry.boards_as_a.exists() or entry.boards_as_b.exists()


def entry_check(*, tournament: Tournament, pair: Pair, entry: Entry | None = None) -> None:
    """Whether ``pair`` may be entered in ``tournament`` (or ``entry`` moved to it), without writing:
    409 ``tournament_finished`` for a new entry in a finished tournament, 400 ``pair_already_entered``,
    ``player_entered_twice`` (a player of the pair plays for another entry). The admin's entry forms call it
    before saving."""
    if entry is None and tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "This tournament has ended: no new entries.")
    if tournament.pk is None:
        return
    clash = Entry.objects.filter(tournament=tournament, pair=pair)
    if entry is not None:
        clash = clash.exclude(pk=entry.pk)
    if clash.exists():
        raise ValidationFailed("pair_already_entered", "This pair is already entered.",
                               fields={"pair": "This pair is already entered."})
    try:
        check_players_free(tournament, {"player_1": pair.player_1_id, "player_2": pair.player_2_id}, exclude=entry)
    except ValidationFailed as exc:
        text = "; ".join((exc.fields or {}).values())
        raise ValidationFailed(exc.code, text, fields={"pair": text}) from None


def _check_pair_owner(user: Actor, pair: Pair) -> None:
    """Only a pair of the caller's organisations is entered (403 ``not_owner`` on ``pair``): another
    organisation's pair is copied first (``people.pair_copy``; docs/adr/0010-owners-and-organisations.md)."""
    if not is_member(user, pair.owner_id):
        text = "This pair belongs to another organisation: copy it into yours, then enter the copy."
        raise NotAllowed("not_owner", text, fields={"pair": text})


@transaction.atomic
def entry_create(*, tournament: Tournament, pair: Pair, user: Actor, seed: int | None = None,
                 withdrawn: bool = False) -> Entry:
    """Enter ``pair`` in ``tournament`` (409 ``tournament_finished``; 400 ``pair_already_entered``,
    ``player_entered_twice``); the entry records the pair's club and players as they are now."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if user is not None:
        require_organiser(user, locked.pk)
    entry_check(tournament=locked, pair=pair)
    _check_pair_owner(user, pair)
    entry = Entry(tournament=locked, pair=pair, seed=seed, withdrawn=withdrawn)
    model_clean(entry)
    entry.save()
    audit_record(action="entry.create", obj=entry, tournament_id=locked.pk, user=user,
                 after={"pair": pair.pk, "seed": seed, "withdrawn": withdrawn})
    public_change(locked.pk, full=True)
    return entry


@transaction.atomic
def entry_update(*, entry: Entry, user: Actor, **changes: Any) -> Entry:
    """Change an entry's ``pair``, ``seed`` or ``withdrawn`` (400 ``pair_already_entered``,
    ``player_entered_twice``). An entry that has a board keeps its pair (409 ``entry_has_boards``: who
    played stays credited); before that, it takes the new pair's club and players."""
    unknown_fields(changes, ENTRY_FIELDS, "an entry")
    locked = Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
    if user is not None:
        require_organiser(user, locked.tournament_id)
    new_pair = "pair" in changes and changes["pair"].pk != locked.pair_id
    if new_pair:
        if entry_has_boards(locked):
            text = "This pair has played in this tournament: its entry keeps it (withdraw it instead)."
            raise Conflict("entry_has_boards", text, fields={"pair": text})
        entry_check(tournament=locked.tournament, pair=changes["pair"], entry=locked)
        _check_pair_owner(user, changes["pair"])
    for key, value in changes.items():
        setattr(locked, key, value)
    if new_pair:
        locked.record_pair(again=True)
    model_clean(locked)
    locked.save()
    audit_record(action="entry.update", obj=locked, tournament_id=locked.tournament_id, user=user,
                 after={k: getattr(v, "pk", v) for k, v in changes.items()})
    public_change(locked.tournament_id, full=True)
    return locked


def entry_check_delete(*, entry: Entry) -> None:
    """Whether ``entry`` may be removed (409 ``entry_has_boards`` once it has a board: withdraw it)."""
    if entry_has_boards(entry):
        raise Conflict("entry_has_boards", "This pair has played in this tournament: withdraw it instead.")


@transaction.atomic
def entry_delete(*, entry: Entry, user: Actor) -> None:
    """Remove an entry that has played no board (409 ``entry_has_boards``: withdraw it instead)."""
    locked = Entry.objects.select_for_update().get(pk=entry.pk)
    if user is not None:
        require_organiser(user, locked.tournament_id)
    entry_check_delete(entry=locked)
    pk, tournament_id, pair_id = locked.pk, locked.tournament_id, locked.pair_id
    locked.delete()
    locked.pk = pk
    audit_record(action="entry.delete", obj=locked, tournament_id=tournament_id, user=user, before={"pair": pair_id})
    public_change(tournament_id, full=True)


# ---- substitutes ------------------------------------------------------------------------------------------

#: The last round a substitute may be recorded from (a bound on the number stored).
MAX_ROUND = 999


def _round_refusal(code: str, text: str) -> Conflict:
    return Conflict(code, text, fields={"from_round": text})


@transaction.atomic
def entry_substitute(*, entry: Entry, out_player: Player, in_player: Player, from_round: int, user: Actor,
                     reason: str = "") -> EntrySubstitution:
    """From round ``from_round`` on, ``in_player`` plays for ``entry`` in ``out_player``'s place: a recorded
    action (``EntrySubstitution``, audited ``entry.substitute``); the boards of those rounds seat the
    substitute, and the scorecards show them "(sub for ...)". The entry's recorded players do not change.

    Refusals: 400 ``from_round_invalid`` (below 1, above ``MAX_ROUND``, or before a substitution already
    recorded), ``out_player_invalid`` (not one of the entry's players in that round), ``in_player_invalid``
    (already one of them), ``player_entered_twice`` (plays for another entry of the event); 403
    ``not_organiser``, ``not_owner`` (a player of another organisation); 409 ``tournament_finished``,
    ``round_closed``, ``round_played`` (that round, or a later one, has hands on the entry's board: history
    stays as played)."""
    locked = Entry.objects.select_for_update().get(pk=entry.pk)
    tournament = Tournament.objects.select_for_update().get(pk=locked.tournament_id)
    if user is not None:
        require_organiser(user, tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "This tournament has ended: no more substitutes.")
    latest = locked.substitutions.order_by("-round_from").values_list("round_from", flat=True).first()
    if isinstance(from_round, bool) or not isinstance(from_round, int) or not 1 <= from_round <= MAX_ROUND \
            or (latest is not None and from_round < latest):
        text = (f"A substitute is recorded from round {latest}: record this one from round {latest} or later."
                if latest is not None and isinstance(from_round, int) and 1 <= from_round < latest
                else f"A round number from 1 to {MAX_ROUND}.")
        raise ValidationFailed("from_round_invalid", text, fields={"from_round": text})
    closed = tournament.rounds.filter(number__gte=from_round, status="closed").order_by("number").first()
    if closed is not None:
        raise _round_refusal("round_closed", f"Round {closed.number} is closed: a substitute plays from a later round.")
    played = (Hand.objects.filter(game__board__round__tournament=tournament, game__board__round__number__gte=from_round)
              .filter(Q(game__board__pair_a=locked) | Q(game__board__pair_b=locked))
              .order_by("game__board__round__number").values_list("game__board__round__number", flat=True).first())
    if played is not None:
        raise _round_refusal("round_played", f"This pair's board of round {played} has hands: a substitute "
                             f"plays from round {played + 1}.")
    playing = {p.pk for p, _ in locked.players_in_round(from_round)}
    if out_player.pk not in playing:
        text = f"{out_player.name} does not play for this pair in round {from_round}."
        raise ValidationFailed("out_player_invalid", text, fields={"out_player": text})
    if in_player.pk in playing:
        text = f"{in_player.name} already plays for this pair."
        raise ValidationFailed("in_player_invalid", text, fields={"in_player": text})
    require_member(user, in_player.owner_id, field="in_player", what=str(in_player))
    check_players_free(tournament, {"in_player": in_player}, exclude=locked)
    substitution = EntrySubstitution(entry=locked, round_from=from_round, out_player=out_player,
                                     in_player=in_player, reason=(reason or "").strip(), user=actor(user))
    model_clean(substitution)
    substitution.save()
    Entry.objects.filter(pk=locked.pk).update(substitutions_count=F("substitutions_count") + 1)
    audit_record(action="entry.substitute", obj=locked, tournament_id=tournament.pk, user=user,
                 after={"from_round": from_round, "out_player": out_player.pk, "in_player": in_player.pk,
                        "reason": substitution.reason})
    public_change(tournament.pk, full=True)
    return substitution
