"""The organisers' console: run rounds, watch every board live, confirm or correct games, tablets, print, CSV.

Session login (Django's auth views at /accounts/login/) as staff or a user with a TournamentRole; every
view checks the role on the tournament it touches. Every change calls a tournament service (never a
model write here); a refused action shows the service's sentence. Every form is a POST with CSRF.
Console pages are never gzipped (they carry CSRF tokens).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import csvsafe, formats, selectors, services
from tournaments.errors import DomainError
from tournaments.models import Board, Game, Hand, Round, Tournament
from tournaments.services.closing import MAX_CLOCK_MINUTES
from tournaments.services.field import board_forfeit, board_forfeit_cancel, grace_ends, team_match_forfeit
from tournaments.services.pairing import round_draft_adopt_proposal
from web import presenters
from web.forms import parse_record_json
from web.http import found
from web.permissions import organised_tournaments, organiser_tournament
from web.qr import qr_svg
from web.scorecards import board_scorecard, scoresheet_blank_lines

from . import corrections

ATTENTION = ("disputed", "awaiting_confirmation")


def _fail(request: HttpRequest, exc: DomainError) -> None:
    text = exc.message
    if exc.fields:
        text += " " + "; ".join(f"{k}: {v}" for k, v in exc.fields.items() if v != exc.message)
    messages.error(request, text.strip())


def _run(request: HttpRequest, success: str, call: Callable[[], Any]) -> Any:
    """Call one service; report its success or its refusal as a message."""
    try:
        result = call()
    except DomainError as exc:
        _fail(request, exc)
        return None
    except NotImplementedError:
        messages.error(request, "This action is not available yet on this server.")
        return None
    messages.success(request, success)
    return result


@login_required
@never_cache
def index(request: HttpRequest) -> HttpResponse:
    tournaments = organised_tournaments(request.user)
    return render(request, "console/index.html", {"tournaments": tournaments})


def _dashboard_context(request: HttpRequest, slug: str) -> dict[str, Any]:
    tournament = organiser_tournament(request.user, slug)
    rounds = selectors.tournament_rounds(tournament)
    current = selectors.round_to_run(tournament)
    boards = selectors.round_boards(current) if current else []
    attention = [b for b in boards if b.status in ATTENTION or b.help_called]
    counts: dict[str, int] = {}
    for b in boards:
        if not b.is_bye:
            counts[b.status_label] = counts.get(b.status_label, 0) + 1
    return {
        "tournament": tournament, "rounds": rounds, "current": current, "boards": boards,
        "attention": attention, "counts": sorted(counts.items()),
        "help_count": sum(1 for b in boards if b.help_called),
        "next_number": (max((r.number for r in rounds), default=0) + 1),
        "all_closed": all(r.status == Round.Status.CLOSED for r in rounds),
        "entry_count": selectors.active_entry_count(tournament) if not rounds else None,
        "live_statuses": (Round.Status.PUBLISHED, Round.Status.IN_PLAY),
        "clock": presenters.clock_view(current), "max_minutes": MAX_CLOCK_MINUTES,
        "reopenable": _reopenable(tournament, rounds),
        "finish_ready": _finish_ready(tournament, rounds),
    }


def _reopenable(tournament: Tournament, rounds: list[Round]) -> Round | None:
    """The round *Reopen round N…* offers: the last closed round, when every later round is only waiting to
    be paired (reopening removes those) and the event is not finished. ``round_reopen`` decides; this only
    keeps the button off where it would always be refused."""
    if tournament.status == Tournament.Status.FINISHED:
        return None
    closed = [r for r in rounds if r.status == Round.Status.CLOSED]
    if not closed:
        return None
    last = closed[-1]
    later = [r for r in rounds if r.number > last.number]
    return last if all(r.status == Round.Status.PENDING for r in later) else None


def _finish_ready(tournament: Tournament, rounds: list[Round]) -> bool:
    """Whether the rounds page offers *Finish the event…*: every round closed, the last planned one too."""
    return (tournament.status != Tournament.Status.FINISHED and bool(rounds)
            and all(r.status == Round.Status.CLOSED for r in rounds) and rounds[-1].number >= tournament.rounds_planned)


@login_required
@never_cache
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    context = _dashboard_context(request, slug)
    current = context["current"]
    if current is not None:
        entries = selectors.tournament_entries(context["tournament"])
        context["proposal"] = presenters.proposal_view(current, entries) if current.status == Round.Status.DRAFTED else None
        context["changes"] = presenters.change_lines(current, entries, context["tournament"])
    return render(request, "console/tournament.html", context)


@login_required
@never_cache
def tournament_live(request: HttpRequest, slug: str) -> HttpResponse:
    return render(request, "console/_boards.html", _dashboard_context(request, slug))


def _draft_round(tournament: Tournament, number: int, user: Any) -> Round:
    """Start the next round: created and paired from the confirmed standings (Swiss, round robin or
    knockout, as the tournament says), left drafted for the organiser to check."""
    return services.round_start(tournament=tournament, number=number, user=user)


@login_required
@require_POST
def round_action(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug, "manage")
    action = request.POST.get("action", "")
    user = request.user
    back = HttpResponseRedirect(reverse("web:console_tournament", args=[slug]))
    if action == "draft":
        if selectors.round_number_taken(tournament, number):
            messages.error(request, f"Round {number} already exists.")
            return back
        round_ = _run(request, f"Round {number} drafted: check it, then publish it.",
                      lambda: _draft_round(tournament, number, user))
        if isinstance(round_, Round) and round_.status == Round.Status.PENDING:
            messages.info(request, f"Round {number} is being paired; this page shows the draft when it is ready.")
        return back
    round_ = found(selectors.tournament_round, tournament, number)
    if action == "publish":
        _run(request, f"Round {number} published: tablets and the public see it.",
             lambda: services.round_publish(round=round_, user=user))
    elif action == "start":
        _run(request, f"Round {number} is in play.", lambda: services.round_start_play(round=round_, user=user))
    elif action == "publish_start":
        def publish_and_start() -> Round:
            r = services.round_publish(round=round_, user=user)
            return services.round_start_play(round=r, user=user)
        _run(request, f"Round {number} published and in play.", publish_and_start)
    elif action == "swap_pairs":
        try:
            a, b = int(request.POST.get("entry_a", "")), int(request.POST.get("entry_b", ""))
        except ValueError:
            messages.error(request, "Choose the two pairs to swap.")
            return back
        _run(request, f"Round {number}: pairs swapped.",
             lambda: services.round_draft_swap(round=round_, entry_a=a, entry_b=b, user=user))
    elif action == "swap_tables":
        try:
            ta, tb = int(request.POST.get("table_a", "")), int(request.POST.get("table_b", ""))
        except ValueError:
            messages.error(request, "Give the two table numbers to swap.")
            return back
        _run(request, f"Round {number}: tables {ta} and {tb} swapped.",
             lambda: services.round_draft_swap_tables(round=round_, table_a=ta, table_b=tb, user=user))
    elif action == "adopt_proposal":
        _run(request, f"Round {number}: the proposed draft is seated. Check it, then publish.",
             lambda: round_draft_adopt_proposal(round=round_, user=user))
    elif action == "confirm_all":
        n = _run(request, f"Round {number}: remaining finished games confirmed.",
                 lambda: services.round_confirm_all(round=round_, user=user))
        if isinstance(n, int):
            messages.info(request, f"{n} game{'s' if n != 1 else ''} confirmed.")
    elif action == "close":  # closing goes through its preview (a form of an older page lands there)
        return HttpResponseRedirect(reverse("web:console_round_close", args=[slug, number]), status=303)
    elif action in ("clock_add", "clock_shorten", "call_time"):
        _clock_action(request, round_, action)
        return HttpResponseRedirect(reverse("web:console_tournament", args=[slug]) + "#clock")
    else:
        messages.error(request, "Unknown action.")
    return back


# ---- the round clock, closing and reopening (issue 14) ------------------------------------------------------


def _words(exc: DomainError) -> str:
    """A refusal of the clock, closing or reopening as the page says it: the service's sentence alone (its
    ``fields`` name form fields), a round's status in words ("in play", not ``in_play``)."""
    return exc.message.replace("in_play", "in play")


