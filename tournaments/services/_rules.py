"""Checks the registry services share: the one 4-player rule, the registry's refusal as a service's,
and a model's own field checks (lengths, slugs, choices, uniqueness) as ``ValidationFailed``.

``check_four_players`` is the only place that says a pairs event takes 4-player rule sets
(docs/decisions.md, "Events, entrants and formats"); ``rounds.tournament_rules_resolve`` and
``events.tournament_create/update`` both call it.
"""

from __future__ import annotations

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
    """The model's own field checks (lengths, slugs, choices, uniqueness) as one ``ValidationFailed``;
    ``unique`` on a field is coded ``<field>_taken``."""
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
