"""The spectators' pages added by issue 17, included at the site root by web/urls.py (names in the ``web``
namespace): Follow my pair and the hall display of an event; a club's and a player's history across events."""

from __future__ import annotations

from django.urls import path

import config.converters  # noqa: F401 - registers <id:...>

from .views import public_history, public_live

urlpatterns = [
    path("t/<slug:slug>/follow/", public_live.follow, name="follow"),
    path("t/<slug:slug>/hall/", public_live.hall, name="hall"),
    path("clubs/<id:club_id>/", public_history.club_history, name="club_history"),
    path("players/<id:player_id>/", public_history.player_history, name="player_history"),
]
