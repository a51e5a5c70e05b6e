"""The console's registration forms: add a pair, change an entry, upload a list of pairs.

Presentation only: the forms say which fields there are and their widths; every rule (names, seeds, tags,
matching a club by name) is the services' (``tournaments.services.import_preview`` and ``checkin``), whose
refusals the views put on these fields.
"""

from __future__ import annotations

from typing import Any

from django import forms

from tournaments.services.checkin import MAX_TAGS

TAGS_HELP = f"Short names separated by ; for prize lists, like ladies; juniors (at most {MAX_TAGS})."


class PairForm(forms.Form):
    """One pair entered in one go: two players' names, a club (an existing one, or a new one by name)."""

    player_1 = forms.CharField(label="Player 1", max_length=120, widget=forms.TextInput(attrs={"autocomplete": "off"}))
    player_2 = forms.CharField(label="Player 2", max_length=120, widget=forms.TextInput(attrs={"autocomplete": "off"}))
    club = forms.CharField(
        label="Club", max_length=120, required=False,
        help_text="Pick one of your clubs or type a new club's name; leave empty for no club.",
        widget=forms.TextInput(attrs={"list": "club-names", "autocomplete": "off"}),
    )
    seed = forms.IntegerField(label="Seed", min_value=1, max_value=100_000, required=False,
                              help_text="1 is the strongest; leave empty to list the pair last.")
    tags = forms.CharField(label="Tags", max_length=300, required=False, help_text=TAGS_HELP)

    def row(self) -> dict[str, Any]:
        """The pair as one row of the import (``pairs_import_commit`` stores it)."""
        data = self.cleaned_data
        return {"line": 1, "player_1": data["player_1"], "player_2": data["player_2"], "club": data.get("club") or "",
                "seed": "" if data.get("seed") is None else str(data["seed"]), "tags": data.get("tags") or ""}


class EntryForm(forms.Form):
    """An entry's seed, tags and fee; for a withdrawn pair, reinstating it (withdrawing is its own action,
    ``WithdrawForm``, which mends the rounds already drawn)."""

    seed = forms.IntegerField(label="Seed", min_value=1, max_value=100_000, required=False)
    tags = forms.CharField(label="Tags", max_length=300, required=False, help_text=TAGS_HELP)
    byes = forms.CharField(label="Requested byes", max_length=100, required=False,
                           help_text="Rounds the pair asked to sit out, like 2; 4 (a bye board each, no table).")
    fee_paid = forms.BooleanField(label="Entry fee paid", required=False)
    withdrawn = forms.BooleanField(label="Withdrawn (untick to reinstate the pair for the rounds not drawn yet)",
                                   required=False)

    def __init__(self, *args: Any, byes_offered: bool = True, reinstate: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not byes_offered:
            del self.fields["byes"]
        if not reinstate:
            del self.fields["withdrawn"]


class WithdrawForm(forms.Form):
    """The round a pair plays no more from: the round in progress by default, or a later one."""

    from_round = forms.TypedChoiceField(label="Withdraw from round", coerce=int)

    def __init__(self, *args: Any, first: int = 1, last: int = 1, **kwargs: Any) -> None:
        super().__init__(*args, initial={"from_round": first}, **kwargs)
        numbers = range(first, max(first, last) + 1)
        self.fields["from_round"].choices = [(n, f"Round {n}" + (" (now)" if n == first else "")) for n in numbers]
        self.fields["from_round"].help_text = (f"Round {first} is the round in progress, or the next one to draw; "
                                               "choose a later round if the pair plays on until then.")


class ImportForm(forms.Form):
    file = forms.FileField(
        label="CSV or Excel (.xlsx) file",
        help_text="First row: player_1, player_2, club, seed; optional tags and byes columns.",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv,"
                                               "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}),
    )
