"""What the role mails hold of a player's addresses, for a request about their personal data
(docs/privacy.md): each mail sent to one of them (a report's acknowledgement, an application's
decline, an event's step to an arbiter). Exported with the player's data; removed by an
erasure, which the mail's occasion outlives (its kind, subject and counts)."""

from django.dispatch import receiver

from mails.models import Delivery
from privacy.services import by_address
from privacy.signals import erasing_personal_data, gathering_personal_data


@receiver(gathering_personal_data, dispatch_uid="mails.deliveries_gathered")
def deliveries_of(sender, addresses, **kwargs):
    deliveries = Delivery.objects.filter(by_address("address", addresses)).select_related("occasion")
    return {
        "mails_sent": [
            {
                "address": delivery.address,
                "mail": delivery.occasion.title,
                "kind": delivery.occasion.kind,
                "claimed_at": delivery.claimed_at,
                "sent_at": delivery.sent_at,
                "refused": delivery.refused,
            }
            for delivery in deliveries.order_by("claimed_at", "pk")
        ]
    }


@receiver(erasing_personal_data, dispatch_uid="mails.deliveries_erased")
def erase_deliveries(sender, addresses, **kwargs):
    return {"mails_sent": Delivery.objects.filter(by_address("address", addresses)).delete()[0]}
