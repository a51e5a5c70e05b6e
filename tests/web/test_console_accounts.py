"""Accounts and roles in the console, through the test client: an invitation made on the People page and
accepted end to end, a scorekeeper's read-only console, a co-organiser who cannot take roles away, password
links, sign-up, the Organisers page and Django's password reset by e-mail."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from tournaments.models import Board, Invitation, Round, TournamentRole
from tournaments.services import accounts

from .factories import make_round, make_tournament, play_game

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "Parang-Jack-2026"
LINK = re.compile(r'value="(http://testserver/accounts/(?:invite|password-link)/[^"/]+/)"')


def url(name, *args):
    return reverse(f"web:{name}", args=args)


@pytest.fixture
def event():
    t = make_tournament(pairs=4)
    r1 = make_round(t, 1, Round.Status.IN_PLAY)
    play_game(r1.boards.get(table=1), 1, seed=3, hands=2)
    return t


def signed_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def with_role(event, username, role) -> User:
    user = User.objects.create_user(username, password="pw-" + username)
    TournamentRole.objects.create(tournament=event, user=user, role=role)
    return user


@pytest.fixture
def owner(event):
    return with_role(event, "owner", "organiser")


@pytest.fixture
def owner_client(owner):
    return signed_in(owner)


def link_in(response) -> str:
    match = LINK.search(response.content.decode())
    assert match, response.content.decode()[:3000]
    return match.group(1)


# ---- an invitation, end to end ----------------------------------------------------------------------------


def test_an_invitation_made_on_the_people_page_is_accepted_end_to_end(owner_client, event, mailoutbox):
    page = owner_client.get(url("console_people", event.slug))
    assert page.status_code == 200
    text = page.content.decode()
    assert "No invitation is waiting" in text and "Make the invitation link" in text
    made = owner_client.post(url("console_people", event.slug), {
        "action": "invite", "invite-role": "scorekeeper", "invite-email": "door@example.org", "invite-days": "7"})
    assert made.status_code == 200 and "no-store" in made["Cache-Control"]
    link = link_in(made)
    assert "<svg" in made.content.decode() and "This is the only time it is shown" in made.content.decode()
    assert link in mailoutbox[0].body
    assert "As scorekeeper" in owner_client.get(url("console_people", event.slug)).content.decode()
    assert link not in owner_client.get(url("console_people", event.slug)).content.decode()  # shown once

    guest = Client()
    opened = guest.get(link)
    assert opened.status_code == 302 and opened["Location"] == url("invite")  # the token leaves the address
    page = guest.get(url("invite"))
    assert page.status_code == 200
    assert "scorekeeper of Couva Open" in page.content.decode()
    mismatch = guest.post(url("invite"), {"action": "create", "username": "door", "password1": GOOD_PASSWORD,
                                          "password2": GOOD_PASSWORD + "!"})
    assert mismatch.status_code == 400
    assert re.search(r'id="id_password2_error">The two passwords differ', mismatch.content.decode())
    weak = guest.post(url("invite"), {"action": "create", "username": "door", "password1": "12345678",
                                      "password2": "12345678"})
    assert weak.status_code == 400 and 'id="id_password1_error"' in weak.content.decode()
    taken = guest.post(url("invite"), {"action": "create", "username": "OWNER", "password1": GOOD_PASSWORD,
                                       "password2": GOOD_PASSWORD})
    assert taken.status_code == 400 and 'id="id_username_error">This username is taken' in taken.content.decode()
    done = guest.post(url("invite"), {"action": "create", "username": "door", "email": "",
                                      "password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD})
    assert done.status_code == 302 and done["Location"] == url("console_tournament", event.slug)
    door = User.objects.get(username="door")
    assert TournamentRole.objects.get(tournament=event, user=door).role == "scorekeeper"
    console = guest.get(url("console_tournament", event.slug)).content.decode()
    assert "Welcome, door" in console and "Your role here is <strong>scorekeeper</strong>" in console
    assert Client().login(username="door", password=GOOD_PASSWORD)

    late = Client()
    late.get(link)
    used = late.get(url("invite"))
    assert used.status_code == 409 and "already used" in used.content.decode()


def test_an_invitation_accepted_as_the_signed_in_user(owner, event):
    _, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="co_organiser")
    helper = User.objects.create_user("helper", password="x")
    c = signed_in(helper)
    c.get(url("invite_link", token))
    page = c.get(url("invite")).content.decode()
    assert "Accept as helper" in page
    done = c.post(url("invite"), {"action": "accept_signed_in"})
    assert done.status_code == 302
    assert TournamentRole.objects.get(tournament=event, user=helper).role == "co_organiser"


@pytest.mark.parametrize(("state", "status", "words"), [
    ("expired", 409, "has expired"), ("revoked", 409, "was withdrawn"), ("unknown", 404, "does not work"),
])
def test_a_dead_invitation_says_what_to_do(owner, event, state, status, words):
    from datetime import timedelta

    from django.utils import timezone

    invitation, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="scorekeeper")
    if state == "expired":
        Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    elif state == "revoked":
        accounts.invitation_revoke(invitation=invitation, by=owner)
    else:
        token = "not-a-real-token"
    c = Client()
    c.get(url("invite_link", token))
    page = c.get(url("invite"))
    assert page.status_code == status
    assert words in page.content.decode() and "Ask whoever sent it for a new link" in page.content.decode()
    assert c.post(url("invite"), {"action": "create", "username": "x", "password1": GOOD_PASSWORD,
                                  "password2": GOOD_PASSWORD}).status_code == status
    assert not User.objects.filter(username="x").exists()


def test_the_invite_page_without_a_link(client):
    assert client.get(url("invite")).status_code == 404


# ---- roles: the scorekeeper's read-only console, the co-organiser -------------------------------------------


def test_a_scorekeeper_sees_a_read_only_console(event):
    keeper = signed_in(with_role(event, "keeper", "scorekeeper"))
    page = keeper.get(url("console_tournament", event.slug))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Your role here is <strong>scorekeeper</strong>" in text
    assert "Close round" not in text and "Confirm all finished games" not in text and "read-only" in text
    board = Board.objects.filter(round__tournament=event, table=1).get()
    board_page = keeper.get(url("console_board", event.slug, board.id)).content.decode()
    assert "Correct or void hand" not in board_page and "Hand 1" in board_page
    assert keeper.post(url("console_round_action", event.slug, 1), {"action": "close"}).status_code == 403
    assert keeper.post(url("console_board_action", event.slug, board.id), {"action": "clear_help"}).status_code == 403
    assert Round.objects.get(tournament=event, number=1).status == Round.Status.IN_PLAY
    # what a scorekeeper does: tablets (and check-in), and reading
    assert keeper.get(url("console_devices", event.slug)).status_code == 200
    codes = keeper.post(url("console_pairing_codes", event.slug), {"tables": "1-2"})
    assert codes.status_code == 200 and "Table 2" in codes.content.decode()
    assert keeper.get(url("console_print_standings", event.slug)).status_code == 200
    people = keeper.get(url("console_people", event.slug)).content.decode()
    assert "Only the tournament's organiser gives roles" in people and "Make the invitation link" not in people


def test_a_co_organiser_runs_rounds_but_cannot_touch_roles(owner, event):
    keeper = with_role(event, "keeper", "scorekeeper")
    co = signed_in(with_role(event, "co", "co_organiser"))
    page = co.get(url("console_tournament", event.slug)).content.decode()
    assert "Close round 1" in page and "Your role here is" not in page
    people = co.get(url("console_people", event.slug))
    assert people.status_code == 200 and "Remove" not in people.content.decode()
    refused = co.post(url("console_people", event.slug), {"action": "revoke_role", "user": keeper.pk})
    assert refused.status_code == 403
    assert co.post(url("console_people", event.slug), {"action": "grant", "grant-username": "co",
                                                       "grant-role": "organiser"}).status_code == 403
    assert co.post(url("console_people", event.slug), {"action": "invite", "invite-role": "organiser",
                                                       "invite-days": "7"}).status_code == 403
    assert TournamentRole.objects.get(user=keeper).role == "scorekeeper"
    assert TournamentRole.objects.get(tournament=event, user__username="co").role == "co_organiser"
    assert not Invitation.objects.exists()


def test_someone_with_no_role_is_refused_the_people_page(event):
    stranger = signed_in(User.objects.create_user("stranger", password="x"))
    assert stranger.get(url("console_people", event.slug)).status_code == 403
    assert Client().get(url("console_people", event.slug)).status_code == 302


def test_the_organiser_gives_and_takes_roles(owner_client, owner, event):
    User.objects.create_user("helper", password="x")
    page = owner_client.get(url("console_people", event.slug)).content.decode()
    assert "the only organiser" in page
    unknown = owner_client.post(url("console_people", event.slug), {"action": "grant", "grant-username": "nobody",
                                                                    "grant-role": "scorekeeper"})
    assert unknown.status_code == 400
    assert 'id="id_grant-username_error">There is no account with this username' in unknown.content.decode()
    given = owner_client.post(url("console_people", event.slug), {"action": "grant", "grant-username": "Helper",
                                                                  "grant-role": "scorekeeper"}, follow=True)
    assert "helper is now scorekeeper of Couva Open" in given.content.decode()
    helper = User.objects.get(username="helper")
    demote = owner_client.post(url("console_people", event.slug), {"action": "grant", "grant-username": "owner",
                                                                   "grant-role": "scorekeeper"})
    assert demote.status_code == 400 and "needs an organiser" in demote.content.decode()
    last = owner_client.post(url("console_people", event.slug), {"action": "revoke_role", "user": owner.pk}, follow=True)
    assert "needs an organiser" in last.content.decode()
    taken = owner_client.post(url("console_people", event.slug), {"action": "revoke_role", "user": helper.pk},
                              follow=True)
    assert "helper no longer has a role" in taken.content.decode()
    assert not TournamentRole.objects.filter(user=helper).exists()
    assert owner_client.post(url("console_people", event.slug), {"action": "revoke_role",
                                                                 "user": "9" * 30}).status_code == 404
    assert owner_client.post(url("console_people", event.slug), {"action": "dance"}).status_code == 302


def test_withdrawing_an_invitation_on_the_people_page(owner_client, owner, event):
    invitation, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="scorekeeper")
    done = owner_client.post(url("console_people", event.slug), {"action": "revoke_invitation",
                                                                 "invitation": invitation.pk}, follow=True)
    assert "no longer works" in done.content.decode()
    assert Invitation.objects.get(pk=invitation.pk).revoked
    other_event = make_tournament(name="Other Cup")
    foreign, _ = accounts.invitation_create(kind="role", by=with_role(other_event, "x", "organiser"),
                                            tournament=other_event, role="scorekeeper")
    assert owner_client.post(url("console_people", event.slug), {"action": "revoke_invitation",
                                                                 "invitation": foreign.pk}).status_code == 403


# ---- password links, reset by e-mail, sign-up ------------------------------------------------------------------


def test_a_password_link_from_the_people_page(owner_client, event):
    keeper = with_role(event, "keeper", "scorekeeper")
    page = owner_client.get(url("console_people", event.slug)).content.decode()
    assert "Make a password link for keeper" in page and "Make a password link for owner" not in page
    made = owner_client.post(url("console_people", event.slug), {"action": "password_link", "user": keeper.pk})
    assert made.status_code == 200
    link = link_in(made)
    guest = Client()
    assert guest.get(link)["Location"] == url("password_link_set")
    form = guest.get(url("password_link_set"))
    assert form.status_code == 200 and "<strong>keeper</strong>" in form.content.decode()
    mismatch = guest.post(url("password_link_set"), {"password1": GOOD_PASSWORD, "password2": "other-thing-9"})
    assert mismatch.status_code == 400 and 'id="id_password2_error"' in mismatch.content.decode()
    weak = guest.post(url("password_link_set"), {"password1": "keeper12", "password2": "keeper12"})
    assert weak.status_code == 400 and 'id="id_password1_error"' in weak.content.decode()
    done = guest.post(url("password_link_set"), {"password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD})
    assert done.status_code == 302 and done["Location"] == url("login")
    assert Client().login(username="keeper", password=GOOD_PASSWORD)
    again = Client()
    again.get(link)
    assert again.get(url("password_link_set")).status_code == 409


def test_password_reset_by_e_mail(event, mailoutbox):
    user = with_role(event, "marcia", "organiser")
    user.email = "marcia@example.org"
    user.save()
    c = Client()
    login_page = c.get(url("login")).content.decode()
    assert url("password_reset") in login_page and url("signup") not in login_page
    assert c.get(url("password_reset")).status_code == 200
    sent = c.post(url("password_reset"), {"email": "marcia@example.org"})
    assert sent.status_code == 302 and sent["Location"] == url("password_reset_done")
    assert "Check your mail" in c.get(url("password_reset_done")).content.decode()
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mailoutbox[0].body).group(1)
    opened = c.get(link)
    assert opened.status_code == 302  # Django swaps the token for set-password in the session
    form = c.get(opened["Location"])
    assert form.status_code == 200 and "Choose a new password" in form.content.decode()
    done = c.post(opened["Location"], {"new_password1": GOOD_PASSWORD, "new_password2": GOOD_PASSWORD})
    assert done.status_code == 302 and done["Location"] == url("password_reset_complete")
    assert "Your password is set" in c.get(done["Location"]).content.decode()
    assert Client().login(username="marcia", password=GOOD_PASSWORD)


def test_changing_ones_own_password(owner_client):
    page = owner_client.get(url("password_change"))
    assert page.status_code == 200 and "Change your password" in page.content.decode()
    done = owner_client.post(url("password_change"), {"old_password": "pw-owner", "new_password1": GOOD_PASSWORD,
                                                      "new_password2": GOOD_PASSWORD})
    assert done.status_code == 302 and done["Location"] == url("password_change_done")


def test_sign_up_is_closed_by_default(client):
    page = client.get(url("signup"))
    assert page.status_code == 403 and "Sign-up is closed" in page.content.decode()
    assert client.post(url("signup"), {"username": "solo", "password1": GOOD_PASSWORD,
                                       "password2": GOOD_PASSWORD}).status_code == 403
    assert not User.objects.filter(username="solo").exists()


@override_settings(HANGJACK_ALLOW_SIGNUP=True)
def test_sign_up_when_the_server_allows_it(client):
    assert url("signup") in client.get(url("login")).content.decode()
    bad = client.post(url("signup"), {"username": "solo", "password1": "123", "password2": "123"})
    assert bad.status_code == 400 and 'id="id_password1_error"' in bad.content.decode()
    done = client.post(url("signup"), {"username": "solo", "email": "solo@example.org", "password1": GOOD_PASSWORD,
                                       "password2": GOOD_PASSWORD})
    assert done.status_code == 302 and done["Location"] == url("console")
    index = client.get(url("console")).content.decode()
    assert "Organisers and invitations" in index and "Create your first event" in index


# ---- the Organisers page ---------------------------------------------------------------------------------------


def test_the_organisers_page_needs_may_organise(owner_client, event):
    assert owner_client.get(url("console_organisers")).status_code == 403
    assert "Organisers and invitations" not in owner_client.get(url("console")).content.decode()


def test_inviting_an_organiser_who_signs_up_from_the_link(event):
    staff = User.objects.create_user("boss", password="x", is_staff=True)
    boss = signed_in(staff)
    page = boss.get(url("console_organisers"))
    assert page.status_code == 200 and "No link is waiting" in page.content.decode()
    bad = boss.post(url("console_organisers"), {"action": "invite", "invite-days": "0"})
    assert bad.status_code == 400 and 'id="id_invite-days_error"' in bad.content.decode()
    made = boss.post(url("console_organisers"), {"action": "invite", "invite-days": "7", "invite-email": ""})
    link = link_in(made)
    guest = Client()
    guest.get(link)
    assert "create All Fours events" in guest.get(url("invite")).content.decode()
    guest.post(url("invite"), {"action": "create", "username": "ria", "password1": GOOD_PASSWORD,
                               "password2": GOOD_PASSWORD})
    ria = User.objects.get(username="ria")
    assert ria.has_perm("tournaments.organise_events")
    assert guest.get(url("console_organisers")).status_code == 200
    # staff let an existing account organise, and make password links for anyone (not a superuser)
    plain = User.objects.create_user("plain", password="x")
    unknown = boss.post(url("console_organisers"), {"action": "grant", "grant-username": "nobody"})
    assert unknown.status_code == 400 and 'id="id_grant-username_error"' in unknown.content.decode()
    boss.post(url("console_organisers"), {"action": "grant", "grant-username": "plain"})
    assert User.objects.get(pk=plain.pk).has_perm("tournaments.organise_events")
    reset = boss.post(url("console_organisers"), {"action": "password_link", "reset-username": "ria"})
    assert reset.status_code == 200 and "/accounts/password-link/" in link_in(reset)
    # an organiser (not staff) may not make a password link for someone outside their tournaments
    refused = guest.post(url("console_organisers"), {"action": "password_link", "reset-username": "plain"})
    assert refused.status_code == 403 and 'id="id_reset-username_error"' in refused.content.decode()
    assert guest.post(url("console_organisers"), {"action": "grant", "grant-username": "plain"}).status_code == 403
    invitation = Invitation.objects.filter(kind="organise").first()
    withdrawn = boss.post(url("console_organisers"), {"action": "revoke_invitation", "invitation": invitation.pk},
                          follow=True)
    assert "already used" in withdrawn.content.decode()


def test_the_account_pages_use_the_shared_styles(owner_client, event):
    """The pages are plain HTML on site.css (phone first): no inline styles, the viewport set, every table in
    a scrolling region."""
    for page in (url("console_people", event.slug), url("login"), url("password_reset")):
        text = owner_client.get(page).content.decode()
        assert 'name="viewport" content="width=device-width, initial-scale=1"' in text
        assert "style=" not in text
        assert text.count("<table") == text.count('class="scroll"')


# ---- no link token in a log; the account forms rate-limited --------------------------------------------------


def test_link_tokens_never_reach_a_log():
    import runpy
    from pathlib import Path

    from config.middleware import RedactSecretsFilter

    gunicorn = runpy.run_path(str(Path(__file__).resolve().parents[2] / "docker" / "gunicorn.conf.py"))["redact"]
    token = "x" * 43  # the shape of secrets.token_urlsafe(32); no real-looking secret in the repository
    for redact in (gunicorn, RedactSecretsFilter.redact):
        for line, kept in ((f'"GET /accounts/invite/{token}/ HTTP/1.1"', '"GET /accounts/invite/…/ HTTP/1.1"'),
                           (f"/accounts/password-link/{token}/", "/accounts/password-link/…/"),
                           (f"/accounts/password/reset/MQ/{token[:20]}/", "/accounts/password/reset/MQ/…/"),
                           ("/accounts/password/reset/done/", "/accounts/password/reset/done/"),
                           ("/tablet/pair/7KQ2M9XD4R", "/tablet/pair/…")):
            assert redact(line) == kept, (redact, line)


@pytest.mark.parametrize("path", ["/accounts/signup/", "/accounts/invite/", "/accounts/password-link/",
                                  "/accounts/password/reset/"])
def test_the_account_forms_are_rate_limited(client, path):
    from django.conf import settings
    from django.core.cache import cache

    cache.clear()
    limited = override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"login": "2/min"}},
        MIDDLEWARE=["config.middleware.LoginRateLimitMiddleware", *settings.MIDDLEWARE])
    with limited:
        codes = [client.post(path, {"username": "x"}, REMOTE_ADDR="10.0.0.7").status_code for _ in range(3)]
    assert codes[2] == 429 and 429 not in codes[:2]
    cache.clear()
