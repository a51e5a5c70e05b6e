"""The organiser's form for correcting a card-by-card hand (HAND_FORMAT v1, play form) without JSON.

The fields are what a person reads off the cards: the kicks, the beg, the deals thrown in, the cards
each seat held (the deal's six first, then each run's cards, in the order dealt) and the tricks, one per
line, each in play order from its leader. The console's card picker (static/js/card-picker.js, the
tablet's) fills the same fields by tapping cards; without JavaScript they are typed. The form checks
shapes only; the engine judges the hand and its refusal comes back as ``fields`` keys
(``hand.deal[2][1]``, ``hand.tricks[3]``) that ``play_field_for_path`` puts next to the field at fault.
A record the form cannot show without loss (discards, another number of seats) keeps the JSON editor.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms

from .forms import BEG_CHOICES, _cards

#: Record keys the card form shows; a play record with any other key (discards) is edited as JSON.
PLAY_KEYS = {"dealer", "abandoned", "kicks", "beg", "deal", "runs", "tricks"}
SEATS = 4


def fits_play_form(record: Any) -> bool:
    """Whether the card form can show ``record`` (a four-seat card-by-card hand) without losing anything."""
    if not isinstance(record, Mapping) or not set(record) <= PLAY_KEYS or "tricks" not in record:
        return False
    deal, runs, tricks = record.get("deal"), record.get("runs") or [], record.get("tricks")
    return (isinstance(deal, list) and len(deal) == SEATS and all(isinstance(d, list) for d in deal)
            and isinstance(runs, list) and all(isinstance(r, list) and len(r) == SEATS for r in runs)
            and isinstance(tricks, list) and all(isinstance(t, list) for t in tricks))


def held(record: Mapping[str, Any], seat: int) -> list[str]:
    """Every card ``seat`` held: its six of the deal, then its cards of each run."""
    cards = [str(c) for c in (record.get("deal") or [[]] * SEATS)[seat]]
    for run in record.get("runs") or []:
        cards += [str(c) for c in run[seat]]
    return cards


class PlayCorrectionForm(forms.Form):
    """One card-by-card hand. ``seat_names`` labels the seats (``{0: "Seat 1 · Kenrick (A)", ...}``)."""

    use_required_attribute = False

    kicks = forms.CharField(required=False, max_length=100, label="Kicks, in order",
                            help_text="Rank then suit, e.g. “9H” or “AD 6S 3D” when the pack was run.")
    beg = forms.ChoiceField(required=False, choices=BEG_CHOICES, label="The beggar")
    abandoned = forms.CharField(
        required=False, max_length=200, label="Deals thrown in (pack ran out)",
        help_text="The kicks of each deal thrown in, deals separated by /. Usually empty.",
    )
    tricks = forms.CharField(
        required=False, max_length=1200, label="Tricks, one per line", widget=forms.Textarea(attrs={"rows": 7, "cols": 30}),
        help_text="Each trick's four cards in the order played, starting with its leader (the beggar leads the first).",
    )

    def __init__(self, *args: Any, seat_names: Mapping[int, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = seat_names or {}
        for seat in range(SEATS):
            self.fields[f"held_{seat}"] = forms.CharField(
                required=False, max_length=200, label=f"Cards held: {names.get(seat, f'seat {seat + 1}')}",
            )
        for name in ("kicks", "abandoned", "tricks", *(f"held_{s}" for s in range(SEATS))):
            self.fields[name].widget.attrs.update(autocomplete="off", spellcheck="false", autocapitalize="characters")
        self.fields["held_0"].help_text = "The six cards dealt first, then the cards of each run, in the order dealt."

    @property
    def seats(self) -> list[Any]:
        return [self[f"held_{s}"] for s in range(SEATS)]

    @staticmethod
    def initial_from(record: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "kicks": " ".join(map(str, record.get("kicks") or [])),
            "beg": record.get("beg") or "",
            "abandoned": " / ".join(" ".join(map(str, d)) for d in record.get("abandoned") or []),
            "tricks": "\n".join(" ".join(map(str, t)) for t in record.get("tricks") or []),
        }
        for seat in range(SEATS):
            initial[f"held_{seat}"] = " ".join(held(record, seat))
        return initial

    def record(self, dealer: int) -> dict[str, Any]:
        """The hand record (play form) dealt by ``dealer``. Call after is_valid(). The cards beyond a seat's
        six are split evenly between the runs (one fewer than the kicks); the engine checks every count."""
        data = self.cleaned_data
        record: dict[str, Any] = {"dealer": dealer}
        abandoned = [_cards(deal) for deal in (data.get("abandoned") or "").split("/") if deal.strip()]
        if abandoned:
            record["abandoned"] = abandoned
        record["kicks"] = [c.upper() for c in _cards(data.get("kicks") or "")]
        if data.get("beg"):
            record["beg"] = data["beg"]
        holds = [[c.upper() for c in _cards(data.get(f"held_{s}") or "")] for s in range(SEATS)]
        record["deal"] = [h[:6] for h in holds]
        runs = max(0, len(record["kicks"]) - 1) if data.get("beg") == "run" else 0
        if runs:
            per = [max(0, len(h) - 6) // runs for h in holds]
            record["runs"] = [[h[6 + per[s] * r: 6 + per[s] * (r + 1)] if r < runs - 1 else h[6 + per[s] * r:]
                               for s, h in enumerate(holds)] for r in range(runs)]
        record["tricks"] = [[c.upper() for c in _cards(line)] for line in (data.get("tricks") or "").splitlines()
                            if line.strip()]
        return record

    def add_refusal(self, fields: Mapping[str, str] | None) -> list[str]:
        """Put each of the refusal's ``fields`` next to its form field; returns the paths no field matched."""
        unplaced = []
        for path, text in (fields or {}).items():
            name = play_field_for_path(path)
            if name is not None and name in self.fields:
                if name not in self.errors:
                    self.add_error(name, text)
            else:
                unplaced.append(path)
        return unplaced


_PATH = re.compile(r"^hand\.(?P<field>[a-z_]+)(?:\[(?P<i>\d+)\])?(?:\[(?P<j>\d+)\])?")


def play_field_for_path(path: str) -> str | None:
    """``hand.deal[2][1]`` -> ``held_2``; ``hand.runs[0][3]`` -> ``held_3``; ``hand.tricks[4][1]`` ->
    ``tricks``; kicks, beg, abandoned as named; None for the whole hand or the dealer."""
    m = _PATH.match(path or "")
    if not m:
        return None
    field, i, j = m.group("field"), m.group("i"), m.group("j")
    if field == "deal" and i is not None:
        return f"held_{i}"
    if field == "runs" and j is not None:
        return f"held_{j}"
    if field in ("deal", "runs", "tricks", "kicks", "beg", "abandoned"):
        return {"deal": "held_0", "runs": "held_0"}.get(field, field)
    return None


__all__ = ["PlayCorrectionForm", "fits_play_form", "held", "play_field_for_path"]
