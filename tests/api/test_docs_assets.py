"""The interactive API docs load their assets from our own static files, never a CDN."""

import pytest

pytestmark = pytest.mark.django_db


def test_swagger_ui_is_served_from_the_sidecar_static_files(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert "cdn.jsdelivr.net" not in page and "unpkg.com" not in page