def _refuse(request: HttpRequest, exc: DomainError) -> None:
    messages.error(request, _words(exc))


def _clock_action(request: HttpRequest, round_: Round, action: str) -> None:
    """*Add time* / *Shorten* by the minutes typed (the time left from now becomes the time left plus or minus
    them: ``round_clock_set``), or *Call time now* (``round_call_time``)."""
    user, n = request.user, round_.number
    try:
        if action == "call_time":
            services.round_call_time(round=round_, user=user)
            clock = presenters.clock_view(Round.objects.get(pk=round_.pk))
            messages.success(request, f"Round {n}: time called{f' at {clock.ends_local}' if clock else ''}. No new "
                             "game starts; the games in play finish. Close the round when they have.")
            return
        try:
            minutes = int(request.POST.get("minutes", "").strip())
        except ValueError:
            minutes = 0
        if not 1 <= minutes <= MAX_CLOCK_MINUTES:
            messages.error(request, f"Give the minutes as a whole number from 1 to {MAX_CLOCK_MINUTES}.")
            return
        now = presenters.clock_view(round_)
        left = round((now.seconds_left if now else 0) / 60)
        target = left + minutes if action == "clock_add" else max(left - minutes, 0)
        if target > MAX_CLOCK_MINUTES:
            messages.error(request, f"A round's clock runs at most {MAX_CLOCK_MINUTES} minutes from now: "
                           f"{left} left, so add at most {max(MAX_CLOCK_MINUTES - left, 0)}.")
            return
        services.round_clock_set(round=round_, minutes=target, user=user)
    except DomainError as exc:
        _refuse(request, exc)
        return
    clock = presenters.clock_view(Round.objects.select_related("tournament").get(pk=round_.pk))
    ends = clock.ends_local if clock else ""
    if target == 0:
        messages.success(request, f"Round {n}: shortened to nothing, so time is called at {ends}. No new game "
                         "starts; the games in play finish.")
    elif action == "clock_add":
        messages.success(request, f"Round {n}: {minutes} minute{'s' if minutes != 1 else ''} added. Time now ends "
                         f"at {ends} ({target} min left).")
    else:
        messages.success(request, f"Round {n}: shortened by {minutes} minute{'s' if minutes != 1 else ''}. Time "
                         f"now ends at {ends} ({target} min left).")


