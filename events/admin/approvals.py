"""The approvals a rating officer gives an event on a page of its own, from the event's admin page:
the length of a long event (events/lengths.py) and fast classic (events/fast_classic.py). One page
does both: what differs between them is an Approval."""

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path

from events import fast_classic, lengths, workflow
from events.approval import may_approve
from events.models import Event


@dataclass(frozen=True)
class Approval:
    title: str  # the page's title, of the event's code
    approved_by: str  # the event's field naming who approved it
    is_approved: Callable  # event -> bool
    approve: Callable  # the do_ actions: (event, *, acting_user) -> Event
    withdraw: Callable
    text: Callable  # event -> "by officer on 06/05/2026"
    message: Callable  # event -> what approving or withdrawing did
    template: str


def revised(event) -> str:
    return "; the months of its games already published are revised" if lengths.revises(event) else ""


def length_message(event) -> str:
    """What approving the length of ``event``, or withdrawing the approval, did."""
    if event.length_approved:
        return f"{event.code}: its length of {event.length_text} is approved for rating on Elo lists{revised(event)}."
    return f"{event.code}: the approval of its length of {event.length_text} is withdrawn{revised(event)}."


def fast_classic_message(event) -> str:
    if event.fast_classic:
        return (
            f"{event.code} is approved as fast classic: rated as standard play at {event.time_control}{revised(event)}."
        )
    return f"{event.code}: its approval as fast classic is withdrawn{revised(event)}."


LENGTH = Approval(
    "The length of {}",
    "length_approved_by",
    lambda event: event.length_approved,
    lengths.do_approve_length,
    lengths.do_withdraw_length_approval,
    lengths.approval_text,
    length_message,
    "admin/events/event/length.html",
)
FAST_CLASSIC = Approval(
    "{} as fast classic",
    "fast_classic_approved_by",
    lambda event: event.fast_classic,
    fast_classic.do_approve_fast_classic,
    fast_classic.do_withdraw_fast_classic,
    fast_classic.approval_text,
    fast_classic_message,
    "admin/events/event/fast_classic.html",
)


class ApprovalsAdmin(admin.ModelAdmin):
    """Mixed into the Event admin: the pages of its length and of fast classic."""

    @admin.display(description="fast classic")
    def fast_classic_approval(self, event):
        if event.fast_classic:
            return f"Approved as fast classic {fast_classic.approval_text(event)}: rated as standard play"
        return "Not approved as fast classic"

    def approval_urls(self):
        def page(approval):
            return self.admin_site.admin_view(lambda request, pk: self.approval_page(request, pk, approval))

        return [
            path("<int:pk>/length/", page(LENGTH), name="events_event_length"),
            path("<int:pk>/fast-classic/", page(FAST_CLASSIC), name="events_event_fast_classic"),
        ]

    def approval_page(self, request, pk, approval: Approval):
        """Give the event ``approval``, or withdraw it, from the event's own page."""
        if not may_approve(request.user):
            raise PermissionDenied
        event = Event.objects.filter(pk=pk).select_related(approval.approved_by).first()
        if event is None:
            raise Http404("No such event.")
        refused = None
        if request.method == "POST" and ("approve" in request.POST or "withdraw" in request.POST):
            try:
                act = approval.withdraw if "withdraw" in request.POST else approval.approve
                event = act(event, acting_user=request.user)
                self.message_user(request, approval.message(event), messages.SUCCESS)
                return redirect("admin:events_event_change", event.pk)
            except workflow.WorkflowError as refusal:
                refused = f"{event.code}: {refusal}"
        context = {
            **self.admin_site.each_context(request),
            "title": approval.title.format(event.code),
            "event": event,
            "opts": self.model._meta,
            "refused": refused,
            "approval": approval.text(event) if approval.is_approved(event) else "",
        }
        return render(request, approval.template, context)
