"""The organiser's tally form for correcting a hand: the stored record as fields, and back to a record.

A hand in the tally form (HAND_FORMAT v1) is shown as the fields a chalk sheet has: misdeal, the kicks
(and the kicks of deals thrown in when the pack ran out), the beg, High and Low (side and card), the jack
(not in play, kept, or hanged, with the sides), the counts for game and the penalties. The form checks
shapes only (a count is a whole number, a side is A or B); the engine judges the hand, and its refusal
comes back as ``fields`` keys (``hand.low.card``) that ``field_for_path`` puts next to the field at fault
(Django ties each error to its input with ``aria-describedby`` and ``aria-invalid``).
A card-by-card (play form) record keeps a JSON editor.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django import forms

SIDE_CHOICES = [("0", "A"), ("1", "B")]
BEG_CHOICES = [("", "— (the game ended on the first kick)"), ("stand", "stood"), ("give", "begged: gave one"),
               ("run", "begged: ran the pack")]
JACKS: dict[str, dict[str, int] | None] = {
    "none": None,
    "a": {"held_by": 0, "won_by": 0},
    "b": {"held_by": 1, "won_by": 1},
    "hang_a": {"held_by": 1, "won_by": 0},
    "hang_b": {"held_by": 0, "won_by": 1},
}
PENALTY_KINDS = [("", "—"), ("revoke", "renege"), ("trump_revoke", "renege holding a top-five trump"),
                 ("undertrump", "undertrump")]
#: Penalty rows the form offers at least (one more than a record already has).
PENALTY_ROWS = 3
#: Record keys the tally form shows; a record with any other key is edited as JSON.
TALLY_KEYS = {"dealer", "misdeal", "abandoned", "kicks", "beg", "high", "low", "jack", "game", "penalties"}


def _cards(text: str) -> list[str]:
    """``AD, 6S`` or ``AD 6S`` -> ``["AD", "6S"]`` (the engine reads and checks each card)."""
    return [c for c in re.split(r"[\s,]+", text.strip()) if c]


def fits_tally_form(record: Any) -> bool:
    """Whether the tally form can show ``record`` without losing anything (otherwise: the JSON editor)."""
    if not isinstance(record, Mapping) or not set(record) <= TALLY_KEYS:
        return False
    return isinstance(record.get("penalties") or [], list)


def penalty_rows_for(record: Mapping[str, Any]) -> int:
    return max(PENALTY_ROWS, len(record.get("penalties") or []) + 1)


class HandCorrectionForm(forms.Form):
    """One hand's tally fields. ``names`` labels the sides (``{0: "A Ramdeen & Kavita", 1: ...}``)."""

    use_required_attribute = False  # what is required depends on the hand (a misdeal has no counts)

    misdeal = forms.BooleanField(required=False, label="Misdeal (the whole hand: nothing else is recorded)")
    abandoned = forms.CharField(
        required=False, max_length=200, label="Deals thrown in (pack ran out)",
        help_text="The kicks of each deal thrown in, deals separated by /, e.g. “AH 4H 9H”. Usually empty.",
    )
    kicks = forms.CharField(required=False, max_length=100, label="Kicks, in order",
                            help_text="Rank then suit, e.g. “AD 6S” (10 as 10 or T).")
    beg = forms.ChoiceField(required=False, choices=BEG_CHOICES, label="The beggar")
    ended = forms.BooleanField(
        required=False, label="The game ended during the deal (a kick or the gift reached the target)",
        help_text="Nothing after it is scored: High, Low, the jack and the counts are left out.",
    )
    high_side = forms.ChoiceField(required=False, label="High: side")
    high_card = forms.CharField(required=False, max_length=4, label="High: card (optional)")
    low_side = forms.ChoiceField(required=False, label="Low: side")
    low_card = forms.CharField(required=False, max_length=4, label="Low: card (optional)")
    jack = forms.ChoiceField(required=False, label="The jack of trumps")
    game_a = forms.IntegerField(required=False, min_value=0, max_value=80, label="Count for game: A")
    game_b = forms.IntegerField(required=False, min_value=0, max_value=80, label="Count for game: B")

    def __init__(
        self, *args: Any, names: Mapping[int, str] | None = None, penalty_rows: int = PENALTY_ROWS, **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.penalty_count = penalty_rows
        names = names or {0: "A", 1: "B"}
        sides = [(str(s), names.get(s, "AB"[s])) for s in (0, 1)]
        none_dealt = ("", "no trump dealt")
        self.fields["high_side"].choices = [none_dealt, *sides]
        self.fields["low_side"].choices = [none_dealt, *sides]
        a, b = names.get(0, "A"), names.get(1, "B")
        self.fields["jack"].choices = [
            ("none", "not in play (not dealt, or kicked)"),
            ("a", f"kept by {a}"), ("b", f"kept by {b}"),
            ("hang_a", f"hang jack to {a} (caught B's jack)"), ("hang_b", f"hang jack to {b} (caught A's jack)"),
        ]
        self.fields["game_a"].label = f"Count for game: {a}"
        self.fields["game_b"].label = f"Count for game: {b}"
        for i in range(penalty_rows):
            self.fields[f"pen_kind_{i}"] = forms.ChoiceField(required=False, choices=PENALTY_KINDS,
                                                             label=f"Penalty {i + 1}")
            self.fields[f"pen_side_{i}"] = forms.ChoiceField(required=False, choices=[("", "—"), *sides],
                                                             label=f"Penalty {i + 1}: by")
        for name in ("kicks", "abandoned", "high_card", "low_card"):
            self.fields[name].widget.attrs.update(autocomplete="off", spellcheck="false", autocapitalize="characters")
        for name in ("game_a", "game_b"):
            self.fields[name].widget.attrs.update(inputmode="numeric")

    @property
    def penalty_rows(self) -> list[tuple[Any, Any]]:
        return [(self[f"pen_kind_{i}"], self[f"pen_side_{i}"]) for i in range(self.penalty_count)]

    # ---- record <-> fields -------------------------------------------------------------------------
    @staticmethod
    def initial_from(record: Mapping[str, Any]) -> dict[str, Any]:
        """The form's initial values from a stored tally record."""
        if record.get("misdeal"):
            return {"misdeal": True, "jack": "none"}
        initial: dict[str, Any] = {
            "abandoned": " / ".join(" ".join(map(str, d)) for d in record.get("abandoned") or []),
            "kicks": " ".join(map(str, record.get("kicks") or [])),
            "beg": record.get("beg") or "",
            "ended": not any(k in record for k in ("high", "low", "jack", "game")),
        }
        for name in ("high", "low"):
            award = record.get(name)
            initial[f"{name}_side"] = str(award["side"]) if isinstance(award, Mapping) and "side" in award else ""
            initial[f"{name}_card"] = str(award.get("card") or "") if isinstance(award, Mapping) else ""
        jack = record.get("jack")
        initial["jack"] = next((k for k, v in JACKS.items() if v == jack), "none") if jack else "none"
        game = record.get("game")
        if isinstance(game, list) and len(game) == 2:
            initial["game_a"], initial["game_b"] = game
        for i, p in enumerate(record.get("penalties") or []):
            if isinstance(p, Mapping):
                initial[f"pen_kind_{i}"] = p.get("kind", "")
                initial[f"pen_side_{i}"] = str(p.get("side", ""))
        return initial

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("misdeal") or data.get("ended"):
            return data
        for name in ("game_a", "game_b"):
            if data.get(name) is None and name not in self.errors:
                self.add_error(name, "Enter the card points this side counted (0 if none).")
        for i in range(self.penalty_count):
            kind, side = data.get(f"pen_kind_{i}"), data.get(f"pen_side_{i}")
            if bool(kind) != bool(side):
                self.add_error(f"pen_kind_{i}", "Give both the offence and the side that committed it.")
        return data

    def record(self, dealer: int) -> dict[str, Any]:
        """The hand record (HAND_FORMAT v1, tally form) for a hand dealt by ``dealer``. Call after is_valid()."""
        data = self.cleaned_data
        if data.get("misdeal"):
            return {"dealer": dealer, "misdeal": True}
        record: dict[str, Any] = {"dealer": dealer}
        abandoned = [_cards(deal) for deal in (data.get("abandoned") or "").split("/") if deal.strip()]
        if abandoned:
            record["abandoned"] = abandoned
        record["kicks"] = _cards(data.get("kicks") or "")
        if data.get("beg"):
            record["beg"] = data["beg"]
        if data.get("ended"):
            return record
        for name in ("high", "low"):
            side = data.get(f"{name}_side")
            if side in ("", None):
                record[name] = None
            else:
                award: dict[str, Any] = {"side": int(side)}
                card = (data.get(f"{name}_card") or "").strip()
                if card:
                    award["card"] = card
                record[name] = award
        record["jack"] = JACKS.get(data.get("jack") or "none")
        record["game"] = [data["game_a"], data["game_b"]]
        penalties = [
            {"kind": data[f"pen_kind_{i}"], "side": int(data[f"pen_side_{i}"])}
            for i in range(self.penalty_count) if data.get(f"pen_kind_{i}") and data.get(f"pen_side_{i}")
        ]
        if penalties:
            record["penalties"] = penalties
        return record

    # ---- the engine's refusal next to the field -------------------------------------------------------
    def add_refusal(self, fields: Mapping[str, str] | None) -> list[str]:
        """Put each of the refusal's ``fields`` next to its form field; returns the paths no field matched
        (the page shows those with the refusal's sentence)."""
        unplaced = []
        for path, text in (fields or {}).items():
            name = field_for_path(path)
            if name is not None and name in self.fields:
                if name not in self.errors:
                    self.add_error(name, text)
            else:
                unplaced.append(path)
        return unplaced


_PATH = re.compile(r"^hand(?:\.(?P<field>[a-z_]+))?(?:\[(?P<index>\d+)\])?(?:\.(?P<sub>[a-z_]+))?")


def field_for_path(path: str) -> str | None:
    """The form field an engine error's path names: ``hand.low.card`` -> ``low_card``, ``hand.game[1]`` ->
    ``game_b``, ``hand.penalties[0].side`` -> ``pen_kind_0``; None for the whole hand or the dealer."""
    m = _PATH.match(path or "")
    if not m or not m.group("field"):
        return None
    field, index, sub = m.group("field"), m.group("index"), m.group("sub")
    if field in ("high", "low"):
        return f"{field}_card" if sub == "card" else f"{field}_side"
    if field == "game":
        return "game_b" if index == "1" else "game_a"
    if field == "penalties":
        return f"pen_kind_{index or 0}"
    if field in ("kicks", "abandoned", "beg", "jack", "misdeal"):
        return field
    return None


def record_json(record: Any) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False)


def parse_record_json(text: str) -> tuple[Any, str | None]:
    """The JSON editor's record, or an error sentence."""
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"The corrected hand is not valid JSON: {exc.msg} (line {exc.lineno})."


__all__ = [
    "HandCorrectionForm", "field_for_path", "fits_tally_form", "parse_record_json", "penalty_rows_for", "record_json",
]
