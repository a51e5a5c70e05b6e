"""Page URLs: public pages under /t/<slug>/, the tablet under /tablet/, the console under /console/.

Included at the site root by config/urls.py. No URL ever carries a device token; the one pairing code
in /tablet/pair/<code> is single use and short-lived, and the page drops it from the address at once.
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse_lazy

import config.converters  # noqa: F401 - registers <id:...>: an oversized id is 404 (issue 11 item 10)

from .views import (
    accounts,
    archive,
    console,
    corrections,
    final,
    identity,
    late_hands,
    league_console,
    league_fixture,
    league_import,
    league_standings,
    public,
    registration,
    setup,
    tablet,
)

app_name = "web"

tournament_patterns = [
    path("", public.tournament_home, name="tournament"),
    path("standings/", public.standings, name="standings"),
    path("standings/live/", public.standings_live, name="standings_live"),
    path("standings/table/", public.standings_table, name="standings_table"),
    path("rounds/", public.rounds, name="rounds"),
    path("rounds/<id:number>/", public.pairings, name="pairings"),
    path("rounds/<id:number>/live/", public.pairings_live, name="pairings_live"),
    path("boards/<id:board_id>/", public.board, name="board"),
    path("boards/<id:board_id>/live/", public.board_live, name="board_live"),
    path("pairs/<id:entry_id>/", public.pair, name="pair"),
    path("clubs/", public.clubs, name="clubs"),
    path("clubs/<id:club_id>/", public.club, name="club"),
    path("stats/", public.stats, name="stats"),
    path("entries/", registration.public_entries, name="public_entries"),
]

console_patterns = [
    path("", console.index, name="console"),
    path("new/", setup.event_wizard, name="console_new"),
    path("leagues/", league_console.leagues_index, name="console_leagues"),
    path("clubs/", identity.clubs, name="console_clubs"),  # issue 15: club and player identity
    path("clubs/<id:club_id>/", identity.club_page, name="console_club"),
    path("players/<id:player_id>/", identity.player_page, name="console_player"),
    path("leagues/<slug:slug>/", league_console.league_page, name="console_league"),
    path("t/<slug:slug>/season/", league_console.season_page, name="console_season"),
    path("t/<slug:slug>/season/teams/<id:team_id>/", league_console.team_page, name="console_season_team"),
    path("t/<slug:slug>/season/fixtures/<id:fixture_id>/", league_fixture.fixture_page, name="console_season_fixture"),
    path("t/<slug:slug>/season/import/", league_import.season_import_page, name="console_season_import"),
    path("t/<slug:slug>/season/next/", league_import.season_next_page, name="console_season_next"),
    path("t/<slug:slug>/settings/", setup.settings_page, name="console_settings"),
    path("t/<slug:slug>/", console.tournament, name="console_tournament"),
    path("t/<slug:slug>/live/", console.tournament_live, name="console_live"),
    path("t/<slug:slug>/rounds/<id:number>/action/", console.round_action, name="console_round_action"),
    path("t/<slug:slug>/rounds/<id:number>/close/", console.round_close_page, name="console_round_close"),
    path("t/<slug:slug>/rounds/<id:number>/reopen/", console.round_reopen_page, name="console_round_reopen"),
    path("t/<slug:slug>/boards/<id:board_id>/", console.board, name="console_board"),
    path("t/<slug:slug>/boards/<id:board_id>/action/", console.board_action, name="console_board_action"),
    path("t/<slug:slug>/boards/<id:board_id>/hands/<id:hand_id>/reading/", corrections.hand_reading,
         name="console_hand_reading"),
    path("t/<slug:slug>/devices/", console.devices, name="console_devices"),
    path("t/<slug:slug>/devices/codes/", console.pairing_codes, name="console_pairing_codes"),
    path("t/<slug:slug>/devices/<id:device_id>/revoke/", console.revoke_device, name="console_revoke_device"),
    path("t/<slug:slug>/late-hands/", late_hands.late_hands, name="console_late_hands"),
    path("t/<slug:slug>/people/", accounts.people, name="console_people"),
    path("t/<slug:slug>/entries/", registration.entries, name="console_entries"),
    path("t/<slug:slug>/entries/add/", registration.entry_add, name="console_entry_add"),
    path("t/<slug:slug>/entries/import/", registration.entries_import, name="console_entries_import"),
    path("t/<slug:slug>/entries/<id:entry_id>/", registration.entry_edit, name="console_entry_edit"),
    path("t/<slug:slug>/entries/<id:entry_id>/withdraw/", registration.entry_withdraw_page,
         name="console_entry_withdraw"),
    path("t/<slug:slug>/check-in/", registration.check_in, name="console_check_in"),
    path("organisers/", accounts.organisers, name="console_organisers"),
    path("archives/import/", archive.archive_import_page, name="console_archive_import"),
    path("t/<slug:slug>/export/archive.json", archive.archive_download, name="console_archive"),
    path("t/<slug:slug>/print/pairings/<id:number>/", console.print_pairings, name="console_print_pairings"),
    path("t/<slug:slug>/print/standings/", console.print_standings, name="console_print_standings"),
    path("t/<slug:slug>/print/scoresheets/<id:number>/", console.print_scoresheets, name="console_print_scoresheets"),
    path("t/<slug:slug>/export/standings.csv", console.export_standings, name="console_export_standings"),
    path("t/<slug:slug>/export/results.csv", console.export_results, name="console_export_results"),
    path("t/<slug:slug>/export/teams.csv", league_standings.export_team_standings,
         name="console_export_team_standings"),
    path("t/<slug:slug>/prizes/", final.prizes, name="console_prizes"),
    path("t/<slug:slug>/prizes/add/", final.prize_add, name="console_prize_add"),
    path("t/<slug:slug>/prizes/settings/", final.prize_settings, name="console_prize_settings"),
    path("t/<slug:slug>/prizes/<id:prize_id>/", final.prize_edit, name="console_prize_edit"),
    path("t/<slug:slug>/prizes/<id:prize_id>/remove/", final.prize_remove, name="console_prize_remove"),
    path("t/<slug:slug>/finish/", final.finish, name="console_finish"),
    path("t/<slug:slug>/reopen/", final.reopen, name="console_reopen"),
    path("t/<slug:slug>/print/payout/", final.payout, name="console_print_payout"),
    path("t/<slug:slug>/print/final/", final.final, name="console_print_final"),
    path("t/<slug:slug>/results.txt", final.results_txt, name="console_results_text"),
]

# Accounts (web/views/accounts.py): invitations, sign-up, password links, and Django's password reset by
# e-mail and password change. The links' tokens leave the address at once (kept in the session).
account_patterns = [
    path("invite/", accounts.invite, name="invite"),
    path("invite/<str:token>/", accounts.invite_link, name="invite_link"),
    path("signup/", accounts.signup, name="signup"),
    path("password-link/", accounts.password_link_set, name="password_link_set"),
    path("password-link/<str:token>/", accounts.password_link, name="password_link"),
    path("password/reset/", auth_views.PasswordResetView.as_view(
        email_template_name="registration/password_reset_email.txt",
        subject_template_name="registration/password_reset_subject.txt",
        success_url=reverse_lazy("web:password_reset_done")), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(
        success_url=reverse_lazy("web:password_reset_complete")), name="password_reset_confirm"),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("password/change/", auth_views.PasswordChangeView.as_view(
        template_name="registration/account_password_change.html",
        success_url=reverse_lazy("web:password_change_done")), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(
        template_name="registration/account_password_change_done.html"), name="password_change_done"),
]

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", include(tournament_patterns)),
    path("", include("web.public_urls")),  # issue 17: follow, hall, club and player history
    path("tablet/", tablet.tablet, name="tablet"),
    path("tablet/sw.js", tablet.service_worker, name="tablet_sw"),
    path("tablet/manifest.webmanifest", tablet.manifest, name="tablet_manifest"),
    path("tablet/pair/", tablet.pair, name="tablet_pair_form"),
    path("tablet/pair/<str:code>", tablet.pair, name="tablet_pair"),
    path("console/", include(console_patterns)),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include(account_patterns)),
]