def _close_boards(tournament: Tournament, round_: Round, plan: Any) -> dict[str, Any]:
    """The preview's boards as the page lists them, and the boards closing leaves alone or that block it."""
    summaries = selectors.round_boards(round_)
    planned = {b.board_id for b in plan.boards}
    by_id = {s.board.id: s for s in summaries}
    rows = []
    for item in plan.boards:
        summary = by_id.get(item.board_id)
        rows.append({"item": item, "summary": summary,
                     "level_knockout": item.undecided and tournament.is_knockout and summary is not None
                     and summary.board.team_match_id is None})
    played = [s for s in summaries if not s.is_bye]
    return {
        "rows": rows,
        "disputed_boards": [s for s in played if s.status == "disputed"],
        "level_boards": [r["summary"] for r in rows if r["level_knockout"]],
        "untouched": len([s for s in played if s.board.id not in planned and s.board.forfeited is None]),
        "forfeited": len([s for s in played if s.board.forfeited is not None]),
        "byes": len([s for s in summaries if s.is_bye]),
    }


def _policy_words(tournament: Tournament) -> str:
    try:
        policy = formats.TimeCalled(tournament.time_called)
    except ValueError:
        return ""
    words = policy.explanation
    if policy is formats.TimeCalled.AWARD:
        words += " A level game, or one with no hand in play, is voided."
    return words


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def round_close_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """*Close round N…*: the preview of what closing does (``round_close_preview``), every board not finished
    as it stands and as it becomes; *Close round N* posts the preview's token, so closing does exactly what
    was shown (``round_close``), or, when a board moved meanwhile (``preview_stale``), the page shows the
    fresh preview with the reason."""
    tournament = organiser_tournament(request.user, slug, "manage")
    round_ = found(selectors.tournament_round, tournament, number)
    round_.tournament = tournament
    back = HttpResponseRedirect(reverse("web:console_tournament", args=[slug]))
    refusal: DomainError | None = None
    if request.method == "POST":
        try:
            closed = services.round_close(round=round_, user=request.user, token=request.POST.get("token", ""))
        except DomainError as exc:
            if exc.code == "round_not_open":
                _refuse(request, exc)
                return back
            refusal = exc
        else:
            record = closed.close_record or {}
            done = [f"{len(record.get(key, []))} game{'s' if len(record.get(key, [])) != 1 else ''} {word}"
                    for key, word in (("confirmed", "confirmed"), ("awarded", "awarded"), ("voided", "voided"))
                    if record.get(key)]
            messages.success(request, f"Round {number} closed" + (f": {', '.join(done)}." if done else "."))
            return back
    try:
        plan = services.round_close_preview(round=round_, user=request.user)
    except DomainError as exc:
        _refuse(request, exc)
        return back
    return render(request, "console/close_preview.html", {
        "tournament": tournament, "round": round_, "plan": plan, "refusal": refusal,
        "refusal_words": _words(refusal) if refusal else "",
        "clock": presenters.clock_view(round_), "policy": _policy_words(tournament),
        **_close_boards(tournament, round_, plan),
    }, status=refusal.status_code if refusal else 200)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def round_reopen_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """*Reopen round N…*: what reopening puts back (from what closing recorded), then *Reopen round N*
    (``round_reopen``); a refusal (a result changed since, a later round drawn, the event finished) is shown
    on this page with its reason."""
    tournament = organiser_tournament(request.user, slug, "manage")
    round_ = found(selectors.tournament_round, tournament, number)
    round_.tournament = tournament
    refusal: DomainError | None = None
    if request.method == "POST":
        try:
            reopened = services.round_reopen(round=round_, user=request.user)
        except DomainError as exc:
            refusal = exc
        else:
            clock = presenters.clock_view(reopened)
            note = (" Time is still called: add time on the round's clock if games are to start."
                    if clock and clock.time_called else "")
            messages.success(request, f"Round {number} is in play again: what closing changed is undone.{note}")
            return HttpResponseRedirect(reverse("web:console_tournament", args=[slug]) + "#clock")
    record = round_.close_record or {}
    tables = sorted(s.table for s in selectors.round_boards(round_)
                    if s.board.id in set(record.get("time_called_boards", [])) and s.table)
    later = [r.number for r in selectors.tournament_rounds(tournament)
             if r.number > round_.number and r.status == Round.Status.PENDING]
    return render(request, "console/close_preview.html", {
        "tournament": tournament, "round": round_, "reopen": True, "refusal": refusal,
        "refusal_words": _words(refusal) if refusal else "",
        "record": {key: len(record.get(key, [])) for key in ("confirmed", "awarded", "voided", "confirmations")},
        "clocked_tables": tables, "pending_later": later,
    }, status=refusal.status_code if refusal else 200)


