"""What the accounts hold of a player's addresses, for a subject access request (docs/privacy.md):
the applications for an arbiter's account made from them. An erasure leaves them: an application
is the record of an account, which an administrator closes, not a player's erasure."""

from django.dispatch import receiver

from accounts.models import Application
from privacy.services import by_address
from privacy.signals import gathering_personal_data


@receiver(gathering_personal_data, dispatch_uid="accounts.applications_gathered")
def applications_of(sender, addresses, **kwargs):
    applications = Application.objects.filter(by_address("email", addresses)).order_by("created_at")
    return {
        "applications_for_an_account": list(
            applications.values(
                "forenames",
                "surname",
                "email",
                "fide_id",
                "player_code",
                "licence",
                "created_at",
                "state",
                "decided_at",
                "decline_reason",
            )
        )
    }
