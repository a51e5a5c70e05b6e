"""Pagination for every list: ``?limit=`` (at most 200, default 50) and ``?offset=``, both bounded."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

MAX_OFFSET = 2**31 - 1


class Pagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200

    def get_offset(self, request: Request) -> int:
        return min(super().get_offset(request), MAX_OFFSET)
