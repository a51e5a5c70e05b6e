"""The archive in the console (docs/archive.md): "Download archive" on an event's page, and "Import an
archive": upload the file, see what would be created (checked as the import checks it, every live hand replayed
by the engine), then import it. Every read and write is one service call (``tournaments.services.archive``).

Between the preview and the import the uploaded file waits in the cache (an hour, keyed by the account and a
random token carried by the preview's form): nothing of it is stored in the database before *Import*.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournaments.errors import DomainError
from tournaments.models import Organisation
from tournaments.services.accounts import may_organise
from tournaments.services.archive import (
    archive_export,
    archive_filename,
    archive_import_summary,
    archive_load,
    archive_preview,
)
from tournaments.services.archive.schema import MAX_ARCHIVE_BYTES
from tournaments.services.organisations import organisation_personal
from web.permissions import organiser_tournament

#: How long an uploaded archive waits for *Import* after its preview (seconds).
PENDING_SECONDS = 3600


class ArchiveUploadForm(forms.Form):
    file = forms.FileField(label="Archive file (.json)", help_text="The file an export gives (Download archive, "
                                                                   "or manage.py archive_export).")
    organisation = forms.TypedChoiceField(label="Clubs, players and pairs go into", coerce=int)

    def __init__(self, *args: Any, organisations: list[Organisation], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["organisation"].choices = [(o.pk, o.name) for o in organisations]


@login_required
@never_cache
def archive_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The event as one archive document, as a file to save (any role on the event)."""
    tournament = organiser_tournament(request.user, slug)
    document = archive_export(tournament=tournament, user=request.user)
    response = HttpResponse(json.dumps(document, ensure_ascii=False), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{archive_filename(tournament)}"'
    return response


def _organisations(user: Any) -> list[Organisation]:
    personal = organisation_personal(user=user)
    shared = [o for o in Organisation.objects.of_user(user).order_by("name", "id") if o.pk != personal.pk]
    return [personal, *shared]


def _key(user: Any, token: str) -> str:
    return f"archive-upload:{user.pk}:{token}"


def _page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    return render(request, "console/archive_import.html", {"max_mb": MAX_ARCHIVE_BYTES // (1024 * 1024), **context},
                  status=status)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def archive_import_page(request: HttpRequest) -> HttpResponse:
    """GET: the upload form. POST a file: the preview (nothing stored). POST ``import`` with the preview's
    token: the import (one transaction), then the new event's console page."""
    if not may_organise(request.user):
        raise PermissionDenied("Importing an archive creates an event: it needs an account that may organise.")
    organisations = _organisations(request.user)
    by_pk = {o.pk: o for o in organisations}
    if request.method == "POST" and request.POST.get("action") == "import":
        token = request.POST.get("token", "")
        raw = cache.get(_key(request.user, token)) if token.isascii() and 0 < len(token) <= 64 else None
        owner = by_pk.get(int(request.POST["organisation"])) if request.POST.get("organisation", "").isdigit() else None
        if raw is None or owner is None:
            messages.error(request, "The uploaded file is no longer waiting (an hour has passed): upload it again.")
            return HttpResponseRedirect(reverse("web:console_archive_import"))
        try:
            tournament, _ = archive_import_summary(document=archive_load(raw), user=request.user, owner=owner)
        except DomainError as exc:
            return _page(request, {"form": ArchiveUploadForm(organisations=organisations), "refusal": exc}, 400)
        cache.delete(_key(request.user, token))
        messages.success(request, f"Imported {tournament.name}: every result was derived again from its hands and "
                                  "matches the archive.")
        return HttpResponseRedirect(reverse("web:console_tournament", args=[tournament.slug]))
    if request.method == "GET":
        return _page(request, {"form": ArchiveUploadForm(organisations=organisations)})
    form = ArchiveUploadForm(request.POST, request.FILES, organisations=organisations)
    if not form.is_valid():
        return _page(request, {"form": form}, 400)
    upload, owner = form.cleaned_data["file"], by_pk[form.cleaned_data["organisation"]]
    if upload.size > MAX_ARCHIVE_BYTES:
        form.add_error("file", f"An archive may be at most {MAX_ARCHIVE_BYTES // (1024 * 1024)} MB.")
        return _page(request, {"form": form}, 400)
    raw = upload.read()
    try:
        preview = archive_preview(document=archive_load(raw), user=request.user, owner=owner)
    except DomainError as exc:
        return _page(request, {"form": form, "refusal": exc}, 400)
    token = secrets.token_urlsafe(16)
    cache.set(_key(request.user, token), raw, PENDING_SECONDS)
    return _page(request, {"form": form, "preview": preview, "token": token, "owner": owner,
                           "filename": upload.name or ""})


__all__ = ["archive_download", "archive_import_page"]
