"""The API's URL map under /api/v1/: organiser sign-in, tablets, organisers' resources, public reads."""

from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from .etag import cached_public
from .views import accounts, auth, boards, devices, people, public, registration, rounds, tablet, tournaments

app_name = "api"

router = SimpleRouter()
router.register("clubs", people.ClubViewSet, basename="club")
router.register("players", people.PlayerViewSet, basename="player")
router.register("pairs", people.PairViewSet, basename="pair")
router.register("organisations", people.OrganisationViewSet, basename="organisation")
router.register("tournaments", tournaments.TournamentViewSet, basename="tournament")

entries = SimpleRouter()
entries.register("entries", tournaments.EntryViewSet, basename="entry")

tablet_urls = [
    path("pair/", devices.TabletPairView.as_view(), name="tablet-pair"),
    path("board/", tablet.CurrentBoardView.as_view(), name="tablet-board"),
    path("boards/<int:board_id>/seating/", tablet.SeatingView.as_view(), name="tablet-seating"),
    path("boards/<int:board_id>/preview/", tablet.PreviewView.as_view(), name="tablet-preview"),
    path("boards/<int:board_id>/hands/", tablet.HandsView.as_view(), name="tablet-hands"),
    path("boards/<int:board_id>/undo/", tablet.UndoView.as_view(), name="tablet-undo"),
    path("boards/<int:board_id>/confirmations/", tablet.ConfirmationView.as_view(), name="tablet-confirmations"),
    path("boards/<int:board_id>/help/", tablet.HelpView.as_view(), name="tablet-help"),
]

organiser_urls = [
    path("", include(router.urls)),
    path("tournaments/<int:tournament_pk>/entries/import/preview/", registration.ImportPreviewView.as_view(),
         name="entries-import-preview"),
    path("tournaments/<int:tournament_pk>/entries/import/check/", registration.ImportCheckView.as_view(),
         name="entries-import-check"),
    path("tournaments/<int:tournament_pk>/entries/import/", registration.ImportCommitView.as_view(),
         name="entries-import"),
    path("tournaments/<int:tournament_pk>/entries/<int:entry_pk>/availability/<int:number>/",
         registration.AvailabilityView.as_view(), name="entry-availability"),
    path("tournaments/<int:tournament_pk>/availability/<int:number>/", registration.RoundFieldView.as_view(),
         name="availability"),
    path("tournaments/<int:tournament_pk>/", include(entries.urls)),
    path("tournaments/<int:tournament_pk>/rounds/", rounds.RoundListView.as_view(), name="rounds"),
    path("tournaments/<int:tournament_pk>/pairing-codes/", devices.PairingCodesView.as_view(), name="pairing-codes"),
    path("tournaments/<int:tournament_pk>/devices/", devices.DeviceListView.as_view(), name="devices"),
    path("tournaments/<int:tournament_pk>/roles/", accounts.RolesView.as_view(), name="roles"),
    path("tournaments/<int:tournament_pk>/roles/<int:user_id>/", accounts.RoleDetailView.as_view(), name="role"),
    path("invitations/", accounts.InvitationCreateView.as_view(), name="invitations"),
    path("invitations/accept/", accounts.InvitationAcceptView.as_view(), name="invitation-accept"),
    path("invitations/<int:pk>/", accounts.InvitationDetailView.as_view(), name="invitation"),
    path("password-links/", accounts.PasswordLinkCreateView.as_view(), name="password-links"),
    path("password-links/use/", accounts.PasswordLinkUseView.as_view(), name="password-link-use"),
    path("devices/<int:pk>/revoke/", devices.DeviceRevokeView.as_view(), name="device-revoke"),
    path("rounds/<int:pk>/", rounds.RoundDetailView.as_view(), name="round"),
    path("rounds/<int:pk>/publish/", rounds.RoundPublishView.as_view(), name="round-publish"),
    path("rounds/<int:pk>/close/", rounds.RoundCloseView.as_view(), name="round-close"),
    path("rounds/<int:pk>/confirm-all/", rounds.RoundConfirmAllView.as_view(), name="round-confirm-all"),
    path("rounds/<int:pk>/boards/", rounds.RoundBoardsView.as_view(), name="round-boards"),
    path("boards/<int:pk>/", boards.BoardDetailView.as_view(), name="board"),
    path("boards/<int:pk>/hands/", boards.BoardHandsView.as_view(), name="board-hands"),
    path("boards/<int:pk>/help/clear/", boards.BoardHelpClearView.as_view(), name="board-help-clear"),
    path("games/<int:pk>/confirm/", boards.GameConfirmView.as_view(), name="game-confirm"),
    path("hands/<int:pk>/", boards.HandDetailView.as_view(), name="hand"),
    path("hands/<int:pk>/void/", boards.HandVoidView.as_view(), name="hand-void"),
]

public_urls = [
    path("tournaments/", public.TournamentListView.as_view(), name="public-tournaments"),
    path("tournaments/<slug:slug>/", public.TournamentView.as_view(), name="public-tournament"),
    path("tournaments/<slug:slug>/rounds/", public.RoundsView.as_view(), name="public-rounds"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", cached_public(public.RoundView.as_view(), "live"), name="public-round"),
    path("tournaments/<slug:slug>/boards/<int:board_id>/", cached_public(public.ScorecardView.as_view(), "live"), name="public-scorecard"),
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