def _board_for(tournament: Tournament, board_id: int) -> Board:
    return found(selectors.tournament_board, tournament, board_id)


def _side_names(b: Board) -> dict[int, str]:
    names = {0: f"A {b.pair_a.pair.display_name}"}
    names[1] = f"B {b.pair_b.pair.display_name}" if b.pair_b else "B"
    return names


@dataclasses.dataclass
class Refusal:
    """A correction or void the services refused, shown in the hand's own panel."""

    hand_id: int
    error: DomainError
    action: str = "correct_hand"
    #: The refusal's ``fields`` messages that no form field shows (shown with the sentence).
    unplaced: list[str] = dataclasses.field(default_factory=list)
    #: For ``correction_breaks_later_hands``: the hand that no longer fits, and why.
    breaks: Hand | None = None
    reason: str = ""


def _correction_editor(
    hand: Hand, names: dict[int, str], data: Any = None, seats: dict[int, str] | None = None,
) -> tuple[str, Any]:
    """("tally", form), ("play", form) for a card-by-card hand, ("json", text) otherwise (web/views/corrections.py).
    ``seats`` (``corrections.seat_labels``) is read when a card-by-card hand needs it and not given."""
    if seats is None and hand.form == "play":
        seats = corrections.seat_labels(hand.game.board)
    return corrections.correction_editor(hand, names, seats or {}, data)


