"""Organisations own the registry (docs/adr/0010-owners-and-organisations.md): every user has a personal one,
made on demand; a shared one (a league, a club) has members, each an owner or a member.

Who may change a club, player or pair is said here once: a member of its owning organisation, or staff
(``require_member``; the system, ``user=None``, too). Refusals: 403 ``not_owner`` (with ``fields`` naming what
was not the caller's), ``not_organisation_owner`` (changing an organisation takes one of its owners); 400
``name_invalid``, ``too_long``, ``required`` (the name), ``personal_organisation`` (a personal organisation
has its one member).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from tournaments.actors import Actor, is_system
from tournaments.models import Organisation, OrganisationMember
from tournaments.models.organisations import HOUSE_SLUG, house_organisation_id

from ._rules import model_clean, unknown_fields
from .audit import audit_record
from .errors import NotAllowed, ValidationFailed

ORGANISATION_FIELDS = ("name",)


def _is_staff(user: Actor) -> bool:
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))


def _signed_in(user: Actor) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False)) and user.pk is not None


def member_organisation_ids(user: Actor) -> set[int]:
    """The ids of the organisations ``user`` is a member of."""
    return set(Organisation.objects.of_user(user).values_list("pk", flat=True))


def is_member(user: Actor, organisation_id: int) -> bool:
    """Whether ``user`` may act for the organisation: a member, staff, or the system (``None``, ``SYSTEM``)."""
    if user is None or is_system(user) or _is_staff(user):
        return True
    if not _signed_in(user):
        return False
    return OrganisationMember.objects.filter(organisation_id=organisation_id, user_id=user.pk).exists()


def require_member(user: Actor, organisation_id: int, *, field: str | None = None, what: str = "This") -> None:
    """403 ``not_owner`` unless ``user`` may act for the organisation (``fields[field]`` when given)."""
    if is_member(user, organisation_id):
        return
    message = f"{what} belongs to another organisation: only its members may change or use it."
    raise NotAllowed("not_owner", message, fields={field: message} if field else None)


def default_owner_id(user: Actor) -> int:
    """Where a new record goes when the caller names no owner: their personal organisation (the house's for
    the system, or a caller who is not signed in)."""
    if _signed_in(user):
        return organisation_personal(user=user).pk
    return house_organisation_id()


def owner_for(user: Actor, owner: Organisation | int | None, *, field: str = "owner") -> int:
    """The owner of a new record: ``owner`` when the caller is a member of it (403 ``not_owner`` otherwise),
    else their personal organisation."""
    if owner is None:
        return default_owner_id(user)
    owner_id = owner if isinstance(owner, int) else owner.pk
    require_member(user, owner_id, field=field, what="That organisation")
    return owner_id


# ---- organisations -------------------------------------------------------------------------------------


def _personal_name(user: Any) -> str:
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return (full.strip() or user.get_username() or f"user {user.pk}")[:120]


def organisation_personal(*, user: Actor) -> Organisation:
    """The personal organisation of ``user`` (a signed-in user), made with its one owner when first asked for."""
    if not _signed_in(user):
        raise ValidationFailed("not_signed_in", "Only a signed-in user has a personal organisation.")
    found = Organisation.objects.filter(personal_user_id=user.pk).first()  # type: ignore[union-attr]
    if found is not None:
        return found
    try:
        with transaction.atomic():
            org = Organisation.objects.create(name=_personal_name(user), slug=f"personal-{user.pk}",  # type: ignore[union-attr]
                                              kind=Organisation.Kind.PERSONAL, personal_user_id=user.pk)  # type: ignore[union-attr]
            OrganisationMember.objects.create(organisation=org, user_id=user.pk,  # type: ignore[union-attr]
                                              role=OrganisationMember.Role.OWNER)
            audit_record(action="organisation.create", obj=org, tournament_id=None, user=user,
                         after={"name": org.name, "kind": org.kind})
    except IntegrityError:  # made at the same moment by another request
        return Organisation.objects.get(personal_user_id=user.pk)  # type: ignore[union-attr]
    return org


def _free_slug(name: str) -> str:
    base = (slugify(name) or "organisation")[:70]
    slug, n = base, 1
    while slug == HOUSE_SLUG or slug.startswith("personal-") or Organisation.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def organisation_create(*, name: str, user: Actor) -> Organisation:
    """A shared organisation named ``name``; ``user`` becomes its first owner."""
    if not _signed_in(user):
        raise NotAllowed("not_signed_in", "Sign in to make an organisation.")
    org = Organisation(name=name, kind=Organisation.Kind.SHARED, slug="pending")
    model_clean(org, exclude=("slug",))
    org.slug = _free_slug(org.name)
    org.save()
    OrganisationMember.objects.create(organisation=org, user_id=user.pk, role=OrganisationMember.Role.OWNER)  # type: ignore[union-attr]
    audit_record(action="organisation.create", obj=org, tournament_id=None, user=user,
                 after={"name": org.name, "kind": org.kind})
    return org


def _require_organisation_owner(user: Actor, org: Organisation) -> None:
    if user is None or _is_staff(user):
        return
    if _signed_in(user) and OrganisationMember.objects.filter(
            organisation=org, user_id=user.pk, role=OrganisationMember.Role.OWNER).exists():  # type: ignore[union-attr]
        return
    raise NotAllowed("not_organisation_owner", "Only an owner of this organisation may change it.")


@transaction.atomic
def organisation_update(*, organisation: Organisation, user: Actor, **changes: Any) -> Organisation:
    """Rename an organisation (its owners, or staff)."""
    unknown_fields(changes, ORGANISATION_FIELDS, "an organisation")
    org = Organisation.objects.select_for_update().get(pk=organisation.pk)
    _require_organisation_owner(user, org)
    before = {"name": org.name}
    for key, value in changes.items():
        setattr(org, key, value)
    model_clean(org)
    org.save()
    audit_record(action="organisation.update", obj=org, tournament_id=None, user=user, before=before,
                 after={"name": org.name})
    return org


@transaction.atomic
def organisation_member_add(*, organisation: Organisation, member: Any, user: Actor,
                            role: str = OrganisationMember.Role.MEMBER) -> OrganisationMember:
    """Make ``member`` a member (or an owner) of a shared organisation; an existing member's role changes."""
    org = Organisation.objects.select_for_update().get(pk=organisation.pk)
    _require_organisation_owner(user, org)
    if org.kind == Organisation.Kind.PERSONAL:
        raise ValidationFailed("personal_organisation", "A personal organisation has its one member.")
    if role not in OrganisationMember.Role.values:
        raise ValidationFailed("invalid_choice", "owner or member", fields={"role": "owner or member"})
    membership, _ = OrganisationMember.objects.update_or_create(organisation=org, user=member,
                                                                defaults={"role": role})
    audit_record(action="organisation.member_add", obj=org, tournament_id=None, user=user,
                 after={"user": member.pk, "role": role})
    return membership
