"""The accounts in a backup, when the operator asks for them: a new server
restored from a backup has nobody who can sign in otherwise.

An account is its user name, names, e-mail, flags, groups and password
hash (never a password): whoever holds the file holds the hashes, so it is
asked for (`backup --with-accounts`) and restored only from the command
line (`restore --with-accounts`). A user name the database already has is
left as it is.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils.translation import gettext as _

from tournament.core.errors import UserError

FIELDS = ("username", "first_name", "last_name", "email", "password")
FLAGS = ("is_active", "is_staff", "is_superuser")


def accounts_backup() -> list[dict[str, Any]]:
    """Every account, by user name."""
    User = get_user_model()
    return [
        {
            **{name: getattr(user, name) for name in (*FIELDS, *FLAGS)},
            "groups": sorted(group.name for group in user.groups.all()),
        }
        for user in User.objects.order_by("username").prefetch_related("groups")
    ]


def _damaged(number: int) -> UserError:
    return UserError(
        _("Die Sicherung ist beschädigt: Konto %(n)s ist unvollständig.")
        % {"n": number},
        code="corrupt",
    )


def accounts_restore(*, docs: Any) -> tuple[int, int]:
    """The accounts of a backup the database does not have yet (call inside
    the restore's transaction); how many were made and how many were there."""
    if not isinstance(docs, list):
        raise _damaged(0)
    User = get_user_model()
    made = kept = 0
    for number, doc in enumerate(docs, start=1):
        if (
            not isinstance(doc, dict)
            or set(doc) != {*FIELDS, *FLAGS, "groups"}
            or not all(isinstance(doc[name], str) for name in FIELDS)
            or not all(isinstance(doc[name], bool) for name in FLAGS)
            or not isinstance(doc["groups"], list)
            or not all(isinstance(name, str) and name for name in doc["groups"])
            or not doc["username"]
        ):
            raise _damaged(number)
        if User.objects.filter(username=doc["username"]).exists():
            kept += 1
            continue
        user = User(**{name: doc[name] for name in (*FIELDS, *FLAGS)})
        user.full_clean(exclude=["password"])
        user.save()
        user.groups.set(
            Group.objects.get_or_create(name=name)[0] for name in doc["groups"]
        )
        made += 1
    return made, kept