def _board_page(
    request: HttpRequest, tournament: Tournament, b: Board, *, bound: tuple[int, str, Any] | None = None,
    refusal: Refusal | None = None, status: int = 200, shown: dict[str, Any] | None = None,
) -> HttpResponse:
    """The console's board page; ``bound`` is (hand id, editor, form or text) as the organiser posted it,
    ``shown`` the engine's reading of that correction ("Check the reading" without JavaScript)."""
    games = board_scorecard(b)
    names = _side_names(b)
    hands = {(h.game_id, h.number): h for h in selectors.active_hands(b)}
    seats = corrections.seat_labels(b) if any(h.form == "play" for h in hands.values()) else {}
    for card in games:
        for line in card.lines:
            hand = hands.get((card.game.id, line.number))
            line.hand = hand  # type: ignore[attr-defined]
            line.hand_id = hand.id if hand else None  # type: ignore[attr-defined]
            if hand is None:
                continue
            line.refusal = refusal if refusal is not None and refusal.hand_id == hand.id else None  # type: ignore[attr-defined]
            if bound is not None and bound[0] == hand.id:
                line.editor, line.editor_value = bound[1], bound[2]  # type: ignore[attr-defined]
                line.shown = shown  # type: ignore[attr-defined]
            else:
                line.editor, line.editor_value = _correction_editor(hand, names, seats=seats)  # type: ignore[attr-defined]
            line.open = line.refusal is not None or (bound is not None and bound[0] == hand.id)  # type: ignore[attr-defined]
    summary = selectors.board_summary(b)
    return render(request, "console/board.html", {
        "tournament": tournament, "board": b, "summary": summary, "games": games,
        "names": names, "forfeit": _forfeit_context(tournament, b, summary),
    }, status=status)


def _forfeit_context(tournament: Tournament, b: Board, summary: Any) -> dict[str, Any] | None:
    """What the board page's forfeit area shows: None for a bye; otherwise whether the round is open (a
    forfeit is recorded or cancelled only then), when the grace time ends, whether that is still to come
    (before any hand), what a forfeit gives, and the team match's clubs."""
    if b.pair_b_id is None:
        return None
    round_ = b.round
    round_.tournament = tournament
    is_open = round_.status in (Round.Status.PUBLISHED, Round.Status.IN_PLAY)
    ends = grace_ends(round_) if round_.published_at else None
    played = bool(summary.hands_played or summary.games_finished)
    try:
        policy = formats.describe_forfeit(tournament.forfeit_policy_value())
    except formats.FormatError:
        policy = ""
    match = b.team_match if b.team_match_id is not None else None
    return {
        "open": is_open, "grace_ends": presenters.local_time(ends, tournament) if ends else "",
        "too_early": bool(ends and not played and timezone.now() < ends), "played": played,
        "minutes": tournament.grace_minutes, "policy": policy,
        "match": match, "clubs": [c for c in ((match.club_a, match.club_b) if match else ()) if c is not None],
    }


@login_required
@never_cache
def board(request: HttpRequest, slug: str, board_id: int) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug)
    return _board_page(request, tournament, _board_for(tournament, board_id))


_BREAK_AT = re.compile(r"^games\[(?P<game>\d+)\]\.hands\[(?P<hand>\d+)\]$")


def _refusal(board: Board, hand: Hand, exc: DomainError, action: str) -> Refusal:
    """The refusal for the hand's panel; for ``correction_breaks_later_hands`` it names the hand that no
    longer fits (``fields`` key ``games[G].hands[N]``), still active since the refusal changed nothing."""
    refusal = Refusal(hand_id=hand.id, error=exc, action=action)
    if exc.code == "correction_breaks_later_hands":
        for key, reason in (exc.fields or {}).items():
            m = _BREAK_AT.match(key)
            if m:
                refusal.breaks = selectors.active_hand_at(board, int(m["game"]), int(m["hand"]))
                refusal.reason = reason
    return refusal


