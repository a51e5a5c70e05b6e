"""Path converters shared by every URL map (issue 11 item 10).

``<id:name>`` matches 1 to 18 digits and gives an ``int``: every id the project's routes take (primary
keys, round numbers, table-bound ids) fits a signed 64-bit integer, so an oversized id (``9`` * 20) is a
404 from the resolver, never an OverflowError from SQLite (or an out-of-range error from PostgreSQL) in a
view. Registered once, when this module is imported: ``web/urls.py`` and ``api/urls.py`` import it; the
API's routers use it through ``api.urls.IdRouter``. ``tests/hardening/test_item10_ids_and_sqlite_locks.py``
walks the resolver and fails on any id not taken by this converter.
"""

from __future__ import annotations

from django.urls import register_converter

#: The converter's name in route strings: ``path("boards/<id:board_id>/", ...)``.
ID = "id"
#: The largest id a route accepts: 18 digits, below 2**63 - 1.
MAX_ID = 10**18 - 1


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(int(value))


register_converter(IdConverter, ID)
