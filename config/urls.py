"""URL map: admin, API, public pages, console, tablet."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("web.urls")),  # public pages, /tablet/, /console/, /accounts/ (web/urls.py)
]