@login_required
@require_POST
def board_action(request: HttpRequest, slug: str, board_id: int) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug, "manage")
    b = _board_for(tournament, board_id)
    user = request.user
    action = request.POST.get("action", "")
    back = HttpResponseRedirect(reverse("web:console_board", args=[slug, b.id]))
    if action == "clear_help":
        _run(request, "Help call answered.", lambda: services.board_help_clear(board=b, user=user))
        return back
    if action == "confirm_game":
        game = _game_of(b, request.POST.get("game"))
        _run(request, f"Game {game.number} confirmed by the organiser.",
             lambda: services.game_confirm(game=game, party="organiser", agrees=True, user=user))
        return back
    if action in ("forfeit", "forfeit_cancel", "team_forfeit"):
        _field_action(request, b, action)
        return HttpResponseRedirect(reverse("web:console_board", args=[slug, b.id]) + "#forfeit")
    hand = _hand_of(b, request.POST.get("hand"))
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    label = f"Hand {hand.number} of game {hand.game.number}"
    # The buttons of a refusal's panel: "void the hands that no longer fit, then save this correction"
    # (void_from) and "void this hand and every hand after it" (void_with_later).
    if not action and request.POST.get("void_from"):
        action = "correct_hand"
    if not action and request.POST.get("void_with_later"):
        action = "void_hand"
    if action == "void_hand":
        with_later = request.POST.get("with_later") == "1" or bool(request.POST.get("void_with_later"))
        try:
            services.hand_void(hand=hand, user=user, expected_version=version, with_later=with_later)
        except DomainError as exc:
            refusal = _refusal(b, hand, exc, "void_hand")
            latest = selectors.active_version(hand)
            if latest is None:
                messages.error(request, exc.message)
                return back
            refusal.hand_id = latest.pk
            return _board_page(request, tournament, b, refusal=refusal, status=exc.status_code)
        messages.success(request, f"{label} voided{' with every hand after it' if with_later else ''}.")
        return back
    if action == "check_hand":  # the engine's reading before saving, without JavaScript
        editor, _ = _correction_editor(hand, _side_names(b))
        value, shown, problem = corrections.check(request, hand, _side_names(b), corrections.seat_labels(b))
        refusal = None if problem is None else Refusal(hand_id=hand.id, error=problem)
        return _board_page(request, tournament, b, bound=(hand.id, editor, value), refusal=refusal, shown=shown,
                           status=problem.status_code if problem is not None else 200)
    if action != "correct_hand":
        messages.error(request, "Unknown action.")
        return back
    editor, value = _correction_editor(hand, _side_names(b), request.POST)
    if editor in ("tally", "play"):
        if not value.is_valid():
            return _board_page(request, tournament, b, bound=(hand.id, editor, value), status=400)
        record = value.record(hand.dealer)
    else:
        record, problem = parse_record_json(value)
        if problem:
            refusal = Refusal(hand_id=hand.id, error=DomainError("record_not_json", problem or ""))
            return _board_page(request, tournament, b, bound=(hand.id, editor, value), refusal=refusal, status=400)

    void_from = request.POST.get("void_from")
    try:
        new = services.hand_correct(hand=hand, record=record, expected_version=version, user=user,
                                    void_from=_hand_of(b, void_from) if void_from else None)
    except DomainError as exc:
        refusal = _refusal(b, hand, exc, "correct_hand")
        latest = selectors.active_version(hand)
        if latest is None:  # voided meanwhile: nothing left to correct
            messages.error(request, exc.message)
            return back
        if latest.pk != hand.pk:  # corrected meanwhile (stale version): show the new version, freshly filled
            refusal.hand_id = latest.pk
            return _board_page(request, tournament, b, refusal=refusal, status=exc.status_code)
        paths = value.add_refusal(exc.fields) if editor != "json" else list(exc.fields or {})
        if refusal.breaks is None:
            refusal.unplaced = [t for p, t in (exc.fields or {}).items() if p in paths and t != exc.message]
        return _board_page(request, tournament, b, bound=(hand.id, editor, value), refusal=refusal,
                           status=exc.status_code)
    messages.success(request, f"{label} corrected (version {new.version})"
                     + (", the hands that no longer fitted voided." if void_from else "."))
    return back


FORFEIT_WORDS = {"a": "pair A did not come", "b": "pair B did not come", "both": "neither pair came"}


def _field_action(request: HttpRequest, b: Board, action: str) -> None:
    """A no-show forfeited (``absent``: a, b or both), a forfeit cancelled, or a club's team forfeited
    (``club``): one service call each (``tournaments.services.field``), its refusal as the message (a
    forfeit before the grace time runs out says until when)."""
    user = request.user
    if action == "forfeit":
        absent = request.POST.get("absent", "")
        _run(request, f"Table {b.table} forfeited: {FORFEIT_WORDS.get(absent, absent)}.",
             lambda: board_forfeit(board=b, absent=absent, user=user))
    elif action == "forfeit_cancel":
        _run(request, f"Table {b.table}: the forfeit is cancelled; the board is played again.",
             lambda: board_forfeit_cancel(board=b, user=user))
    elif b.team_match_id is None:
        messages.error(request, "This board is not part of a team match.")
    else:
        match = b.team_match
        clubs = {str(c.pk): c for c in (match.club_a, match.club_b) if c is not None}
        club = clubs.get(request.POST.get("club", ""))
        if club is None:
            messages.error(request, "Choose the club that cannot field its team.")
            return
        _run(request, f"{club.name} forfeited the team match: each of its boards goes to the other club.",
             lambda: team_match_forfeit(team_match=match, club=club, user=user))


