"""Forms of the account pages and the console's People and Organisers pages: HTTP input only. Every rule
(who may, which password, which username) is the services' (``tournaments.services.accounts``); a refusal
with ``fields`` is shown next to the field it names (``add_refusal``)."""

from __future__ import annotations

from typing import Any

from django import forms

from tournaments import roles
from tournaments.errors import DomainError
from tournaments.services.accounts import INVITATION_DAYS, MAX_DAYS

ROLE_CHOICES = [(role, roles.ROLE_LABELS[role].capitalize())
                for role in (roles.CO_ORGANISER, roles.SCOREKEEPER, roles.ORGANISER)]
ROLE_HELP = "A scorekeeper checks pairs in and pairs tablets; what each role may do is at the foot of the page."


class RefusalMixin:
    """Put a service's refusal on the form: each ``fields`` entry on its field, the rest as a form error."""

    #: the service's field name -> this form's field
    field_map: dict[str, str] = {}
    #: a refusal without fields that still concerns one field: code -> this form's field
    code_fields: dict[str, str] = {}

    def add_refusal(self, exc: DomainError) -> None:
        form: Any = self
        placed = False
        for path, message in (exc.fields or {}).items():
            name = self.field_map.get(path, path)
            if name in form.fields:
                form.add_error(name, message)
                placed = True
        if not placed and self.code_fields.get(exc.code) in form.fields:
            form.add_error(self.code_fields[exc.code], exc.message)
            placed = True
        if not placed:
            form.add_error(None, exc.message)


class NewPasswordMixin(forms.Form):
    password1 = forms.CharField(label="Password", strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                                help_text="At least 8 characters, not all digits, not a common password.")
    password2 = forms.CharField(label="The password again", strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password1") and data.get("password2") and data["password1"] != data["password2"]:
            self.add_error("password2", "The two passwords differ: type the same one twice.")
        return data


class AccountForm(RefusalMixin, NewPasswordMixin):
    """A new account: from an invitation, or a sign-up."""

    field_map = {"password": "password1"}
    field_order = ["username", "email", "password1", "password2"]

    username = forms.CharField(label="Username", max_length=150,
                               widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
                               help_text="What you sign in with: letters, digits and @ . + - _ only.")
    email = forms.EmailField(label="E-mail (optional)", required=False,
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}),
                             help_text="Only to mail you a new password if you forget it.")


class SetPasswordForm(RefusalMixin, NewPasswordMixin):
    """A new password from a password link."""

    field_map = {"password": "password1"}


class RoleGrantForm(RefusalMixin, forms.Form):
    code_fields = {"user_unknown": "username"}

    username = forms.CharField(label="Their username", max_length=150,
                               widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}))
    role = forms.ChoiceField(label="Role", choices=ROLE_CHOICES, help_text=ROLE_HELP)


class RoleInviteForm(RefusalMixin, forms.Form):
    role = forms.ChoiceField(label="Role", choices=ROLE_CHOICES, help_text=ROLE_HELP)
    email = forms.EmailField(label="Their e-mail (optional)", required=False,
                             help_text="The link is mailed too when the server can send mail.")
    days = forms.IntegerField(label="Valid for (days)", min_value=1, max_value=MAX_DAYS, initial=INVITATION_DAYS)


class OrganiserInviteForm(RefusalMixin, forms.Form):
    email = forms.EmailField(label="Their e-mail (optional)", required=False,
                             help_text="The link is mailed too when the server can send mail.")
    days = forms.IntegerField(label="Valid for (days)", min_value=1, max_value=MAX_DAYS, initial=INVITATION_DAYS)


class UsernameForm(RefusalMixin, forms.Form):
    """An existing account named by its username (a password link; staff: "may organise")."""

    field_map = {"user": "username"}
    code_fields = {"user_unknown": "username", "password_link_not_allowed": "username"}

    username = forms.CharField(label="Their username", max_length=150,
                               widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}))
