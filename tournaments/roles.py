"""Who may do what on one tournament: the role policy (docs/decisions.md, "Accounts and roles").

Pure data, no Django: an action name maps to the roles that may do it. The services check it
(``services._common.require_role``), the console shows or hides its buttons with it
(``web.permissions``), the API refuses with it (``api.permissions``); none of them keeps its own list.

| action              | organiser | co-organiser | scorekeeper | what it covers                                   |
|---------------------|-----------|--------------|-------------|--------------------------------------------------|
| ``read``            | yes       | yes          | yes         | the console's pages, the organiser API's reads   |
| ``check_in``        | yes       | yes          | yes         | present / absent, entry fee paid                 |
| ``pair_tablets``    | yes       | yes          | yes         | pairing codes, revoking a table's tablet         |
| ``manage``          | yes       | yes          | no          | every other write: rounds, scores, entries, ...  |
| ``tournament_delete`` | yes     | no           | no          | deleting the event                               |
| ``manage_roles``    | yes       | no           | no          | roles, invitations to the event, password links  |

Staff (``is_staff``) may do everything on every tournament. The account-level permission "may organise"
(``tournaments.organise_events``) is separate: it lets a user create events and invite organisers.
"""

from __future__ import annotations

ORGANISER = "organiser"
CO_ORGANISER = "co_organiser"
SCOREKEEPER = "scorekeeper"
#: Not a stored role: what ``role_on`` answers for staff, who may do everything.
STAFF = "staff"

#: The stored roles, strongest first (the values of ``TournamentRole.Role``).
ROLES: tuple[str, ...] = (ORGANISER, CO_ORGANISER, SCOREKEEPER)
ROLE_LABELS: dict[str, str] = {ORGANISER: "organiser", CO_ORGANISER: "co-organiser", SCOREKEEPER: "scorekeeper",
                               STAFF: "staff member"}
#: What each role is for, in a sentence an organiser reads when giving it.
ROLE_EXPLANATIONS: dict[str, str] = {
    ORGANISER: "Everything, including deleting the event and giving roles.",
    CO_ORGANISER: "Runs the event: rounds, scores, entries and settings; not deleting it, not giving roles.",
    SCOREKEEPER: "Checks pairs in at the door, pairs tablets, and reads the console.",
}

_EVERYONE = frozenset(ROLES)
_RUNNERS = frozenset({ORGANISER, CO_ORGANISER})
_OWNER = frozenset({ORGANISER})

#: action -> the roles that may do it.
POLICY: dict[str, frozenset[str]] = {
    "read": _EVERYONE,
    "check_in": _EVERYONE,
    "pair_tablets": _EVERYONE,
    "manage": _RUNNERS,
    "tournament_delete": _OWNER,
    "manage_roles": _OWNER,
}
ACTIONS: tuple[str, ...] = tuple(POLICY)
#: What a refused action is called in a sentence ("A scorekeeper may not <...>.").
ACTION_WORDS: dict[str, str] = {
    "read": "open this tournament",
    "check_in": "check pairs in",
    "pair_tablets": "pair tablets",
    "manage": "change this tournament",
    "tournament_delete": "delete this tournament",
    "manage_roles": "give or take away roles, or invite people",
}


def allows(role: str | None, action: str) -> bool:
    """Whether ``role`` (a stored role, ``STAFF`` or None) may do ``action``; an unknown action is a bug."""
    if action not in POLICY:
        raise ValueError(f"unknown action {action!r}; one of {', '.join(ACTIONS)}")
    if role is None:
        return False
    return role == STAFF or role in POLICY[action]


def allowed_actions(role: str | None) -> frozenset[str]:
    """Every action ``role`` may do (empty for None)."""
    return frozenset(action for action in ACTIONS if allows(role, action))


def rank(role: str | None) -> int:
    """3 for the organiser, 2 co-organiser, 1 scorekeeper, 0 none: accepting an invitation never lowers."""
    return {ORGANISER: 3, CO_ORGANISER: 2, SCOREKEEPER: 1}.get(role or "", 0)


def refusal(role: str | None, action: str) -> str:
    """The sentence for a refused ``action``."""
    if role is None:
        return "Only an organiser of this tournament may do this."
    article = "An" if ROLE_LABELS.get(role, role)[0] in "aeiou" else "A"
    return f"{article} {ROLE_LABELS.get(role, role)} may not {ACTION_WORDS[action]}; ask the tournament's organiser."
