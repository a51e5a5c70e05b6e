"""The forms of the event wizard (/console/new/) and of an event's settings page: every choice, label,
explanation and bound read from the registry (``tournaments.formats``) and the engine's rule presets
(``scoring``), never a list of our own and never JSON.

Each form's ``settings()`` is what ``services.tournament_create`` / ``tournament_update`` take, in their
keyword names; ``initial_for(tournament)`` fills every form from a stored event (an earlier one to copy, the
one being edited, or an unsaved ``Tournament()``, whose defaults are the registry's). Given a ``context``
(the settings of the steps before it), a form also runs the service's pure check
(``services.tournament_settings_clean``) and shows the registry's refusals at its own fields, so a
bye policy that needs a race target is refused on the ranking step of a games-N event, not after Create.
``step_of`` and each form's ``field_for`` say which step and field a service's error path
(``match_format.n``, ``tiebreaks[2]``, ``rules.target``) belongs to.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import typing
import zoneinfo
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django import forms

from scoring import PRESETS, RuleSet
from tournaments import adapters, formats, services
from tournaments.errors import DomainError
from tournaments.formats.catalogue import catalogue
from tournaments.formats.match import MAX_BOARDS, MAX_GAMES, MAX_TEAM_TARGET
from tournaments.models import Tournament
from tournaments.services.events import MAX_GRACE_MINUTES

STEPS = ("event", "format", "rules", "ranking", "review")
STEP_TITLES = {
    "event": "The event", "format": "Entrants and format", "rules": "Rules", "ranking": "Ranking and byes",
    "review": "Check and create",
}
#: What the step list and the Next button call each step (a phone's width holds five of these).
STEP_SHORT = {"event": "Event", "format": "Format", "rules": "Rules", "ranking": "Ranking", "review": "Check"}


# ---- widgets: radio buttons that carry each choice's explanation ----------------------------------------


class ExplainedRadioSelect(forms.RadioSelect):
    """Radio buttons; each option also carries the registry's sentence (``radio.data.explanation``)."""

    def __init__(self, explanations: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.explanations = dict(explanations or {})

    def create_option(self, name: str, value: Any, label: Any, selected: Any, index: int, subindex: Any = None,
                      attrs: Any = None) -> dict[str, Any]:
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        option["explanation"] = self.explanations.get(str(value), "")
        return option


def _radio(choices: Iterable[tuple[str, str, str]], **kwargs: Any) -> forms.ChoiceField:
    """A required choice as radio buttons from ``(value, label, explanation)``."""
    items = list(choices)
    return forms.ChoiceField(choices=[(v, label) for v, label, _ in items],
                             widget=ExplainedRadioSelect({v: text for v, _, text in items}), **kwargs)


class SetupForm(forms.Form):
    """A section of an event's settings. ``context``: the settings decided before it (the wizard's
    earlier steps); with it, ``clean`` also runs the service's pure check for this form's settings."""

    #: The settings (service keyword names) this form decides.
    SETTINGS: tuple[str, ...] = ()
    #: A service path's first part -> this form's field that shows its refusal.
    ERROR_FIELDS: Mapping[str, str] = {}

    def __init__(self, *args: Any, context: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.context = context
        for field in self.fields.values():
            if isinstance(field, forms.IntegerField | forms.DecimalField):
                field.error_messages.update({"min_value": "At least %(limit_value)s.", "max_value": "At most %(limit_value)s.",
                                             "invalid": "A number, please."})

    def settings(self) -> dict[str, Any]:
        """This form's settings from its cleaned data (call after ``is_valid()``)."""
        return {name: self.cleaned_data[name] for name in self.SETTINGS if name in self.cleaned_data}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.context is not None and not self.errors:
            self.check_with_service({**self.context, **self.settings()})
        return cleaned

    def check_with_service(self, values: Mapping[str, Any]) -> None:
        """The service's pure check of ``values``; refusals at this form's fields are added to it."""
        try:
            services.tournament_settings_clean(values)
        except DomainError as exc:
            add_service_errors(exc, [self], only=self)

    def field_for(self, path: str) -> str | None:
        """This form's field for a service error path, or None."""
        head = path.split(".", 1)[0].split("[", 1)[0]
        if head in self.ERROR_FIELDS:
            return self.ERROR_FIELDS[head]
        return head if head in self.fields else None


def add_service_errors(exc: DomainError, forms: Iterable[SetupForm], *, only: SetupForm | None = None) -> list[str]:
    """Put a service refusal's ``fields`` next to the fields they name, in whichever of ``forms`` holds
    them (``only``: in that one form only); returns the messages no form could place (shown above)."""
    unplaced: list[str] = []
    forms = list(forms)
    for path, message in (exc.fields or {}).items():
        placed = False
        for form in forms:
            field = form.field_for(path)
            if field is not None:
                if form is only or only is None:
                    shown = [m for e in form.errors.as_data().get(field, []) for m in e.messages]
                    if message not in shown:
                        form.add_error(field if field in form.fields else None, message)
                placed = True
                break
        if not placed:
            unplaced.append(message)
    if not exc.fields:
        unplaced.append(exc.message)
    return unplaced


# ---- step 1: the event ------------------------------------------------------------------------------------

#: The time zones of the clubs this serves first (the rest follow, A to Z).
COMMON_ZONES = ("America/Port_of_Spain", "America/Barbados", "America/Guyana", "America/Jamaica",
                "America/New_York", "America/Toronto", "Europe/London")


def time_zone_choices() -> list[Any]:
    others = sorted(z for z in zoneinfo.available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/")))
    return [("Usual", [(z, z.replace("_", " ")) for z in COMMON_ZONES]),
            ("Every time zone", [(z, z.replace("_", " ")) for z in others if z not in COMMON_ZONES])]


def _date_input() -> forms.DateInput:
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class EventForm(SetupForm):
    """Name, dates, venue, time zone; in the wizard also "copy the settings of an earlier event"."""

    SETTINGS = ("name", "starts_on", "ends_on", "venue", "time_zone", "published")

    name = forms.CharField(max_length=200, label="Name of the event",
                           help_text="As players will see it, e.g. Couva Open 2025.")
    starts_on = forms.DateField(label="First day", widget=_date_input())
    ends_on = forms.DateField(label="Last day", required=False, widget=_date_input(),
                              help_text="Leave empty for a one-day event.")
    venue = forms.CharField(max_length=200, required=False, help_text="e.g. Couva Community Centre.")
    time_zone = forms.ChoiceField(label="Time zone", help_text="The clock and the times shown follow the venue's time zone.")
    published = forms.BooleanField(required=False, label="Public pages on",
                                   help_text="Players and spectators can see pairings and standings.")
    copy_from = forms.ChoiceField(required=False, label="Copy the settings of an earlier event",
                                  help_text="Format, rules, tie-breaks and byes start as that event had them; "
                                            "you can change any of them in the next steps.")

    def __init__(self, *args: Any, earlier: Iterable[Tournament] = (), wizard: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = time_zone_choices()
        self.earlier = {str(t.pk): t for t in earlier}
        if wizard and self.earlier:
            self.fields["copy_from"].choices = [("", "— no, start from the usual settings"), *(
                (pk, f"{t.name}{f' ({t.starts_on:%d %b %Y})' if t.starts_on else ''}") for pk, t in self.earlier.items())]
        else:
            del self.fields["copy_from"]
        if wizard:
            del self.fields["published"]  # asked on the last step, with the address

    def copy_source(self) -> Tournament | None:
        """The earlier event chosen to copy (after ``is_valid()``)."""
        return self.earlier.get(self.cleaned_data.get("copy_from") or "")


# ---- step 2: entrants and format ------------------------------------------------------------------------


def _enum_choices(enum: Any) -> list[tuple[str, str, str]]:
    return [(m.value, m.label, m.explanation) for m in enum]


def match_kind_choices() -> list[tuple[str, str, str]]:
    """The board formats an organiser may choose (the registry's ``CHOSEN_MATCH_KINDS``)."""
    return [(k["name"], k["label"], k["explanation"]) for k in catalogue()["match_kinds"]]


def team_kind_choices() -> list[tuple[str, str, str]]:
    return [(k["name"], k["label"], k["explanation"]) for k in catalogue()["team_kinds"]]


CURRENCIES = (("TTD", "TTD · TT dollars"), ("XCD", "XCD · EC dollars"), ("BBD", "BBD · Barbados dollars"),
              ("GYD", "GYD · Guyana dollars"), ("JMD", "JMD · Jamaican dollars"), ("USD", "USD · US dollars"),
              ("CAD", "CAD · Canadian dollars"), ("GBP", "GBP · pounds sterling"), ("EUR", "EUR · euros"))


class FormatForm(SetupForm):
    """Who plays (entrant type), how rounds are drawn, what a board (or a team match) plays, how many
    rounds, the round's time limit, check-in and the entry fee."""

    SETTINGS = ("entrant_type", "pairing_system", "match_format", "team_format", "rounds_planned", "round_minutes",
                "requires_check_in", "entry_fee", "currency", "third_place_match")
    ERROR_FIELDS = {"match_format": "match_n", "team_format": "team_n"}

    entrant_type = _radio(_enum_choices(formats.EntrantType), label="Who plays")
    pairing_system = _radio(_enum_choices(formats.PairingSystem), label="How rounds are drawn")
    match_kind = _radio(match_kind_choices(), label="How a board is won")
    match_n = forms.IntegerField(min_value=1, max_value=MAX_GAMES, label="Number of games (N)",
                                 help_text="First to 2 is the usual tournament board (best of 3).")
    team_boards = forms.IntegerField(min_value=1, max_value=MAX_BOARDS, required=False,
                                     label="Boards (pairs per club) in a team match")
    team_kind = _radio(team_kind_choices(), label="How a team match is won", required=False)
    team_n = forms.IntegerField(min_value=1, max_value=MAX_TEAM_TARGET, required=False, label="N",
                                help_text="Games each board plays, or the bullseyes that win the race.")
    third_place_match = forms.BooleanField(required=False, label="Knockout: play a match for third place")
    rounds_planned = forms.IntegerField(min_value=1, label="Number of rounds",
                                        help_text="You can add rounds later, between rounds.")
    round_minutes = forms.IntegerField(min_value=1, max_value=32767, required=False, label="Time limit per round (minutes)",
                                       help_text="Leave empty for no time limit.")
    requires_check_in = forms.BooleanField(required=False, label="Pairs must check in before each round",
                                           help_text="Only pairs checked in are paired. Otherwise every pair is "
                                                     "paired unless marked absent.")
    entry_fee = forms.DecimalField(min_value=Decimal(0), max_digits=9, decimal_places=2, required=False,
                                   label="Entry fee per pair", help_text="Leave empty if entry is free.")
    currency = forms.ChoiceField(choices=CURRENCIES)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("match_n", "team_boards", "team_n", "rounds_planned", "round_minutes", "entry_fee"):
            self.fields[name].widget.attrs.setdefault("inputmode", "decimal" if name == "entry_fee" else "numeric")
        current = self.initial.get("currency")
        if current and current not in dict(CURRENCIES):
            self.fields["currency"].choices = [*CURRENCIES, (current, current)]

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data.get("match_kind") and data.get("match_n"):
            data["match_format"] = {"kind": data["match_kind"], "n": data["match_n"]}
        teams = data.get("entrant_type") == formats.EntrantType.CLUB_TEAMS.value
        given = [data.get("team_boards"), data.get("team_kind"), data.get("team_n")]
        if teams:
            for name, value in zip(("team_boards", "team_kind", "team_n"), given, strict=True):
                if value in (None, ""):
                    self.add_error(name, "A club-team event needs this.")
            if all(v not in (None, "") for v in given):
                data["team_format"] = {"boards": given[0], "kind": given[1], "n": given[2]}
        else:
            data["team_format"] = None
        data["currency"] = data.get("currency") or "TTD"
        return super().clean()


# ---- step 3: rules ------------------------------------------------------------------------------------------

#: The presets a pairs or club-team event can play (4 players: docs/decisions.md).
def rule_presets() -> dict[str, RuleSet]:
    return {name: rules for name, rules in PRESETS.items() if rules.players == 4}


PRESET_NAMES = {"trinidad": "Trinidad (as at home)", "trinidad-tournament": "Trinidad tournament sheet",
                "tobago": "Tobago", "english": "English All Fours", "seven-up": "Seven Up"}


def _kicks(rules: RuleSet) -> str:
    """``A 1, 6 2, J 3``: as a chalk sheet lists them, fewest points first."""
    kicks = sorted(rules.kick_points, key=lambda rp: (rp[1], -rp[0]))
    return ", ".join(f"{rank.symbol} {points}" for rank, points in kicks) or "none"


def describe_preset(rules: RuleSet) -> str:
    """One line from the preset's own values: what an organiser compares presets by."""
    parts = [f"to {rules.target}", f"Game scores {rules.game_points}", f"hang jack {rules.hang_jack_points}",
             f"kicks {_kicks(rules)}"]
    parts.append("a misdeal passes the deal" if rules.misdeal_passes_deal else "the dealer deals again after a misdeal")
    if rules.renege != "two_tier":
        parts.append(f"a renege: {choice_label('renege', rules.renege).lower()}")
    if rules.discard_to is not None:
        parts.append(f"hands laid away to {rules.discard_to}")
    if not rules.gift_can_win:
        parts.append("a gift cannot win")
    return "Played " + "; ".join(parts) + "."


def preset_label(name: str) -> str:
    return PRESET_NAMES.get(name, name.replace("-", " ").capitalize())


#: The options a real event changes (docs/rules.md section 9), in the groups the form shows.
RULE_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Scoring", ("target", "game_points", "hang_jack_points", "jack_points", "gift_points", "gift_can_win")),
    ("Reneges and misdeals", ("renege", "revoke_points", "revoke_bars_game", "undertrump", "misdeal_points",
                              "misdeal_passes_deal")),
    ("Play", ("follow", "low", "game_tie")),
)
RULE_OPTIONS = tuple(name for _, names in RULE_GROUPS for name in names)

#: Each option's label and help (what a club organiser calls it).
RULE_TEXT: dict[str, tuple[str, str]] = {
    "target": ("Points that win a game", "14 in Trinidad and Tobago."),
    "game_points": ("Points for Game", "Game = 2 on T&T tournament sheets; 1 in a home game."),
    "hang_jack_points": ("Points for hanging the jack", "Jack captured by the opponents: 3 in T&T."),
    "jack_points": ("Points for the jack", "Jack won by its holder's side."),
    "gift_points": ("Points of a gift (“give one”)", "Scored by the beggar's side when the dealer gives."),
    "gift_can_win": ("A gift may end the game", "Untick if a gift never takes a side to the winning score."),
    "renege": ("What a renege costs", ""),
    "revoke_points": ("Points to each opponent for a renege", "For a renege that does not lose the game."),
    "revoke_bars_game": ("A side that reneges cannot score Game", ""),
    "undertrump": ("Undertrumping", "Some T&T sheets forbid it: the offender loses the game."),
    "misdeal_points": ("Points to each opponent of the dealer for a misdeal", ""),
    "misdeal_passes_deal": ("A misdeal passes the deal", "In tournaments the deal passes on; at home the same "
                                                         "dealer deals again."),
    "follow": ("Following suit", ""),
    "low": ("Who scores Low", ""),
    "game_tie": ("Game when the sides tie", ""),
}
#: Each choice of an option with named values (the engine's words): a short label and what it means
#: (docs/rules.md section 9).
CHOICE_TEXT: dict[tuple[str, str], tuple[str, str]] = {
    ("follow", "follow_or_trump"): ("Follow suit or trump", "A player who cannot follow suit may trump or throw off."),
    ("follow", "trump_only"): ("Trump and play anything", "Only a trump lead must be followed; to any other "
                                                          "lead any card may be played."),
    ("undertrump", "allowed"): ("Allowed", "A player may play a lower trump than one already on the trick."),
    ("undertrump", "forbidden"): ("Forbidden", "An illegal undertrump loses the game."),
    ("low", "dealt"): ("The side dealt it", "Low goes to the side dealt the lowest trump in play."),
    ("low", "captured"): ("The side that captures it", "Lancashire: Low goes to the side that wins the lowest trump."),
    ("game_tie", "none"): ("Nobody", "When the sides tie for the most card points, nobody scores Game."),
    ("game_tie", "non_dealer"): ("The side that did not deal", "Seven Up: the tied side that did not deal scores Game."),
    ("renege", "two_tier"): ("Two tiers (Trinidad)", "A renege holding a top-five trump loses the game; any other "
                                                     "gives each opponent the renege points."),
    ("renege", "one_point"): ("Always points", "Every renege gives each opponent the renege points."),
    ("renege", "lose_game"): ("Always loses the game", "Every renege loses the game."),
}


def choice_label(option: str, value: str) -> str:
    return CHOICE_TEXT.get((option, value), (value.replace("_", " ").capitalize(), ""))[0]


def _option_types() -> dict[str, Any]:
    return typing.get_type_hints(RuleSet)


def rule_bounds() -> dict[str, dict[str, Any]]:
    """Each option's bounds (``min``, ``max``) and explanation, as the registry's catalogue lists them."""
    return {o["name"]: o for o in catalogue()["rule_options"]}


def rule_option_field(name: str, bounds: Mapping[str, Any]) -> forms.Field:
    label, help_text = RULE_TEXT.get(name, (name.replace("_", " ").capitalize(), ""))
    spec = bounds.get(name, {})
    kind = _option_types()[name]
    choices = typing.get_args(kind) if typing.get_origin(kind) is typing.Literal else ()
    if kind is bool:
        return forms.BooleanField(required=False, label=label, help_text=help_text)
    if choices:
        return _radio([(c, *CHOICE_TEXT.get((name, c), (c.replace("_", " ").capitalize(), ""))) for c in choices],
                      label=label, help_text=help_text)
    low = spec.get("min", 0)
    high = spec.get("max")
    if help_text and high is not None:
        help_text = f"{help_text} From {low} to {high}."
    elif high is not None:
        help_text = f"From {low} to {high}."
    field = forms.IntegerField(label=label, help_text=help_text, min_value=None, max_value=None)
    # the bounds are the registry's and its refusal is shown at the field; the browser gets them as hints
    field.widget.attrs.update({"min": low, "inputmode": "numeric", **({"max": high} if high is not None else {})})
    return field


class RulesForm(SetupForm):
    """The rule preset and the options an event changes, each a field with its bounds.

    The option fields show the values of the preset named in ``filled_from``; choosing another preset and
    pressing Next shows that preset's values first (``preset_changed``), so an option is never silently
    carried from one preset to another. ``settings()["rules"]`` is the preset's name when no option
    differs from it, else ``{"preset": ..., option: value}`` with the differing options only (plus the
    options of ``extra`` not on the form: those of an event copied, kept when its preset is kept).
    """

    SETTINGS = ("rules",)
    ERROR_FIELDS = {"rules": "preset", "rules_players": "preset"}

    preset = forms.ChoiceField(label="Rules")
    filled_from = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, extra: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        presets = rule_presets()
        self.fields["preset"].choices = [(n, preset_label(n)) for n in presets]
        self.fields["preset"].widget = ExplainedRadioSelect({n: describe_preset(r) for n, r in presets.items()},
                                                            choices=self.fields["preset"].choices)
        bounds = rule_bounds()
        for name in RULE_OPTIONS:
            self.fields[name] = rule_option_field(name, bounds)
        self.extra = dict(extra or {})
        self.groups = [(title, [self[name] for name in names]) for title, names in RULE_GROUPS]

    def field_for(self, path: str) -> str | None:
        parts = path.split(".")
        if parts[0] == "rules" and len(parts) > 1 and parts[1] in self.fields and parts[1] != "filled_from":
            return parts[1]
        return super().field_for(path)

    def preset_changed(self) -> bool:
        """Whether another preset was chosen than the one the options show (after ``is_valid()``)."""
        shown = self.cleaned_data.get("filled_from")
        return bool(shown) and shown != self.cleaned_data.get("preset")

    def data_for_preset(self) -> Any:
        """This form's data with the options of the newly chosen preset (to show it again)."""
        data = self.data.copy()
        preset = self.cleaned_data["preset"]
        for name, value in options_initial(preset).items():
            key = self.add_prefix(name)
            if isinstance(value, bool):
                if value:
                    data[key] = "on"
                else:
                    data.pop(key, None)
            else:
                data[key] = str(value)
        data[self.add_prefix("filled_from")] = preset
        return data

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        preset = data.get("preset")
        if preset and not self.errors:
            data["rules"] = rules_spec(preset, {n: data.get(n) for n in RULE_OPTIONS},
                                       self.extra if self.extra.get("preset") == preset else {})
        return super().clean()


def options_initial(preset: str, spec: Any = None) -> dict[str, Any]:
    """The form's option values for a preset (or for a stored rule set ``spec`` over it)."""
    try:
        rules = RuleSet.from_spec(spec if spec is not None else preset)
    except Exception:  # noqa: BLE001 - a stored spec the engine no longer reads: show the preset's values
        rules = RuleSet.from_spec(preset)
    return {name: getattr(rules, name) for name in RULE_OPTIONS}


def rules_spec(preset: str, options: Mapping[str, Any], extra: Mapping[str, Any]) -> Any:
    """A preset name, or ``{"preset": ..., option: value}`` with only the options that differ from it."""
    base = PRESETS[preset]
    changed = {name: value for name, value in options.items() if value is not None and getattr(base, name) != value}
    kept = {k: v for k, v in extra.items() if k != "preset" and k not in RULE_OPTIONS}
    if not changed and not kept:
        return preset
    return {"preset": preset, **kept, **changed}


def rules_of(tournament: Tournament) -> tuple[str, dict[str, Any]]:
    """A stored event's preset and its rule options (the spec as given, else the resolved options)."""
    spec = tournament.rules
    if isinstance(spec, str) and spec in PRESETS:
        return spec, {}
    if isinstance(spec, Mapping):
        preset = spec.get("preset", "trinidad")
        if preset in PRESETS:
            return preset, dict(spec)
    return adapters.DEFAULT_TOURNAMENT_RULES, {}


# ---- step 4: ranking and byes ----------------------------------------------------------------------------


class OrderedNamesField(forms.Field):
    """The tie-break names, best first, as the page posts them (one hidden input each, in order); the
    registry (``TIE_BREAKS.parse``, through the service) judges them."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[str]:
        if value in (None, ""):
            return []
        return [str(v) for v in (value if isinstance(value, list | tuple) else [value]) if str(v)]


def tie_break_rows(names: Iterable[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The tie-breaks in use (in order, with their place) and the others, each with its label and
    explanation from the registry; a name the registry does not know is listed as it was sent."""
    used = []
    names = list(names)
    for i, name in enumerate(names):
        tb = formats.TIE_BREAKS.get(name) if name in formats.TIE_BREAKS else None
        used.append({"name": name, "place": i + 1, "label": tb.label if tb else name,
                     "explanation": tb.explanation if tb else "Not a tie-break.", "first": i == 0,
                     "last": i == len(names) - 1})
    unused = [{"name": t.name, "label": t.label, "explanation": t.explanation}
              for t in formats.TIE_BREAKS if t.name not in names]
    return used, unused


def move_tie_break(names: list[str], move: str) -> list[str]:
    """``up:NAME``, ``down:NAME``, ``remove:NAME``, ``add:NAME`` applied to the order."""
    action, _, name = move.partition(":")
    names = list(names)
    if action == "add" and name not in names:
        names.append(name)
    elif name in names:
        i = names.index(name)
        if action == "remove":
            names.pop(i)
        elif action == "up" and i > 0:
            names[i - 1], names[i] = names[i], names[i - 1]
        elif action == "down" and i < len(names) - 1:
            names[i + 1], names[i] = names[i], names[i + 1]
    return names


CUSTOM_BYE = "custom"


def bye_choices(custom: Mapping[str, Any] | None) -> list[tuple[str, str, str]]:
    """The registry's bye presets, and this event's own policy when it is none of them."""
    choices = [(name, p.label, p.explanation) for name, p in formats.BYE_PRESETS.items()]
    if custom is not None:
        choices.append((CUSTOM_BYE, "This event's own policy", formats.AwardPolicy.from_dict(custom).describe()))
    return choices


CUSTOM_FORFEIT = "custom"


def forfeit_choices(custom: Mapping[str, Any] | None) -> list[tuple[str, str, str]]:
    """The registry's forfeit presets, and this event's own policy when it is none of them."""
    choices = [(name, p.label, p.explanation) for name, p in formats.FORFEIT_PRESETS.items()]
    if custom is not None:
        choices.append((CUSTOM_FORFEIT, "This event's own policy",
                        formats.describe_forfeit(formats.forfeit_policy(custom))))
    return choices


def forfeit_preset_of(policy: formats.AwardPolicy) -> str | None:
    return policy.preset_in(formats.FORFEIT_PRESETS)


class RankingForm(SetupForm):
    """Tie-breaks chosen and ordered from the registry's full list, the bye and forfeit policies, the grace
    time before a no-show is forfeited, whether a late entry may take a bye, club avoidance and what closing
    a round does to an unfinished game."""

    SETTINGS = ("tiebreaks", "bye_policy", "forfeit_policy", "grace_minutes", "late_entry_bye", "club_avoidance",
                "time_called")

    tiebreaks = OrderedNamesField(label="Tie-breaks, in order", required=False)
    bye_policy = forms.ChoiceField(label="What a bye gives")
    forfeit_policy = forms.ChoiceField(label="What a forfeit gives", required=False,
                                       help_text="A pair that does not come, or withdraws during play, forfeits "
                                                 "its board: the pair present wins it.")
    grace_minutes = forms.IntegerField(
        min_value=0, max_value=MAX_GRACE_MINUTES, required=False, label="Grace time for a late pair (minutes)",
        help_text="After a round is published, how long to wait for a pair that has not come before its board "
                  "may be forfeited. 0: at once.")
    late_entry_bye = forms.BooleanField(
        required=False, label="A pair entered late may take the bye in its first round",
        help_text="Off (the usual): the bye of the round a late pair joins goes to another pair.")
    club_avoidance = _radio(_enum_choices(formats.ClubAvoidance), label="Pairs of the same club (Swiss)")
    time_called = _radio(_enum_choices(formats.TimeCalled), label="When time is called on a round")

    def __init__(self, *args: Any, custom_bye: Mapping[str, Any] | None = None,
                 custom_forfeit: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.custom_bye = custom_bye
        self.custom_forfeit = custom_forfeit
        choices = bye_choices(custom_bye)
        self.fields["bye_policy"].choices = [(v, label) for v, label, _ in choices]
        self.fields["bye_policy"].widget = ExplainedRadioSelect({v: t for v, _, t in choices},
                                                                choices=self.fields["bye_policy"].choices)
        choices = forfeit_choices(custom_forfeit)
        self.fields["forfeit_policy"].choices = [(v, label) for v, label, _ in choices]
        self.fields["forfeit_policy"].widget = ExplainedRadioSelect({v: t for v, _, t in choices},
                                                                    choices=self.fields["forfeit_policy"].choices)
        self.fields["grace_minutes"].widget.attrs.setdefault("inputmode", "numeric")

    def settings(self) -> dict[str, Any]:
        """As ``SetupForm.settings``; a forfeit policy or grace time left empty is not a setting (the event
        keeps its own, a new event the registry's default)."""
        out = super().settings()
        for name in ("forfeit_policy", "grace_minutes"):
            if out.get(name) in (None, ""):
                out.pop(name, None)
        return out

    def tie_break_names(self) -> list[str]:
        if self.is_bound:
            return self.fields["tiebreaks"].to_python(self["tiebreaks"].value())
        return list(self.initial.get("tiebreaks") or [])

    def rows(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return tie_break_rows(self.tie_break_names())

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data.get("bye_policy") == CUSTOM_BYE and self.custom_bye is not None:
            data["bye_policy"] = dict(self.custom_bye)
        if data.get("forfeit_policy") == CUSTOM_FORFEIT and self.custom_forfeit is not None:
            data["forfeit_policy"] = dict(self.custom_forfeit)
        if data.get("club_avoidance"):
            data["club_avoidance"] = formats.ClubAvoidance(data["club_avoidance"]).level
        return super().clean()


# ---- step 5: check and create -------------------------------------------------------------------------------


class ReviewForm(SetupForm):
    """The address (from the name, unique; editable) and whether the public pages are on at once."""

    SETTINGS = ("slug", "published")

    slug = forms.SlugField(max_length=80, label="Web address of the event",
                           help_text="Letters, digits and hyphens only.")
    published = forms.BooleanField(required=False, label="Public pages on now",
                                   help_text="Leave it off while you enter pairs; turn it on in Settings later.")

    def check_with_service(self, values: Mapping[str, Any]) -> None:
        return  # the address is checked when the event is created (it may be taken meanwhile)


# ---- the settings as each form's initial values -----------------------------------------------------------


def initial_for(tournament: Tournament) -> dict[str, dict[str, Any]]:
    """Every form's initial values from a stored event (or an unsaved ``Tournament()``: the defaults)."""
    board = formats.MatchFormat.from_dict(tournament.match_format or formats.DEFAULT_MATCH_FORMAT.to_dict(),
                                          chosen=False)
    team = tournament.team_format or {}
    preset, spec = rules_of(tournament)
    try:
        policy = formats.AwardPolicy.from_dict(tournament.bye_policy)
    except formats.FormatError:
        policy = formats.DEFAULT_BYE_POLICY
    try:
        forfeit = formats.forfeit_policy(tournament.forfeit_policy)
    except formats.FormatError:
        forfeit = formats.DEFAULT_FORFEIT_POLICY
    level = tournament.club_avoidance if tournament.club_avoidance is not None else formats.DEFAULT_CLUB_AVOIDANCE.level
    return {
        "event": {"name": tournament.name, "starts_on": tournament.starts_on, "ends_on": tournament.ends_on,
                  "venue": tournament.venue, "time_zone": tournament.time_zone, "published": tournament.published},
        "format": {
            "entrant_type": tournament.entrant_type, "pairing_system": tournament.pairing_system,
            "match_kind": board.kind.value if board.kind in formats.CHOSEN_MATCH_KINDS else None,
            "match_n": board.n, "team_boards": team.get("boards"), "team_kind": team.get("kind"),
            "team_n": team.get("n"), "rounds_planned": tournament.rounds_planned,
            "round_minutes": tournament.round_minutes, "requires_check_in": tournament.requires_check_in,
            "entry_fee": tournament.entry_fee, "currency": tournament.currency,
            "third_place_match": tournament.third_place_match,
        },
        "rules": {"preset": preset, "filled_from": preset, **options_initial(preset, spec or None)},
        "ranking": {"tiebreaks": list(tournament.tiebreaks or formats.DEFAULT_TIE_BREAKS),
                    "bye_policy": policy.preset or CUSTOM_BYE,
                    "forfeit_policy": forfeit_preset_of(forfeit) or CUSTOM_FORFEIT,
                    "grace_minutes": tournament.grace_minutes, "late_entry_bye": tournament.late_entry_bye,
                    "club_avoidance": formats.ClubAvoidance.of_level(level).value,
                    "time_called": tournament.time_called},
        "review": {"slug": tournament.slug, "published": tournament.published},
    }


def custom_bye_of(tournament: Tournament | None) -> dict[str, Any] | None:
    """The event's bye policy when it is none of the presets (offered as "this event's own policy")."""
    if tournament is None:
        return None
    try:
        policy = formats.AwardPolicy.from_dict(tournament.bye_policy)
    except formats.FormatError:
        return None
    return None if policy.preset else policy.to_dict()


def custom_forfeit_of(tournament: Tournament | None) -> dict[str, Any] | None:
    """The event's forfeit policy when it is none of the presets (offered as "this event's own policy")."""
    if tournament is None:
        return None
    try:
        policy = formats.forfeit_policy(tournament.forfeit_policy)
    except formats.FormatError:
        return None
    return None if forfeit_preset_of(policy) else policy.to_dict()


def extra_rules_of(tournament: Tournament | None) -> dict[str, Any]:
    """The rule options of an event's stored spec that the form does not show (kept when copied)."""
    if tournament is None:
        return {}
    preset, spec = rules_of(tournament)
    return {"preset": preset, **{k: v for k, v in spec.items() if k not in RULE_OPTIONS and k != "preset"}}


#: Which step (form) shows a service error's path first part.
STEP_OF = {
    **{name: "event" for name in ("name", "starts_on", "ends_on", "venue", "time_zone")},
    **{name: "format" for name in FormatForm.SETTINGS + ("qualifies_from",)},
    "rules": "rules", "rules_players": "rules",
    **{name: "ranking" for name in RankingForm.SETTINGS},
    "slug": "review", "published": "review",
}


def step_of(path: str) -> str:
    head = path.split(".", 1)[0].split("[", 1)[0]
    return STEP_OF.get(head, "review")


# ---- in words ---------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Line:
    """One setting in words: what it is, its value, a sentence of explanation."""

    label: str
    value: str
    explanation: str = ""
    #: A list shown under the value (the tie-breaks, each with its sentence).
    items: list[tuple[str, str]] = dataclasses.field(default_factory=list)


#: The grace time a new event starts with (the model's default).
GRACE_DEFAULT: int = Tournament._meta.get_field("grace_minutes").default


def _day(day: dt.date, *, weekday: bool = False) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}" if weekday else f"{day.day} {day:%B %Y}"


def describe(settings: Mapping[str, Any]) -> list[tuple[str, str, list[Line]]]:
    """The settings of an event in words, by step: ``(step, title, lines)``."""
    event = []
    name = settings.get("name", "")
    event.append(Line("Name", name))
    starts, ends = settings.get("starts_on"), settings.get("ends_on")
    if starts:
        event.append(Line("When", _day(starts, weekday=True) if not ends or ends == starts
                          else f"{_day(starts)} to {_day(ends)}"))
    event.append(Line("Venue", settings.get("venue") or "not given"))
    event.append(Line("Time zone", str(settings.get("time_zone", "")).replace("_", " ")))

    fmt = []
    entrant = formats.EntrantType(settings.get("entrant_type", formats.DEFAULT_ENTRANT_TYPE.value))
    system = formats.PairingSystem(settings.get("pairing_system", formats.DEFAULT_PAIRING_SYSTEM.value))
    fmt.append(Line("Who plays", entrant.label, entrant.explanation))
    fmt.append(Line("Rounds drawn by", system.label, system.explanation))
    if entrant is formats.EntrantType.CLUB_TEAMS and settings.get("team_format"):
        team = formats.TeamFormat.from_dict(settings["team_format"])
        fmt.append(Line("A team match", team.label, team.explanation))
    else:
        board = formats.MatchFormat.from_dict(settings.get("match_format") or formats.DEFAULT_MATCH_FORMAT.to_dict())
        fmt.append(Line("A board", board.label, board.explanation))
    if system is formats.PairingSystem.KNOCKOUT:
        fmt.append(Line("Third place", "A match for third place" if settings.get("third_place_match")
                        else "No match for third place"))
    rounds = settings.get("rounds_planned")
    if rounds:
        fmt.append(Line("Rounds", f"{rounds} round{'s' if rounds != 1 else ''}"))
    minutes = settings.get("round_minutes")
    fmt.append(Line("Time limit", f"{minutes} minutes a round" if minutes else "No time limit"))
    fmt.append(Line("Check-in", "Pairs check in before each round; only those present are paired"
                    if settings.get("requires_check_in") else "Every pair is paired unless marked absent"))
    fee = settings.get("entry_fee")
    fmt.append(Line("Entry fee", f"{settings.get('currency', 'TTD')} {fee:,.2f} per pair" if fee else "Free entry"))

    rules_lines = []
    spec = settings.get("rules", adapters.DEFAULT_TOURNAMENT_RULES)
    preset = spec if isinstance(spec, str) else spec.get("preset", "trinidad")
    rules_lines.append(Line("Rules", preset_label(preset), describe_preset(PRESETS[preset]) if preset in PRESETS else ""))
    if isinstance(spec, Mapping):
        base = PRESETS.get(preset)
        for option, value in spec.items():
            if option == "preset":
                continue
            label = RULE_TEXT.get(option, (option.replace("_", " ").capitalize(), ""))[0]
            was = getattr(base, option, None) if base else None
            rules_lines.append(Line(f"Changed: {label}", _value_words(option, value),
                                    f"The preset has {_value_words(option, was)}." if base else ""))

    names = list(settings.get("tiebreaks") or formats.DEFAULT_TIE_BREAKS)
    order = [formats.TIE_BREAKS.get(n) for n in names]
    ranking = [Line("Ties broken by", ", then ".join(tb.label for tb in order),
                    items=[(tb.label, tb.explanation) for tb in order])]
    policy = formats.AwardPolicy.from_dict(settings.get("bye_policy"))
    ranking.append(Line("A bye", bye_label(policy), policy.describe()))
    forfeit = formats.forfeit_policy(settings.get("forfeit_policy"))
    ranking.append(Line("A forfeit", forfeit_label(forfeit), formats.describe_forfeit(forfeit)))
    grace = settings.get("grace_minutes", GRACE_DEFAULT)
    ranking.append(Line("Grace time", grace_words(grace),
                        "How long after a round is published a pair that has not come may be forfeited."))
    ranking.append(Line("Late entries", late_entry_words(bool(settings.get("late_entry_bye"))),
                        "A pair entered once play has begun joins the next round not yet drawn."))
    level = settings.get("club_avoidance", formats.DEFAULT_CLUB_AVOIDANCE.level)
    avoid = formats.ClubAvoidance.of_level(level)
    ranking.append(Line("Club-mates", avoid.label, avoid.explanation))
    called = formats.TimeCalled(settings.get("time_called", formats.DEFAULT_TIME_CALLED.value))
    ranking.append(Line("Time called", called.label, called.explanation))
    return [("event", STEP_TITLES["event"], event), ("format", STEP_TITLES["format"], fmt),
            ("rules", STEP_TITLES["rules"], rules_lines), ("ranking", STEP_TITLES["ranking"], ranking)]


def bye_label(policy: formats.AwardPolicy) -> str:
    return formats.BYE_PRESETS[policy.preset].label if policy.preset else "This event's own policy"


def forfeit_label(policy: formats.AwardPolicy) -> str:
    name = forfeit_preset_of(policy)
    return formats.FORFEIT_PRESETS[name].label if name else "This event's own policy"


def grace_words(minutes: Any) -> str:
    if not minutes:
        return "None: a board may be forfeited as soon as the round is published"
    return f"{minutes} minute{'s' if minutes != 1 else ''} after the round is published"


def late_entry_words(bye: bool) -> str:
    return "May take the bye of its first round" if bye else "No bye in its first round"


def _value_words(option: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return choice_label(option, value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return "none" if value is None else str(value)


def setting_words(tournament: Tournament) -> dict[str, str]:
    """Each setting of a stored event as a short phrase (what the settings page shows for a fixed one)."""
    words: dict[str, str] = {}
    lines = {step: {line.label: line for line in found} for step, _, found in describe({
        k: getattr(tournament, k) for k in ("name", "entrant_type", "pairing_system", "match_format", "team_format",
                                            "rules", "tiebreaks", "bye_policy", "forfeit_policy", "grace_minutes",
                                            "late_entry_bye", "club_avoidance", "time_called")})}
    words["entrant_type"] = lines["format"]["Who plays"].value
    words["pairing_system"] = lines["format"]["Rounds drawn by"].value
    words["match_format"] = tournament.board_format().label
    team = tournament.team_format_value()
    words["team_format"] = team.label if team else "None (a pairs event)"
    preset, spec = rules_of(tournament)
    changed = len([k for k in spec if k != "preset"])
    words["rules"] = preset_label(preset) + (f", {changed} option{'s' if changed != 1 else ''} changed" if changed else "")
    words["tiebreaks"] = ", then ".join(formats.TIE_BREAKS.get(n).label for n in tournament.tie_break_order())
    words["bye_policy"] = lines["ranking"]["A bye"].value
    words["forfeit_policy"] = lines["ranking"]["A forfeit"].value
    words["grace_minutes"] = lines["ranking"]["Grace time"].value
    words["late_entry_bye"] = lines["ranking"]["Late entries"].value
    words["club_avoidance"] = lines["ranking"]["Club-mates"].value
    words["time_called"] = lines["ranking"]["Time called"].value
    words["rounds_planned"] = str(tournament.rounds_planned)
    words["round_minutes"] = f"{tournament.round_minutes} minutes" if tournament.round_minutes else "No time limit"
    words["third_place_match"] = "Yes" if tournament.third_place_match else "No"
    words["requires_check_in"] = ("Pairs check in before each round" if tournament.requires_check_in
                                  else "Every pair is paired unless marked absent")
    return words


def error_list(forms: Iterable[SetupForm]) -> list[dict[str, str]]:
    """Every field's error for a summary above the form, each linking to its field (or its section)."""
    out = []
    for form in forms:
        for name, errors in form.errors.items():
            if name not in form.fields:
                continue
            field = form[name]
            if getattr(form.fields[name], "fixed_reason", None):
                anchor = f"s-{form.prefix}"
            elif name == "tiebreaks":
                anchor = "tiebreaks"
            else:
                anchor = field.auto_id
            for message in errors:
                out.append({"label": str(field.label), "message": str(message), "anchor": anchor})
    return out
