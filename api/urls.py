"""The API's URL map under /api/v1/: auth, tablet, organiser resources, public reads."""

from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from .views import auth, devices, people, tournaments

app_name = "api"

router = SimpleRouter()
router.register("clubs", people.ClubViewSet, basename="club")
router.register("players", people.PlayerViewSet, basename="player")
router.register("pairs", people.PairViewSet, basename="pair")
router.register("tournaments", tournaments.TournamentViewSet, basename="tournament")

entries = SimpleRouter()
entries.register("entries", tournaments.EntryViewSet, basename="entry")

urlpatterns = [
    # Organiser sign-in
    path("auth/login/", auth.LoginView.as_view(), name="login"),
    path("auth/logout/", auth.LogoutView.as_view(), name="logout"),
    path("auth/me/", auth.MeView.as_view(), name="me"),
    # Tablets
    path("tablet/pair/", devices.TabletPairView.as_view(), name="tablet-pair"),
    # Organisers
    path("", include(router.urls)),
    path("tournaments/<int:tournament_pk>/", include(entries.urls)),
    path("tournaments/<int:tournament_pk>/pairing-codes/", devices.PairingCodesView.as_view(), name="pairing-codes"),
    path("tournaments/<int:tournament_pk>/devices/", devices.DeviceListView.as_view(), name="devices"),
    path("devices/<int:pk>/revoke/", devices.DeviceRevokeView.as_view(), name="device-revoke"),
]
