"""Setting up an event from the console: the event wizard (/console/new/) and an event's settings page
(/console/t/<slug>/settings/).

The wizard (django-formtools, the session keeps each step) asks, in five steps: the event (name, dates,
venue, time zone, and optionally an earlier event whose settings fill the later steps); who plays and
the format; the rules (a preset and the options a real event changes); ranking and byes (tie-breaks
ordered with up and down buttons that need no JavaScript, the bye and forfeit policies, the grace time
before a no-show is forfeited, late entries and the bye, club-mates, time called); then
everything in words, the address, and Create. Every choice is the registry's (``web.setup_forms``); the
one write is ``services.tournament_create``, and its refusals are shown at the step and field they name.

The settings page shows the same sections on one page and saves with ``services.tournament_update``;
what is fixed now (and why) is shown instead of a field, and the service's refusals sit next to the field.
Only users who may organise (the ``tournaments.organise_events`` permission, or staff) open the wizard.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.decorators import method_decorator
from django.utils.html import format_html
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from formtools.wizard.forms import ManagementForm
from formtools.wizard.views import SessionWizardView

from tournaments import formats, selectors, services
from tournaments.errors import DomainError, NotFound
from tournaments.models import Round, Tournament
from tournaments.models.querysets import RoundQuerySet
from tournaments.services import accounts
from tournaments.services import events as event_services
from web import setup_forms as sf
from web.permissions import organiser_tournament

FORMS = [("event", sf.EventForm), ("format", sf.FormatForm), ("rules", sf.RulesForm),
         ("ranking", sf.RankingForm), ("review", sf.ReviewForm)]


def unique_slug(name: str) -> str:
    """An address from the name that no event has yet (``couva-open``, ``couva-open-2``, ...)."""
    base = slugify(name)[:70].strip("-") or "event"
    for n in range(1, 1000):
        candidate = base if n == 1 else f"{base}-{n}"
        try:
            selectors.tournament_by_slug(candidate)
        except NotFound:
            return candidate
    return f"{base}-{len(name)}"


@method_decorator(never_cache, name="dispatch")
class EventWizard(SessionWizardView):
    """/console/new/: five steps to a new event (see the module's docstring)."""

    form_list = FORMS
    template_name = "console/setup/wizard.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not accounts.may_organise(request.user):
            raise PermissionDenied("Creating events needs the organiser's permission: ask staff or an organiser "
                                   "to invite you.")
        return super().dispatch(request, *args, **kwargs)

    # ---- what each step is given -----------------------------------------------------------------------
    def earlier_events(self) -> dict[str, Tournament]:
        if not hasattr(self, "_earlier"):
            self._earlier = {str(t.pk): t for t in selectors.organised_tournaments(self.request.user)}
        return self._earlier

    def valid_form(self, step: str) -> sf.SetupForm | None:
        """The step's form bound to what was stored for it, if that is valid (cached until a step is stored:
        formtools drops every ``_cleaned_data_cache_*`` attribute then)."""
        cache: dict[str, Any] = self.__dict__.setdefault("_cleaned_data_cache_forms", {})
        if step not in cache:
            data = self.storage.get_step_data(step)
            form = self.get_form(step=step, data=data) if data is not None else None
            cache[step] = form if form is not None and form.is_valid() else None
        return cache[step]

    def copy_source(self) -> Tournament | None:
        form = self.valid_form("event")
        return form.copy_source() if isinstance(form, sf.EventForm) else None

    def settings_before(self, step: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for earlier in sf.STEPS[:sf.STEPS.index(step)]:
            form = self.valid_form(earlier)
            if form is not None:
                out.update(form.settings())
        return out

    def get_form_kwargs(self, step: str | None = None) -> dict[str, Any]:
        step = step or self.steps.current
        if step == "event":
            return {"earlier": list(self.earlier_events().values()), "context": {}}
        kwargs: dict[str, Any] = {"context": self.settings_before(step)}
        if step == "rules":
            kwargs["extra"] = sf.extra_rules_of(self.copy_source())
        elif step == "ranking":
            kwargs["custom_bye"] = sf.custom_bye_of(self.copy_source())
            kwargs["custom_forfeit"] = sf.custom_forfeit_of(self.copy_source())
        return kwargs

    def get_form_initial(self, step: str) -> dict[str, Any]:
        if step == "event":
            return sf.initial_for(Tournament())["event"]
        if step == "review":
            name = self.settings_before("review").get("name") or ""
            return {"slug": unique_slug(name), "published": False}
        return sf.initial_for(self.copy_source() or Tournament())[step]

    def process_step(self, form: Any) -> Any:
        if self.steps.current == "event":
            before = self.storage.get_step_data("event")
            if before is not None:
                copied = before.get("event-copy_from", "") != form.data.get("event-copy_from", "")
                renamed = before.get("event-name", "") != form.data.get("event-name", "")
                stored = self.storage.data[self.storage.step_data_key]
                for later in (("format", "rules", "ranking", "review") if copied else ()) + (("review",) if renamed else ()):
                    stored.pop(later, None)
        return super().process_step(form)

    # ---- the buttons that are not Next -----------------------------------------------------------------
    def post(self, *args: Any, **kwargs: Any) -> HttpResponse:
        post = self.request.POST
        management = ManagementForm(post, prefix=self.prefix)
        step = management.cleaned_data["current_step"] if management.is_valid() else None
        if step not in self.get_form_list():
            return super().post(*args, **kwargs)
        goto = post.get("wizard_goto_step")
        if goto and goto in self.get_form_list():
            # Back (or "change" on the last step) keeps what was typed on this step.
            self.storage.set_step_data(step, post)
            return self.render_goto_step(goto)
        self.storage.current_step = step
        if step == "ranking" and post.get("ranking-move"):
            data = post.copy()
            field = sf.OrderedNamesField()
            data.setlist("ranking-tiebreaks", sf.move_tie_break(field.to_python(post.getlist("ranking-tiebreaks")),
                                                                post["ranking-move"]))
            self.storage.set_step_data(step, data)
            return self.render(self.get_form(step=step, data=data))
        if step == "rules":
            form = self.get_form(step=step, data=post)
            if form.is_valid() and form.preset_changed():
                chosen = sf.preset_label(form.cleaned_data["preset"])
                messages.info(self.request, f"The options below now show the {chosen} values. Change any you "
                                            "play differently, then press Next.")
                return self.render(self.get_form(step=step, data=form.data_for_preset()))
        return super().post(*args, **kwargs)

    # ---- the end ---------------------------------------------------------------------------------------
    def render_done(self, form: Any, **kwargs: Any) -> HttpResponse:
        """formtools' own, except that the steps are kept when the service refuses (to show them again)."""
        final: dict[str, Any] = {}
        for step in self.get_form_list():
            form_obj = self.get_form(step=step, data=self.storage.get_step_data(step))
            if not form_obj.is_valid():
                return self.render_revalidation_failure(step, form_obj, **kwargs)
            final[step] = form_obj
        return self.done(list(final.values()), form_dict=final, **kwargs)

    def done(self, form_list: Any, **kwargs: Any) -> HttpResponse:
        values: dict[str, Any] = {}
        for form in form_list:
            values.update(form.settings())
        name, slug = values.pop("name"), values.pop("slug")
        try:
            tournament = services.tournament_create(user=self.request.user, name=name, slug=slug, **values)
        except DomainError as exc:
            return self.show_refusal(exc)
        self.storage.reset()
        messages.success(self.request, next_steps(tournament))
        return HttpResponseRedirect(reverse("web:console_tournament", args=[tournament.slug]))

    def show_refusal(self, exc: DomainError) -> HttpResponse:
        """The service's refusal at the first step (and field) it names."""
        paths = list(exc.fields or {}) or ["non_field"]
        step = min((sf.step_of(p) for p in paths), key=sf.STEPS.index)
        form = self.get_form(step=step, data=self.storage.get_step_data(step))
        form.is_valid()
        relevant = {p: m for p, m in (exc.fields or {}).items() if sf.step_of(p) == step}
        shown = DomainError(exc.code, exc.message, fields=relevant or None)
        for message in sf.add_service_errors(shown, [form]):
            form.add_error(None, message)
        self.storage.current_step = step
        return self.render(form)

    def get_context_data(self, form: Any, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(form=form, **kwargs)
        current = self.steps.current
        index = sf.STEPS.index(current)
        context["step_list"] = [{"name": s, "title": sf.STEP_SHORT[s], "number": i + 1,
                                 "state": "done" if i < index else ("current" if i == index else "todo")}
                                for i, s in enumerate(sf.STEPS)]
        context["step_title"] = sf.STEP_TITLES[current]
        context["next_title"] = sf.STEP_SHORT[sf.STEPS[index + 1]] if index + 1 < len(sf.STEPS) else None
        context["error_list"] = sf.error_list([form])
        context["copy_source"] = self.copy_source()
        if current == "review":
            settings = self.settings_before("review")
            context["summary"] = sf.describe(settings) if settings.get("name") else []
        return context


event_wizard = EventWizard.as_view()


def next_steps(tournament: Tournament) -> str:
    """What a new event's organiser does next, with a link to the entries when the console has them."""
    try:
        entries = reverse("web:console_entries", args=[tournament.slug])
    except NoReverseMatch:
        return (f"{tournament.name} is created. Next: add the pairs, then check them in on the day, then pair and "
                "start round 1.")
    return format_html("{} is created. Next: <a href=\"{}\">add the pairs</a>, then check them in on the day, then "
                       "pair and start round 1.", tournament.name, entries)


# ---- an event's settings, one page ---------------------------------------------------------------------------


SECTIONS = (("event", sf.EventForm), ("format", sf.FormatForm), ("rules", sf.RulesForm), ("ranking", sf.RankingForm))
#: Which form fields show a setting.
FIELDS_OF = {"match_format": ("match_kind", "match_n"), "team_format": ("team_boards", "team_kind", "team_n"),
             "rules": ("preset", "filled_from", *sf.RULE_OPTIONS)}


#: What the page calls each setting that may be fixed now, in the page's order.
SETTING_WORDS = {"entrant_type": "who plays", "pairing_system": "how rounds are drawn",
                 "match_format": "what a board plays", "team_format": "the team match",
                 "rounds_planned": "the number of rounds", "round_minutes": "the time limit",
                 "third_place_match": "the third-place match", "requires_check_in": "check-in",
                 "rules": "the rules", "tiebreaks": "the tie-breaks", "bye_policy": "what a bye gives",
                 "forfeit_policy": "what a forfeit gives", "club_avoidance": "club-mates",
                 "time_called": "time called"}


def fixed_now(tournament: Tournament) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The settings that cannot change now, each with a short reason (shown instead of its field), and the
    reasons in full with the settings they hold (shown above the form). Which settings and when are the
    service's (``FIXED_ONCE_SEATED`` once a round's boards are seated, ``BETWEEN_ROUNDS`` while a round is
    published or in play; docs/decisions.md, "What may change when"), and ``tournament_update`` refuses
    them whatever this page shows."""
    rounds = selectors.tournament_rounds(tournament)
    fixed: dict[str, str] = {}
    reasons: list[tuple[str, str]] = []

    def hold(names: Iterable[str], short: str, long: str) -> None:
        held = [n for n in SETTING_WORDS if n in names and n not in fixed]
        fixed.update({n: short for n in names if n not in fixed})
        if held:
            reasons.append((", ".join(SETTING_WORDS[n] for n in held), long))

    seated = [r for r in rounds if r.status != Round.Status.PENDING]
    if seated:
        hold(event_services.FIXED_ONCE_SEATED, "Fixed: play has begun.",
             f"fixed for good: round {seated[0].number}'s boards are seated, and play goes on under them.")
    live = [r for r in rounds if r.status in RoundQuerySet.LIVE_STATUSES]
    if live:
        state = "in play" if live[0].status == Round.Status.IN_PLAY else "published"
        hold(event_services.BETWEEN_ROUNDS, f"Between rounds only: round {live[0].number} is {state}.",
             f"change between rounds only: round {live[0].number} is {state}; close it first.")
    return fixed, reasons


def _form_data(post: Any, forms_initial: Mapping[str, Mapping[str, Any]], fixed: Mapping[str, str]) -> Any:
    """The posted data; a fixed setting the page showed as text (so did not post) keeps its stored value."""
    data = post.copy()
    for setting in fixed:
        for field in FIELDS_OF.get(setting, (setting,)):
            for step, initial in forms_initial.items():
                if field in initial and f"{step}-{field}" not in post:
                    value = initial[field]
                    if isinstance(value, bool):
                        if value:
                            data[f"{step}-{field}"] = "on"
                    elif isinstance(value, list | tuple):
                        data.setlist(f"{step}-{field}", [str(v) for v in value])
                    elif value is not None:
                        data[f"{step}-{field}"] = str(value)
    return data


def _section_forms(tournament: Tournament, data: Any, fixed: Mapping[str, str]) -> dict[str, sf.SetupForm]:
    initial = sf.initial_for(tournament)
    out: dict[str, sf.SetupForm] = {}
    for step, form_class in SECTIONS:
        kwargs: dict[str, Any] = {"prefix": step, "initial": initial[step]}
        if step == "event":
            kwargs["wizard"] = False
        elif step == "rules":
            kwargs["extra"] = sf.extra_rules_of(tournament)
        elif step == "ranking":
            kwargs["custom_bye"] = sf.custom_bye_of(tournament)
            kwargs["custom_forfeit"] = sf.custom_forfeit_of(tournament)
        form = form_class(data, **kwargs)
        for setting, reason in fixed.items():
            for name in FIELDS_OF.get(setting, (setting,)):
                if name in form.fields:
                    form.fields[name].fixed_reason = reason  # type: ignore[attr-defined]
        out[step] = form
    return out


def _same(tournament: Tournament, key: str, value: Any) -> bool:
    """Whether ``value`` is what the event stores for ``key`` (compared as the registry reads both)."""
    stored = getattr(tournament, key)
    if key == "bye_policy":
        try:
            return formats.AwardPolicy.from_dict(stored) == formats.AwardPolicy.from_dict(value)
        except formats.FormatError:
            return False
    if key == "forfeit_policy":
        try:
            return formats.forfeit_policy(stored) == formats.forfeit_policy(value)
        except formats.FormatError:
            return False
    if key == "rules":
        preset, spec = sf.rules_of(tournament)
        given = (value, {}) if isinstance(value, str) else (value.get("preset"), dict(value))
        return (preset, spec) == given
    if key == "club_avoidance":
        return formats.ClubAvoidance.of_level(stored).level == value
    return bool(stored == value)


def _changes(tournament: Tournament, forms: Mapping[str, sf.SetupForm]) -> dict[str, Any]:
    """The settings the forms change."""
    return {key: value for form in forms.values() for key, value in form.settings().items()
            if not _same(tournament, key, value)}


@login_required
@never_cache
def settings_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug, "manage")
    fixed, reasons = fixed_now(tournament)
    initial = sf.initial_for(tournament)
    data = _form_data(request.POST, initial, fixed) if request.method == "POST" else None
    forms = _section_forms(tournament, data, fixed)
    refusals: list[str] = []
    if request.method == "POST":
        rules = forms["rules"]
        if request.POST.get("ranking-move"):
            moved = data.copy()
            names = sf.OrderedNamesField().to_python(request.POST.getlist("ranking-tiebreaks"))
            moved.setlist("ranking-tiebreaks", sf.move_tie_break(names, request.POST["ranking-move"]))
            forms = _section_forms(tournament, moved, fixed)
            return _render_settings(request, tournament, forms, fixed, reasons, refusals)
        if all([f.is_valid() for f in forms.values()]):  # every section checked, so every error shows
            if rules.preset_changed() and "rules" not in fixed:
                messages.info(request, f"The rule options now show the {sf.preset_label(rules.cleaned_data['preset'])} "
                                       "values. Check them, then save.")
                forms = _section_forms(tournament, rules.data_for_preset(), fixed)
                return _render_settings(request, tournament, forms, fixed, reasons, refusals)
            changes = _changes(tournament, forms)
            if not changes:
                messages.info(request, "Nothing was changed.")
                return HttpResponseRedirect(reverse("web:console_settings", args=[slug]))
            try:
                services.tournament_update(tournament=tournament, user=request.user, **changes)
            except DomainError as exc:
                refusals = sf.add_service_errors(exc, forms.values())
            else:
                messages.success(request, "Settings saved.")
                return HttpResponseRedirect(reverse("web:console_settings", args=[slug]))
    return _render_settings(request, tournament, forms, fixed, reasons, refusals)


def _render_settings(request: HttpRequest, tournament: Tournament, forms: Mapping[str, sf.SetupForm],
                     fixed: Mapping[str, str], reasons: list[tuple[str, str]], refusals: list[str]) -> HttpResponse:
    summary = {step: lines for step, _, lines in sf.describe(_stored_settings(tournament))}
    return render(request, "console/settings.html", {
        "tournament": tournament, "cnav": "settings", "forms": forms, "fixed": fixed, "reasons": reasons,
        "refusals": refusals, "summary": summary, "words": sf.setting_words(tournament),
        "error_list": sf.error_list(forms.values()),
    })


def _stored_settings(tournament: Tournament) -> dict[str, Any]:
    keys = ("name", "starts_on", "ends_on", "venue", "time_zone", "entrant_type", "pairing_system", "match_format",
            "team_format", "rounds_planned", "round_minutes", "requires_check_in", "entry_fee", "currency",
            "third_place_match", "rules", "tiebreaks", "bye_policy", "forfeit_policy", "grace_minutes",
            "late_entry_bye", "club_avoidance", "time_called")
    return {k: getattr(tournament, k) for k in keys}
