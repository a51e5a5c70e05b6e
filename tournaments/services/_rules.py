"""Checks the registry services share: the one 4-player rule, the registry's refusal as a service's,
a model's own field checks (lengths, slugs, choices, uniqueness) as ``ValidationFailed``, and the one
check of a name (``clean_name``: visible text, no control or format characters, stored NFC).

``check_four_players`` is the only place that says a pairs event takes 4-player rule sets
(docs/decisions.md, "Events, entrants and formats"); ``rounds.tournament_rules_resolve`` and
``events.tournament_create/update`` both call it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models

from scoring import RuleSet
from tournaments import adapters
from tournaments.formats import FormatError

from .errors import ValidationFailed

#: Django's check codes as the services name them (``unique`` on ``slug`` -> ``slug_taken``).
_DJANGO_CODES = {"blank": "required", "null": "required", "max_length": "too_long", "invalid": "invalid",
                 "invalid_choice": "invalid_choice", "min_value": "out_of_range", "max_value": "out_of_range"}


#: Unicode categories a name never holds: control (Cc: NUL, escapes, line feeds), format (Cf: zero-width
#: spaces and joiners, bidi embeddings, overrides and isolates, the soft hyphen), surrogates (Cs) and the
#: line and paragraph separators (Zl, Zp).
REFUSED_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: Letters and symbols to Unicode that draw nothing: the Hangul fillers and the blank Braille cell.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Every name a registry write stores, by model (``model_clean`` checks each one that is written).
NAME_FIELDS: dict[str, tuple[str, ...]] = {
    "tournaments.club": ("name", "short_name", "town"),
    "tournaments.player": ("name",),
    "tournaments.pair": ("name",),
    "tournaments.tournament": ("name", "venue"),
    "tournaments.organisation": ("name",),
}


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANK


def clean_name(value: Any, field: str, *, required: bool = False) -> Any:
    """A name as stored: NFC, without outer white space; 400 ``name_invalid`` (``fields[field]``) when it
    holds a control or format character (zero-width, bidi overrides, NUL ...) or, given at all (or
    ``required``), no visible character. A value that is not a string is the caller's to refuse."""
    if not isinstance(value, str):
        return value
    text = unicodedata.normalize("NFC", value)
    refused = sorted({f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in REFUSED_IN_NAMES})
    if refused:
        message = ("A name may not hold invisible, control or text-direction characters "
                   f"({', '.join(refused[:5])}{' ...' if len(refused) > 5 else ''}).")
        raise ValidationFailed("name_invalid", message, fields={field: message})
    text = text.strip()
    if (text or value or required) and not any(_visible(c) for c in text):
        message = "A name needs at least one visible character."
        raise ValidationFailed("name_invalid", message, fields={field: message})
    return text


def clean_names(obj: models.Model, *, exclude: Collection[str] = ()) -> None:
    """Every name of ``obj`` (``NAME_FIELDS``) that is being written, through ``clean_name`` and set back in
    its stored form; a name kept as it is stored is not checked again (stored names are not rewritten)."""
    fields = [f for f in NAME_FIELDS.get(obj._meta.label_lower, ()) if f not in exclude]
    if not fields:
        return
    stored: dict[str, Any] = {}
    if obj.pk is not None and not obj._state.adding:
        stored = type(obj)._default_manager.filter(pk=obj.pk).values(*fields).first() or {}
    errors: dict[str, tuple[str, str]] = {}
    for name in fields:
        value = getattr(obj, name)
        if name in stored and stored[name] == value:
            continue
        try:
            setattr(obj, name, clean_name(value, name))
        except ValidationFailed as exc:
            errors[name] = (exc.code, (exc.fields or {}).get(name, exc.message))
    refuse(errors, "names")


def check_four_players(rules: RuleSet) -> None:
    """Pairs events take 4-player rule sets only: 400 ``rules_players`` on ``rules`` otherwise."""
    if rules.players != 4:
        raise ValidationFailed("rules_players", "Pairs events take 4-player rule sets only.",
                               fields={"rules": "Pairs events take 4-player rule sets only."})


def rules_resolved(spec: Any) -> dict[str, Any]:
    """A tournament's rule set (a preset name or options) checked by the engine and the 4-player rule,
    with every option resolved; the engine's refusal keeps its code and path (``rules.target``)."""
    rules = adapters.rules_from_spec(spec if spec is not None else adapters.DEFAULT_TOURNAMENT_RULES)
    check_four_players(rules)
    return rules.to_dict()


def format_failure(exc: FormatError, *, code: str | None = None) -> ValidationFailed:
    """The registry's refusal as the services' one: same code, message and field path."""
    path = exc.path or "settings"
    return ValidationFailed(code or exc.code, exc.message, fields={path: exc.message})


def refuse(errors: Mapping[str, tuple[str, str]], what: str = "settings") -> None:
    """Raise one ``ValidationFailed`` naming every field at fault (``{path: (code, message)}``), coded by
    the first; nothing when ``errors`` is empty."""
    if not errors:
        return
    (first_path, (code, message)), *rest = errors.items()
    if rest:
        message = f"Some {what} are not valid: {', '.join(errors)}."
    raise ValidationFailed(code, message, fields={path: text for path, (_, text) in errors.items()})


def unknown_fields(given: Collection[str], allowed: Collection[str], what: str) -> None:
    """400 ``unknown_field`` for a key the service does not take (a typo never passes silently)."""
    extra = sorted(set(given) - set(allowed))
    if extra:
        refuse({key: ("unknown_field", f"Not a field of {what}.") for key in extra}, "fields")


def model_clean(obj: models.Model, *, exclude: Collection[str] = ()) -> None:
    """Its names (``clean_names``: 400 ``name_invalid``), then the model's own field checks (lengths, slugs,
    choices, uniqueness) as one ``ValidationFailed``; ``unique`` on a field is coded ``<field>_taken``."""
    clean_names(obj, exclude=exclude)
    try:
        obj.full_clean(exclude=list(exclude), validate_constraints=False)
    except DjangoValidationError as exc:
        errors: dict[str, tuple[str, str]] = {}
        for field, problems in exc.error_dict.items():
            problem = problems[0]
            text = problem.messages[0] if problem.messages else "Not valid."
            if problem.code == "unique":
                code = f"{field}_taken"
            else:
                code = _DJANGO_CODES.get(problem.code or "invalid", problem.code or "invalid")
            errors[field if field != "__all__" else "non_field"] = (code, text)
        refuse(errors, "fields")
