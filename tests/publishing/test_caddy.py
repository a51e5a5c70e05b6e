"""Caddy (Debian's 2.6) in front of the published files and Django: a published page is served from its file
with Django's security headers and Caddy's ETag; what is not published falls back to Django; published
reads keep answering with Django stopped; Django serves the same files itself under ``make run``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.test import Client

from publishing import files, publish
from publishing.caddy import REPO, Caddy, caddy_binary, free_port
from publishing.middleware import caddy_etag

pytestmark = pytest.mark.django_db(transaction=True)

SECURITY_HEADERS = ("Content-Security-Policy", "Permissions-Policy", "X-Content-Type-Options", "Referrer-Policy",
                    "X-Frame-Options", "Cross-Origin-Opener-Policy")


def test_the_production_caddyfile_is_valid_for_caddy_2_6() -> None:
    binary = caddy_binary()
    assert binary is not None, "Debian's caddy is expected at /usr/bin/caddy"
    assert subprocess.run([binary, "version"], capture_output=True, text=True).stdout.lstrip("v").startswith("2.6")
    env = {**os.environ, "ACME_EMAIL": "ops@example.org", "PUBLISH_ROOT": "/srv/published",
           "XDG_DATA_HOME": "/tmp/hangjack-caddy-validate", "XDG_CONFIG_HOME": "/tmp/hangjack-caddy-validate"}
    done = subprocess.run([binary, "validate", "--config", str(REPO / "docker" / "Caddyfile"), "--adapter",
                           "caddyfile"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Valid configuration" in done.stdout + done.stderr


def test_a_published_page_is_served_by_caddy_and_the_rest_by_django(event: Any, publish_root: Path,
                                                                    live_server: Any) -> None:
    tournament, _round, boards, _entries = event
    slug = tournament.slug
    publish.publish_full(tournament.pk)
    upstream = live_server.url.removeprefix("http://")
    with Caddy(root=publish_root, upstream=upstream) as caddy, httpx.Client(base_url=caddy.url) as http:
        for address in (f"/t/{slug}/standings/", f"/api/v1/public/tournaments/{slug}/standings/",
                        f"/t/{slug}/boards/{boards[0].pk}/"):
            path = files.file_for(address, publish_root)
            served = http.get(address, headers={"Accept-Encoding": "identity"})
            django = httpx.get(live_server.url + address)
            assert served.status_code == 200 and served.content == path.read_bytes() == django.content
            assert served.headers["ETag"] == caddy_etag(path.stat())  # mtime seconds + size, base 36
            for name in SECURITY_HEADERS:
                assert served.headers.get(name) == django.headers.get(name), name
            assert served.headers["Content-Type"].split(";")[0] == django.headers["Content-Type"].split(";")[0]
            assert "Server" not in served.headers
            again = http.get(address, headers={"If-None-Match": served.headers["ETag"], "Accept-Encoding": "identity"})
            assert again.status_code == 304
            packed = http.get(address, headers={"Accept-Encoding": "gzip"})
            assert packed.headers["Content-Encoding"] == "gzip" and packed.content == path.read_bytes()
        assert http.get(f"/t/{slug}/standings/").headers["Cache-Control"] == "no-cache"
        assert http.get(f"/api/v1/public/tournaments/{slug}/standings/").headers["Cache-Control"].startswith("public")
        # not published (a page with a query string; a page never rendered): Django answers, through Caddy
        for address in (f"/t/{slug}/rounds/1/?q=zz", f"/t/{slug}/no-such-page/", "/t/no-such-event/"):
            through = http.get(address)
            direct = httpx.get(live_server.url + address)
            assert through.status_code == direct.status_code and through.content == direct.content, address
        assert not files.file_for(f"/t/{slug}/no-such-page/", publish_root).exists()


def test_published_reads_keep_answering_with_django_stopped(event: Any, publish_root: Path) -> None:
    tournament, _round, _boards, _entries = event
    publish.publish_full(tournament.pk)
    nobody = f"127.0.0.1:{free_port()}"  # Django is down: nothing listens there
    with Caddy(root=publish_root, upstream=nobody) as caddy, httpx.Client(base_url=caddy.url) as http:
        for address in (f"/t/{tournament.slug}/standings/", f"/t/{tournament.slug}/",
                        f"/api/v1/public/tournaments/{tournament.slug}/standings/", "/"):
            assert http.get(address).status_code == 200, address
        assert http.get(f"/t/{tournament.slug}/rounds/1/?q=zz").status_code == 502  # Django's own pages are down


def test_django_serves_the_same_files_under_make_run(event: Any, publish_root: Path, settings: Any,
                                                    django_assert_num_queries: Any) -> None:
    tournament, _round, _boards, _entries = event
    publish.publish_full(tournament.pk)
    settings.PUBLISH_SERVE = True
    client = Client()
    address = f"/t/{tournament.slug}/standings/"
    path = files.file_for(address, publish_root)
    with django_assert_num_queries(0):  # nothing of a spectator's read touches the database
        served = client.get(address)
    assert served["X-Published"] == "1" and served.content == path.read_bytes()
    assert served["ETag"] == caddy_etag(path.stat())
    assert served["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    assert served["X-Frame-Options"] == "DENY"
    assert client.get(address, HTTP_IF_NONE_MATCH=served["ETag"]).status_code == 304
    head = client.head(address)
    assert head.status_code == 200 and head.content == b"" and head["Content-Length"] == str(path.stat().st_size)
    packed = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert "X-Published" not in client.get(address + "?q=1")  # a query string goes to the view


def test_compose_shares_the_published_files_with_caddy() -> None:
    import yaml

    compose = yaml.safe_load((REPO / "docker" / "compose.yml").read_text())
    services = compose["services"]
    assert "published" in compose["volumes"]
    for name in ("worker", "beat", "web"):
        assert "published:/srv/published" in services[name]["volumes"], name
        assert services[name]["environment"]["PUBLISH_ROOT"] == "/srv/published"
    assert "published:/srv/published:ro" in services["caddy"]["volumes"]
    assert "./published.caddy:/etc/caddy/published.caddy:ro" in services["caddy"]["volumes"]
    assert "root {$PUBLISH_ROOT:/srv/published}" in (REPO / "docker" / "published.caddy").read_text()
    schedule = __import__("django.conf").conf.settings.CELERY_BEAT_SCHEDULE
    assert schedule["publish-sweep"]["task"] == "publishing.tasks.sweep"
