"""Fields the serializers share.

``NameField``: a name is passed on to the services as typed, and checked there by the one validator
(``tournaments.services._rules.clean_name``: 400 ``name_invalid`` for control, format and invisible-only
names; stored NFC, without outer spaces). DRF's own trimming and its NUL and surrogate checks would answer
for it first with other codes, so this field leaves them out (the length check stays).
"""

from __future__ import annotations

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator


class NameField(serializers.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs["trim_whitespace"] = False
        super().__init__(**kwargs)
        self.validators = [v for v in self.validators
                           if not isinstance(v, ProhibitNullCharactersValidator | ProhibitSurrogateCharactersValidator)]


class NamesAsTyped:
    """A ``ModelSerializer`` mixin: the model fields named in ``name_fields`` become ``NameField``s (with the
    model's length and blank rules)."""

    name_fields: tuple[str, ...] = ()

    def build_standard_field(self, field_name: str, model_field: Any) -> tuple[Any, dict[str, Any]]:
        field_class, kwargs = super().build_standard_field(field_name, model_field)  # type: ignore[misc]
        if field_name in self.name_fields:
            field_class = NameField
        return field_class, kwargs
