"""HTTP helpers for the pages: gzip, a content ETag and 304 answers for pages read on weak phone
connections, and the domain's ``NotFound`` answered as a 404.

A live fragment polled every few seconds costs one small 304 when nothing changed. Only public pages
(no CSRF token, no secret in the body) are compressed, so compression leaks nothing (BREACH).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.views.decorators.gzip import gzip_page

from tournaments.errors import NotFound

View = Callable[..., HttpResponseBase]
T = TypeVar("T")


def found(read: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``read(*args, **kwargs)``, a selector's ``NotFound`` raised as Django's 404 (with its sentence)."""
    try:
        return read(*args, **kwargs)
    except NotFound as exc:
        raise Http404(exc.message) from None


def public_page(view: View) -> View:
    """Gzip the page, tag it with a hash of its content, answer 304 when the browser has it already;
    a ``NotFound`` from the reads is the page's 404."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = found(view, request, *args, **kwargs)
        if request.method not in ("GET", "HEAD") or response.status_code != 200 or response.streaming:
            return response
        assert isinstance(response, HttpResponse)
        etag = '"' + hashlib.blake2b(response.content, digest_size=12).hexdigest() + '"'
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        patch_vary_headers(response, ["Accept-Encoding"])
        return get_conditional_response(request, etag=etag, response=response) or response

    return gzip_page(wrapped)
