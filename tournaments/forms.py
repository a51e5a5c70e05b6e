"""Form fields for a tournament's settings as the registry's choices (``tournaments.formats``), never raw
JSON: a board's match format, a team format, the tie-break order, bye presets and club avoidance. Used by
the admin and the organiser console; values are checked by the registry services
(``services.events.tournament_settings_clean``)."""

from __future__ import annotations

from typing import Any

from django import forms

from . import formats


class MatchFormatWidget(forms.MultiWidget):
    """A board's format as a kind and its N."""

    def __init__(self, kinds: list[tuple[str, str]], attrs: dict[str, Any] | None = None) -> None:
        super().__init__([forms.Select(choices=kinds), forms.NumberInput(attrs={"min": 1, "style": "width:5em"})],
                         attrs)

    def decompress(self, value: Any) -> list[Any]:
        if isinstance(value, dict):
            return [value.get("kind"), value.get("n")]
        return [None, None]


class MatchFormatFormField(forms.MultiValueField):
    """``first_to`` / ``games`` with N, from the registry's ``CHOSEN_MATCH_KINDS``."""

    def __init__(self, **kwargs: Any) -> None:
        kinds = [(k.value, k.label) for k in formats.CHOSEN_MATCH_KINDS]
        fields = (forms.ChoiceField(choices=kinds), forms.IntegerField(min_value=1))
        super().__init__(fields, widget=MatchFormatWidget(kinds), require_all_fields=True, **kwargs)

    def compress(self, data_list: list[Any]) -> dict[str, Any] | None:
        return {"kind": data_list[0], "n": data_list[1]} if data_list else None


class TeamFormatWidget(forms.MultiWidget):
    """A club-team match's boards, kind and N."""

    def __init__(self, kinds: list[tuple[str, str]], attrs: dict[str, Any] | None = None) -> None:
        number = {"min": 1, "style": "width:5em"}
        super().__init__([forms.NumberInput(attrs={**number, "placeholder": "boards"}), forms.Select(choices=kinds),
                          forms.NumberInput(attrs={**number, "placeholder": "N"})], attrs)

    def decompress(self, value: Any) -> list[Any]:
        if isinstance(value, dict):
            return [value.get("boards"), value.get("kind"), value.get("n")]
        return [None, "", None]


class TeamFormatFormField(forms.MultiValueField):
    """K boards decided by ``games`` or ``first_to_total`` N (the registry's ``TeamKind``); blank: none."""

    def __init__(self, **kwargs: Any) -> None:
        kinds = [("", "— (a pairs event)"), *((k.value, k.label) for k in formats.TeamKind)]
        fields = (forms.IntegerField(min_value=1, required=False), forms.ChoiceField(choices=kinds, required=False),
                  forms.IntegerField(min_value=1, required=False))
        super().__init__(fields, widget=TeamFormatWidget(kinds), require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list: list[Any]) -> dict[str, Any] | None:
        if not data_list or all(v in (None, "") for v in data_list):
            return None
        boards, kind, n = data_list
        return {"boards": boards, "kind": kind, "n": n}


class TieBreaksWidget(forms.MultiWidget):
    """One select per position, best first."""

    def __init__(self, count: int, choices: list[tuple[str, str]], attrs: dict[str, Any] | None = None) -> None:
        super().__init__([forms.Select(choices=choices) for _ in range(count)], attrs)

    def decompress(self, value: Any) -> list[Any]:
        names = list(value) if isinstance(value, list | tuple) else []
        return names + [""] * (len(self.widgets) - len(names))


class TieBreaksFormField(forms.MultiValueField):
    """The tie-break order as ordered choices of every registered tie-break (read when the form is made,
    so a tie-break registered at run time is offered); checked by ``TIE_BREAKS.parse``."""

    def __init__(self, **kwargs: Any) -> None:
        choices = [("", "—"), *((t.name, t.label) for t in formats.TIE_BREAKS)]
        count = len(formats.TIE_BREAKS.names())
        fields = tuple(forms.ChoiceField(choices=choices, required=False) for _ in range(count))
        super().__init__(fields, widget=TieBreaksWidget(count, choices), require_all_fields=False, **kwargs)

    def compress(self, data_list: list[Any]) -> list[str]:
        return [name for name in data_list or [] if name]


def bye_choices(current: Any) -> list[tuple[str, str]]:
    choices = [(name, preset.label) for name, preset in formats.BYE_PRESETS.items()]
    try:
        policy = formats.AwardPolicy.from_dict(current) if current is not None else None
    except formats.FormatError:
        policy = None
    if policy is not None and policy.preset is None:
        choices.append(("custom", f"Keep this event's own policy: {policy.describe()}"))
    return choices


def club_avoidance_choices(current: Any) -> list[tuple[int, str]]:
    levels = {c.level: c.label for c in formats.ClubAvoidance}
    if isinstance(current, int) and current not in levels:
        levels[current] = f"{formats.ClubAvoidance.of_level(current).label} (level {current})"
    return sorted(levels.items())


#: A registry error's path (``match_format.kind``, ``tiebreaks[2]``) -> the admin field it belongs to.
def form_field(path: str) -> str:
    return path.split(".", 1)[0].split("[", 1)[0]