def _game_of(board: Board, game_id: str | None) -> Game:
    try:
        pk = int(game_id or "")
    except ValueError:
        raise Http404("No such game") from None
    return found(selectors.board_game, board, pk)


def _hand_of(board: Board, hand_id: str | None) -> Hand:
    try:
        pk = int(hand_id or "")
    except ValueError:
        raise Http404("No such hand") from None
    return found(selectors.board_hand, board, pk)


# ---- tablets -----------------------------------------------------------------------------------


def _tables(tournament: Tournament) -> list[int]:
    current = selectors.round_to_run(tournament)
    tables = selectors.round_tables(current) if current else []
    if not tables:
        n = selectors.active_entry_count(tournament) // 2
        tables = list(range(1, n + 1))
    return tables


@login_required
@never_cache
def devices(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug)
    rows = selectors.tournament_devices(tournament)
    return render(request, "console/devices.html", {
        "tournament": tournament, "devices": rows, "tables": _tables(tournament),
    })


MAX_TABLES_AT_ONCE = 200


def _parse_tables(text: str) -> list[int]:
    """``1-4, 7`` -> [1, 2, 3, 4, 7]; ValueError for more than ``MAX_TABLES_AT_ONCE`` tables, whatever the
    ranges typed (the work is bounded by the limit, never by the numbers)."""
    out: set[int] = set()
    for part in text.replace(" ", "").split(",")[:MAX_TABLES_AT_ONCE]:
        if not part:
            continue
        lo, _, hi = part.partition("-")
        first, last = int(lo), int(hi or lo)
        if first < 1 or last < first or last - first >= MAX_TABLES_AT_ONCE or last > 10**6:
            raise ValueError(part)
        out.update(range(first, last + 1))
        if len(out) > MAX_TABLES_AT_ONCE:
            raise ValueError(part)
    return sorted(out)


@login_required
@require_POST
@never_cache
def pairing_codes(request: HttpRequest, slug: str) -> HttpResponse:
    """Fresh single-use codes for the tables asked for, as a printable sheet with QR codes."""
    from tournaments.services.devices import pairing_code_create

    tournament = organiser_tournament(request.user, slug, "pair_tablets")
    try:
        tables = _parse_tables(request.POST.get("tables", ""))
    except ValueError:
        tables = []
    if not tables:
        messages.error(request, "Give table numbers like 1-8 or 1, 3, 5 (at most 200).")
        return HttpResponseRedirect(reverse("web:console_devices", args=[slug]))
    codes = []
    for table in tables:
        try:
            code, clear = pairing_code_create(tournament=tournament, table=table, user=request.user)
        except DomainError as exc:
            _fail(request, exc)
            return HttpResponseRedirect(reverse("web:console_devices", args=[slug]))
        link = request.build_absolute_uri(reverse("web:tablet_pair", args=[clear]))
        codes.append({"table": table, "code": clear, "link": link, "expires_at": code.expires_at, "qr": qr_svg(link)})
    response = render(request, "console/pairing_codes.html", {"tournament": tournament, "codes": codes})
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def revoke_device(request: HttpRequest, slug: str, device_id: int) -> HttpResponse:
    from tournaments.services.devices import device_revoke

    tournament = organiser_tournament(request.user, slug, "pair_tablets")
    device = found(selectors.tournament_device, tournament, device_id)
    _run(request, f"Tablet for table {device.table} revoked.", lambda: device_revoke(device=device, user=request.user))
    return HttpResponseRedirect(reverse("web:console_devices", args=[slug]))


# ---- print and export --------------------------------------------------------------------------


def _round_or_404(tournament: Tournament, number: int) -> Round:
    return found(selectors.tournament_round, tournament, number)


@login_required
def print_pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug)
    round_ = _round_or_404(tournament, number)
    return render(request, "console/print_pairings.html", {
        "tournament": tournament, "round": round_, "boards": selectors.round_boards(round_),
    })


