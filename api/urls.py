"""The API's URL map under /api/v1/: organiser sign-in, tablets, organisers' resources, public reads."""

from __future__ import annotations

from typing import Any

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from config.converters import ID

from .etag import cached_public
from .views import (
    accounts,
    archive,
    auth,
    boards,
    devices,
    field_changes,
    final,
    identity,
    late_hands,
    league_fixtures,
    league_setup,
    leagues,
    people,
    public,
    registration,
    rounds,
    tablet,
    tournaments,
)

app_name = "api"


class IdRouter(SimpleRouter):
    """A router whose detail routes take ``<id:pk>`` (config/converters.py): an oversized id is 404."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, use_regex_path=False, **kwargs)
        self._default_value_pattern = ID


router = IdRouter()
router.register("clubs", people.ClubViewSet, basename="club")
router.register("players", people.PlayerViewSet, basename="player")
router.register("pairs", people.PairViewSet, basename="pair")
router.register("organisations", people.OrganisationViewSet, basename="organisation")
router.register("tournaments", tournaments.TournamentViewSet, basename="tournament")

entries = IdRouter()
entries.register("entries", tournaments.EntryViewSet, basename="entry")

tablet_urls = [
    path("pair/", devices.TabletPairView.as_view(), name="tablet-pair"),
    path("board/", tablet.CurrentBoardView.as_view(), name="tablet-board"),
    path("boards/<id:board_id>/seating/", tablet.SeatingView.as_view(), name="tablet-seating"),
    path("boards/<id:board_id>/preview/", tablet.PreviewView.as_view(), name="tablet-preview"),
    path("boards/<id:board_id>/hands/", tablet.HandsView.as_view(), name="tablet-hands"),
    path("boards/<id:board_id>/undo/", tablet.UndoView.as_view(), name="tablet-undo"),
    path("boards/<id:board_id>/confirmations/", tablet.ConfirmationView.as_view(), name="tablet-confirmations"),
    path("boards/<id:board_id>/help/", tablet.HelpView.as_view(), name="tablet-help"),
    path("late-hands/", late_hands.LateHandsView.as_view(), name="tablet-late-hands"),
]

organiser_urls = [
    path("", include(router.urls)),
    path("clubs/<id:pk>/aliases/", identity.ClubAliasesView.as_view(), name="club-aliases"),
    path("clubs/<id:pk>/rename/", identity.ClubRenameView.as_view(), name="club-rename"),
    path("clubs/<id:pk>/merge/", identity.ClubMergeView.as_view(), name="club-merge"),
    path("players/<id:pk>/aliases/", identity.PlayerAliasesView.as_view(), name="player-aliases"),
    path("players/<id:pk>/rename/", identity.PlayerRenameView.as_view(), name="player-rename"),
    path("players/<id:pk>/merge/", identity.PlayerMergeView.as_view(), name="player-merge"),
    path("tournaments/<id:tournament_pk>/entries/import/preview/", registration.ImportPreviewView.as_view(),
         name="entries-import-preview"),
    path("tournaments/<id:tournament_pk>/entries/import/check/", registration.ImportCheckView.as_view(),
         name="entries-import-check"),
    path("tournaments/<id:tournament_pk>/entries/import/", registration.ImportCommitView.as_view(),
         name="entries-import"),
    path("tournaments/<id:tournament_pk>/entries/<id:entry_pk>/availability/<id:number>/",
         registration.AvailabilityView.as_view(), name="entry-availability"),
    path("tournaments/<id:tournament_pk>/availability/<id:number>/", registration.RoundFieldView.as_view(),
         name="availability"),
    path("tournaments/<id:tournament_pk>/", include(entries.urls)),
    path("tournaments/<id:tournament_pk>/rounds/", rounds.RoundListView.as_view(), name="rounds"),
    path("tournaments/<id:tournament_pk>/pairing-codes/", devices.PairingCodesView.as_view(), name="pairing-codes"),
    path("tournaments/<id:tournament_pk>/devices/", devices.DeviceListView.as_view(), name="devices"),
    path("tournaments/<id:tournament_pk>/roles/", accounts.RolesView.as_view(), name="roles"),
    path("tournaments/<id:tournament_pk>/roles/<id:user_id>/", accounts.RoleDetailView.as_view(), name="role"),
    path("tournaments/<id:tournament_pk>/prizes/", final.PrizeListView.as_view(), name="prizes"),
    path("tournaments/<id:tournament_pk>/prizes/<id:pk>/", final.PrizeDetailView.as_view(), name="prize"),
    path("tournaments/<id:tournament_pk>/prize-settings/", final.PrizeSettingsView.as_view(), name="prize-settings"),
    path("tournaments/<id:tournament_pk>/awards/", final.AwardsView.as_view(), name="awards"),
    path("tournaments/<id:tournament_pk>/payout/", final.PayoutView.as_view(), name="payout"),
    path("tournaments/<id:tournament_pk>/finish/", final.FinishView.as_view(), name="tournament-finish"),
    path("tournaments/<id:tournament_pk>/reopen/", final.ReopenView.as_view(), name="tournament-reopen"),
    path("tournaments/<id:tournament_pk>/final-results/", final.FinalResultsView.as_view(), name="final-results"),
    path("tournaments/<id:tournament_pk>/results-text/", final.ResultsTextView.as_view(), name="results-text"),
    path("tournaments/<id:tournament_pk>/archive/", archive.TournamentArchiveView.as_view(), name="tournament-archive"),
    path("tournaments/<id:tournament_pk>/season/tables/", leagues.SeasonTablesView.as_view(), name="season-tables"),
    path("tournaments/<id:tournament_pk>/season/import/", leagues.SeasonImportView.as_view(), name="season-import"),
    path("tournaments/<id:tournament_pk>/season/fixtures/", leagues.SeasonFixturesView.as_view(), name="season-fixtures"),
    path("fixtures/<id:pk>/paper-games/", leagues.PaperGameView.as_view(), name="fixture-paper-games"),
    path("fixtures/<id:pk>/totals/", leagues.MatchTotalsView.as_view(), name="fixture-totals"),
    path("fixtures/<id:pk>/confirm/", leagues.FixtureConfirmView.as_view(), name="fixture-confirm"),
    path("leagues/", league_setup.LeaguesView.as_view(), name="leagues"),
    path("leagues/<id:pk>/seasons/", league_setup.LeagueSeasonsView.as_view(), name="league-seasons"),
    path("tournaments/<id:tournament_pk>/season/divisions/", league_setup.SeasonDivisionsView.as_view(),
         name="season-divisions"),
    path("divisions/<id:pk>/", league_setup.DivisionView.as_view(), name="division"),
    path("tournaments/<id:tournament_pk>/season/teams/", league_setup.SeasonTeamsView.as_view(), name="season-teams"),
    path("teams/<id:pk>/", league_setup.TeamView.as_view(), name="team"),
    path("teams/<id:pk>/roster/", league_setup.TeamRosterView.as_view(), name="team-roster"),
    path("teams/<id:pk>/captains/", league_setup.TeamCaptainsView.as_view(), name="team-captains"),
    path("tournaments/<id:tournament_pk>/season/roster-moves/", league_setup.SeasonRosterMoveView.as_view(),
         name="season-roster-moves"),
    path("tournaments/<id:tournament_pk>/season/match-days/", league_fixtures.SeasonMatchDaysView.as_view(),
         name="season-match-days"),
    path("match-days/<id:pk>/", league_fixtures.MatchDayView.as_view(), name="match-day"),
    path("fixtures/<id:pk>/move/", league_fixtures.FixtureMoveView.as_view(), name="fixture-move"),
    path("fixtures/<id:pk>/postpone/", league_fixtures.FixturePostponeView.as_view(), name="fixture-postpone"),
    path("fixtures/<id:pk>/replay/", league_fixtures.FixtureReplayView.as_view(), name="fixture-replay"),
    path("fixtures/<id:pk>/walkover/", league_fixtures.FixtureWalkoverView.as_view(), name="fixture-walkover"),
    path("fixtures/<id:pk>/void/", league_fixtures.FixtureVoidView.as_view(), name="fixture-void"),
    path("fixtures/<id:pk>/lineup/", league_fixtures.FixtureLineupView.as_view(), name="fixture-lineup"),
    path("fixtures/<id:pk>/substitutions/", league_fixtures.FixtureSubstitutionsView.as_view(),
         name="fixture-substitutions"),
    path("tournaments/<id:tournament_pk>/season/deductions/", league_fixtures.SeasonDeductionsView.as_view(),
         name="season-deductions"),
    path("deductions/<id:pk>/void/", league_fixtures.DeductionVoidView.as_view(), name="deduction-void"),
    path("archives/", archive.ArchiveImportView.as_view(), name="archives"),
    path("archives/preview/", archive.ArchivePreviewView.as_view(), name="archives-preview"),
    path("invitations/", accounts.InvitationCreateView.as_view(), name="invitations"),
    path("invitations/accept/", accounts.InvitationAcceptView.as_view(), name="invitation-accept"),
    path("invitations/<id:pk>/", accounts.InvitationDetailView.as_view(), name="invitation"),
    path("password-links/", accounts.PasswordLinkCreateView.as_view(), name="password-links"),
    path("password-links/use/", accounts.PasswordLinkUseView.as_view(), name="password-link-use"),
    path("devices/<id:pk>/revoke/", devices.DeviceRevokeView.as_view(), name="device-revoke"),
    path("rounds/<id:pk>/", rounds.RoundDetailView.as_view(), name="round"),
    path("rounds/<id:pk>/publish/", rounds.RoundPublishView.as_view(), name="round-publish"),
    path("rounds/<id:pk>/close-preview/", rounds.RoundClosePreviewView.as_view(), name="round-close-preview"),
    path("rounds/<id:pk>/close/", rounds.RoundCloseView.as_view(), name="round-close"),
    path("rounds/<id:pk>/reopen/", rounds.RoundReopenView.as_view(), name="round-reopen"),
    path("rounds/<id:pk>/clock/", rounds.RoundClockView.as_view(), name="round-clock"),
    path("rounds/<id:pk>/call-time/", rounds.RoundCallTimeView.as_view(), name="round-call-time"),
    path("rounds/<id:pk>/confirm-all/", rounds.RoundConfirmAllView.as_view(), name="round-confirm-all"),
    path("rounds/<id:pk>/boards/", rounds.RoundBoardsView.as_view(), name="round-boards"),
    path("rounds/<id:pk>/adopt-proposal/", field_changes.RoundAdoptProposalView.as_view(),
         name="round-adopt-proposal"),
    path("entries/<id:pk>/withdraw/", field_changes.EntryWithdrawView.as_view(), name="entry-withdraw"),
    path("boards/<id:pk>/forfeit/", field_changes.BoardForfeitView.as_view(), name="board-forfeit"),
    path("team-matches/<id:pk>/forfeit/", field_changes.TeamMatchForfeitView.as_view(), name="team-match-forfeit"),
    path("boards/<id:pk>/", boards.BoardDetailView.as_view(), name="board"),
    path("boards/<id:pk>/hands/", boards.BoardHandsView.as_view(), name="board-hands"),
    path("boards/<id:pk>/help/clear/", boards.BoardHelpClearView.as_view(), name="board-help-clear"),
    path("games/<id:pk>/confirm/", boards.GameConfirmView.as_view(), name="game-confirm"),
    path("hands/<id:pk>/", boards.HandDetailView.as_view(), name="hand"),
    path("hands/<id:pk>/void/", boards.HandVoidView.as_view(), name="hand-void"),
]

public_urls = [
    path("tournaments/", public.TournamentListView.as_view(), name="public-tournaments"),
    path("tournaments/<slug:slug>/", public.TournamentView.as_view(), name="public-tournament"),
    path("tournaments/<slug:slug>/rounds/", public.RoundsView.as_view(), name="public-rounds"),
    path("tournaments/<slug:slug>/rounds/<id:number>/", cached_public(public.RoundView.as_view(), "live"), name="public-round"),
    path("tournaments/<slug:slug>/boards/<id:board_id>/", cached_public(public.ScorecardView.as_view(), "live"), name="public-scorecard"),
    path("tournaments/<slug:slug>/standings/", cached_public(public.StandingsView.as_view(), "live"), name="public-standings"),
    path("tournaments/<slug:slug>/statistics/", cached_public(public.StatisticsView.as_view(), "results"), name="public-statistics"),
]

urlpatterns = [
    path("auth/login/", auth.LoginView.as_view(), name="login"),
    path("auth/logout/", auth.LogoutView.as_view(), name="logout"),
    path("auth/me/", auth.MeView.as_view(), name="me"),
    path("auth/signup/", accounts.SignupView.as_view(), name="signup"),
    path("tablet/", include(tablet_urls)),
    path("public/", include(public_urls)),
    *organiser_urls,
]
