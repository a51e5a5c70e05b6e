"""URL map: admin, API, public pages, console, tablet."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),  # the REST API (api/urls.py)
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),  # OpenAPI 3.1
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("web.urls")),  # public pages, /tablet/, /console/, /accounts/ (web/urls.py)
]

# Django's own error pages answer JSON on /api/ paths (the one error shape), HTML elsewhere.
handler400 = "api.errors.bad_request"
handler403 = "api.errors.permission_denied"
handler404 = "api.errors.page_not_found"
handler500 = "api.errors.server_error"