@login_required
def print_standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug)
    club_teams = tournament.entrant_type == Tournament.EntrantType.CLUB_TEAMS
    return render(request, "console/print_standings.html", {
        "tournament": tournament, "standings": selectors.standings(tournament), "printed_at": timezone.now(),
        "club_teams": club_teams, "club_table": selectors.club_standings(tournament) if club_teams else None,
    })


@login_required
def print_scoresheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One sheet per table: the pairs, the seats, and the hands recorded so far plus blank lines."""
    tournament = organiser_tournament(request.user, slug)
    round_ = _round_or_404(tournament, number)
    sheets = []
    for summary in selectors.round_boards(round_):
        if summary.is_bye or summary.board.forfeited is not None:
            continue  # no sheet for a bye or a forfeited board: nothing is played on it
        games = board_scorecard(summary.board)
        sheets.append({"summary": summary, "games": games, "blank": scoresheet_blank_lines(games)})
    return render(request, "console/print_scoresheets.html", {"tournament": tournament, "round": round_, "sheets": sheets})


def _csv_response(filename: str) -> tuple[HttpResponse, Any]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # so spreadsheet programs read UTF-8 (names with accents, ♦)
    return response, csvsafe.writer(response)  # text that begins like a formula gets a quote (issue 11)


@login_required
def export_standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug)
    table = selectors.standings(tournament)
    response, writer = _csv_response(f"{tournament.slug}-standings.csv")
    writer.writerow(["rank", "pair", "players", "club", *[key for key, _, _ in table.columns],
                     "forfeits_won", "forfeits_lost"])
    for row in table.rows:
        players = selectors.entry_players(row.entry) if row.entry else ""
        writer.writerow([row.rank, row.name, players, row.club, *row.values, row.raw.get("forfeits_won", 0),
                         row.raw.get("forfeits_lost", 0)])
    return response


def _board_winner(b: Board) -> str:
    return "AB"[b.winner] if b.winner in (0, 1) else ("draw" if b.is_draw else "")


def _forfeited(b: Board) -> str:
    """Who forfeited a board: ``A``, ``B``, ``both``, or "" (played)."""
    return "" if b.forfeited is None else {0: "A", 1: "B"}.get(b.forfeited, "both")


@login_required
def export_results(request: HttpRequest, slug: str) -> HttpResponse:
    """One line per game (voided games left out): round, table, pairs, score, winner, confirmation, and
    where the board's result comes from (``result_source``: hands, forfeit, bye, time_called; who
    ``forfeited``). A forfeited board on which no game was played has one line of its own (no game)."""
    tournament = organiser_tournament(request.user, slug)
    response, writer = _csv_response(f"{tournament.slug}-results.csv")
    writer.writerow([
        "round", "table", "pair_a", "pair_b", "game", "score_a", "score_b", "winner", "status", "confirmed",
        "hands", "board_status", "board_winner", "result_source", "forfeited", "board_games_a", "board_games_b",
    ])
    lines: list[tuple[tuple[int, int, int], list[Any]]] = []
    with_games: set[int] = set()
    for g in selectors.results_games(tournament):
        b = g.board
        with_games.add(b.pk)
        score = list(g.score or [0, 0]) + [0, 0]
        lines.append(((b.round.number, b.table or 0, g.number), [
            b.round.number, b.table or "", b.pair_a.pair.display_name, b.pair_b.pair.display_name if b.pair_b else "",
            g.number, score[0], score[1], "AB"[g.winner] if g.winner in (0, 1) else "", g.status,
            "yes" if g.confirmed else "no", g.hands_n or 0, b.status, _board_winner(b), b.result_source,
            _forfeited(b), b.bullseyes_a, b.bullseyes_b,
        ]))
    entries = selectors.tournament_entries(tournament)
    for round_ in selectors.tournament_rounds(tournament):
        for summary in selectors.round_boards(round_, entries):
            b = summary.board
            if b.forfeited is None or b.pk in with_games:
                continue
            lines.append(((round_.number, b.table or 0, 0), [
                round_.number, b.table or "", summary.pair_a.pair.display_name,
                summary.pair_b.pair.display_name if summary.pair_b else "", "", "", "", "", "forfeit", "yes", 0,
                b.status, _board_winner(b), b.result_source, _forfeited(b), b.bullseyes_a, b.bullseyes_b,
            ]))
    for _, line in sorted(lines, key=lambda item: item[0]):
        writer.writerow(line)
    return response
