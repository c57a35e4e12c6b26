"""Each role mail once to each recipient: claimed before it is sent; a claim a killed worker
left unsent is sent again under the same Message-ID; an address the mail server refuses for
good is not tried again; a mail server away leaves the occasion for the next try."""

import pytest

from mails.delivery import Mail, Postman, Recipient, deliver
from mails.models import Delivery, Occasion

pytestmark = pytest.mark.django_db


def digest_like(*addresses) -> Mail:
    return Mail(
        "officer-digest",
        "2026-11-21",
        "Waiting for the rating officers: 1 event submitted",
        "officer-digest",
        {"sections": [], "day": "2026-11-21"},
        [Recipient(address) for address in addresses],
    )


def test_a_claim_left_unsent_by_a_killed_worker_is_sent_again_under_its_message_id(inbox):
    mail = digest_like("one@example.net", "two@example.net")
    with Postman() as postman:
        deliver(mail, postman)
    [first] = inbox.to("one@example.net")
    # As a worker killed between the server's acceptance and its record leaves it.
    Occasion.objects.update(finished_at=None)
    Delivery.objects.filter(address="one@example.net").update(sent_at=None)

    with Postman() as postman:
        deliver(mail, postman)

    again = inbox.to("one@example.net")
    assert len(again) == 2 and again[1]["Message-ID"] == first["Message-ID"]
    assert len(inbox.to("two@example.net")) == 1
    assert Delivery.objects.get(address="one@example.net").attempts == 2
    assert Occasion.objects.get().sent == 2


def test_an_address_the_server_refuses_for_good_is_recorded_refused_and_not_tried_again(inbox):
    mail = digest_like("refused@example.net", "officer@example.net")
    with Postman() as postman:
        deliver(mail, postman)
    Occasion.objects.update(finished_at=None)
    with Postman() as postman:
        deliver(mail, postman)

    assert [message["X-RcptTo"] for message in inbox.messages] == ["officer@example.net"]
    refused = Delivery.objects.get(address="refused@example.net")
    assert (refused.refused, refused.sent_at, refused.attempts) == (True, None, 1)
    assert (Occasion.objects.get().recipients, Occasion.objects.get().sent) == (2, 1)


def test_a_mail_server_away_leaves_the_occasion_unfinished_and_unclaimed_for_the_next_try(smtp_server, inbox):
    smtp_server.stop()
    mail = digest_like("officer@example.net")

    with pytest.raises(OSError), Postman() as postman:
        deliver(mail, postman)

    occasion = Occasion.objects.get()
    assert (occasion.finished_at, occasion.claimed_at) == (None, None)
    smtp_server.start()
    with Postman() as postman:
        deliver(mail, postman)
    assert len(inbox.to("officer@example.net")) == 1
    assert Delivery.objects.get().attempts == 1  # nothing claimed while the server was away
