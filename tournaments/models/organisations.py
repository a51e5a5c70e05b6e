"""Who owns the registry: organisations and their members (docs/adr/0010-owners-and-organisations.md).

Every user has a **personal** organisation (``personal_user``; made on demand by
``services.organisation_personal``); a league or a club may have a **shared** one, whose members hold a role
(owner or member). Clubs, players and pairs belong to one organisation; its members (and staff) change them.
The **house** organisation (slug ``house``, shared, no members) holds what nobody else owns: records that
were entered in no tournament when owners came in (migration 0006), and records written without a user
(scripts, fixtures), through the owner fields' default.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

HOUSE_SLUG = "house"
HOUSE_NAME = "House (staff)"


class OrganisationQuerySet(models.QuerySet["Organisation"]):
    def of_user(self, user: Any) -> OrganisationQuerySet:
        """The organisations ``user`` is a member of (none for an anonymous user or None)."""
        if user is None or not getattr(user, "is_authenticated", False) or user.pk is None:
            return self.none()
        return self.filter(memberships__user_id=user.pk)


class Organisation(models.Model):
    class Kind(models.TextChoices):
        PERSONAL = "personal", "Personal"
        SHARED = "shared", "Shared"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.SHARED)
    #: The user whose personal organisation this is (one each); empty for a shared one.
    personal_user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                                         related_name="personal_organisation")
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="tournaments.OrganisationMember",
                                     related_name="organisations", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = OrganisationQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="personal", personal_user__isnull=False) | Q(kind="shared", personal_user__isnull=True)),
                name="organisation_personal_has_its_user",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_house(self) -> bool:
        return self.slug == HOUSE_SLUG


class OrganisationMember(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        MEMBER = "member", "Member"

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organisation_memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["organisation", "user"], name="one_membership_per_user")]

    def __str__(self) -> str:
        return f"{self.user} is {self.get_role_display().lower()} of {self.organisation}"


def house_organisation_id() -> int:
    """The house organisation's id (made when first needed): the owner fields' default."""
    house = Organisation.objects.filter(slug=HOUSE_SLUG).values_list("pk", flat=True).first()
    if house is None:
        house = Organisation.objects.get_or_create(slug=HOUSE_SLUG, defaults={"name": HOUSE_NAME,
                                                                              "kind": Organisation.Kind.SHARED})[0].pk
    return int(house)
