"""Django serves the published files where no proxy does (``make run``): the same files, the same headers.

Last in ``MIDDLEWARE``, so the outer middleware adds the security headers (CSP, Permissions-Policy,
nosniff, Referrer-Policy, X-Frame-Options) exactly as on any page. A GET or HEAD without a query string for
an address with a published file is answered from the file, with Caddy's ETag (modification time in
seconds and size, base 36) and 304s; the gzip beside it goes to clients that accept gzip. Anything else
falls through to the views. Nothing here reads the database.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils.http import http_date

from . import files

PREFIXES = ("/t/", "/api/v1/public/tournaments/", "/clubs/", "/players/")  # the last two: histories
API_CACHE_CONTROL = "public, max-age=10, stale-while-revalidate=30"
PAGE_CACHE_CONTROL = "no-cache"


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


def caddy_etag(stat: os.stat_result) -> str:
    """The ETag Caddy 2.6's file server sends for a file: its mtime in seconds, then its size, base 36."""
    return f'"{_base36(int(stat.st_mtime))}{_base36(stat.st_size)}"'


def published_file(request: HttpRequest) -> tuple[Path, bool] | None:
    """The file to answer this request with (and whether it is the gzip), or None."""
    path = request.path
    if request.method not in ("GET", "HEAD") or request.META.get("QUERY_STRING"):
        return None
    if path != "/" and not path.startswith(PREFIXES):
        return None
    try:
        plain = files.file_for(path)
    except ValueError:
        return None
    if "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", ""):
        packed = plain.with_name(plain.name + files.GZIP_SUFFIX)
        if packed.is_file() and plain.is_file():
            return packed, True
    return (plain, False) if plain.is_file() else None


class PublishedFilesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not getattr(settings, "PUBLISH_SERVE", False):
            return self.get_response(request)
        found = published_file(request)
        if found is None:
            return self.get_response(request)
        path, packed = found
        try:
            with open(path, "rb") as handle:
                stat = os.fstat(handle.fileno())
                body = handle.read()
        except OSError:  # withdrawn between the check and the open
            return self.get_response(request)
        etag = caddy_etag(stat)
        is_api = request.path.startswith("/api/")
        response: HttpResponse
        if etag in [tag.strip() for tag in request.META.get("HTTP_IF_NONE_MATCH", "").split(",")]:
            response = HttpResponseNotModified()
        else:
            response = HttpResponse(body if request.method == "GET" else b"",
                                    content_type="application/json" if is_api else "text/html; charset=utf-8")
            response["Content-Length"] = str(stat.st_size)
            if packed:
                response["Content-Encoding"] = "gzip"
        response["ETag"] = etag
        response["Last-Modified"] = http_date(int(stat.st_mtime))
        response["Cache-Control"] = API_CACHE_CONTROL if is_api else PAGE_CACHE_CONTROL
        response["Vary"] = "Accept-Encoding"
        response["X-Published"] = "1"
        return response
