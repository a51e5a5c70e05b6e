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
from django.views.decorators.http import require_POST

from tournaments import csvsafe, formats, selectors, services
from tournaments.errors import DomainError
from tournaments.models import Board, Game, Hand, Round, Tournament
from tournaments.services.field import board_forfeit, board_forfeit_cancel, grace_ends, team_match_forfeit
from tournaments.services.pairing import round_draft_adopt_proposal
from web import presenters
from web.forms import HandCorrectionForm, fits_tally_form, parse_record_json, penalty_rows_for, record_json
from web.http import found
from web.permissions import organised_tournaments, organiser_tournament
from web.qr import qr_svg
from web.scorecards import board_scorecard

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
    }


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
        round_ = _run(request, f"Round {number} started. Check the draft, then publish it.",
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
    elif action == "close":
        confirm = request.POST.get("confirm_remaining") == "on"
        _run(request, f"Round {number} closed.",
             lambda: services.round_close(round=round_, user=user, confirm_remaining=confirm))
    else:
        messages.error(request, "Unknown action.")
    return back


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


def _correction_editor(hand: Hand, names: dict[int, str], data: Any = None) -> tuple[str, Any]:
    """("tally", form) for a tally record the form can show; ("json", text) otherwise (a card-by-card hand)."""
    if hand.form == "tally" and fits_tally_form(hand.record):
        form = HandCorrectionForm(
            data, names=names, prefix=f"hand{hand.id}", penalty_rows=penalty_rows_for(hand.record),
            initial=HandCorrectionForm.initial_from(hand.record) if data is None else None,
        )
        return "tally", form
    return "json", (data.get("record", "") if data is not None else record_json(hand.record))


def _board_page(
    request: HttpRequest, tournament: Tournament, b: Board, *, bound: tuple[int, str, Any] | None = None,
    refusal: Refusal | None = None, status: int = 200,
) -> HttpResponse:
    """The console's board page; ``bound`` is (hand id, editor, form or text) as the organiser posted it."""
    games = board_scorecard(b)
    names = _side_names(b)
    hands = {(h.game_id, h.number): h for h in selectors.active_hands(b)}
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
            else:
                line.editor, line.editor_value = _correction_editor(hand, names)  # type: ignore[attr-defined]
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
    if action != "correct_hand":
        messages.error(request, "Unknown action.")
        return back
    editor, value = _correction_editor(hand, _side_names(b), request.POST)
    if editor == "tally":
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
        paths = value.add_refusal(exc.fields) if editor == "tally" else list(exc.fields or {})
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
    return render(request, "console/print_standings.html", {
        "tournament": tournament, "standings": selectors.standings(tournament), "printed_at": timezone.now(),
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
        sheets.append({"summary": summary, "games": games, "blank": range(max(0, 12 - sum(len(g.lines) for g in games)))})
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
