"""The event's admin page for approving it as fast classic (events/fast_classic.py), or
withdrawing the approval: a page of its own, as the approval of a long event's length has."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path

from events import fast_classic, workflow
from events.lengths import PERMISSION, revises
from events.models import Event


class FastClassicAdmin(admin.ModelAdmin):
    """Mixed into the Event admin: the "fast classic" field and page."""

    @admin.display(description="fast classic")
    def fast_classic_approval(self, event):
        if event.fast_classic:
            return f"Approved as fast classic {fast_classic.approval_text(event)}: rated as standard play"
        return "Not approved as fast classic"

    def fast_classic_urls(self):
        view = self.admin_site.admin_view(self.fast_classic)
        return [path("<int:pk>/fast-classic/", view, name="events_event_fast_classic")]

    def fast_classic(self, request, pk):
        """Approve the event as fast classic, or withdraw the approval, from the event's own page."""
        if not request.user.has_perm(PERMISSION):
            raise PermissionDenied
        event = Event.objects.filter(pk=pk).select_related("fast_classic_approved_by").first()
        if event is None:
            raise Http404("No such event.")
        refused = None
        if request.method == "POST" and ("approve" in request.POST or "withdraw" in request.POST):
            try:
                if "withdraw" in request.POST:
                    event = fast_classic.do_withdraw_fast_classic(event, acting_user=request.user)
                else:
                    event = fast_classic.do_approve_fast_classic(event, acting_user=request.user)
                self.message_user(request, fast_classic_message(event), messages.SUCCESS)
                return redirect("admin:events_event_change", event.pk)
            except workflow.WorkflowError as refusal:
                refused = f"{event.code}: {refusal}"
        context = {
            **self.admin_site.each_context(request),
            "title": f"{event.code} as fast classic",
            "event": event,
            "opts": self.model._meta,
            "refused": refused,
            "approval": fast_classic.approval_text(event) if event.fast_classic else "",
        }
        return render(request, "admin/events/event/fast_classic.html", context)


def fast_classic_message(event) -> str:
    revised = "; the months of its games already published are revised" if revises(event) else ""
    if event.fast_classic:
        return f"{event.code} is approved as fast classic: rated as standard play at {event.time_control}{revised}."
    return f"{event.code}: its approval as fast classic is withdrawn{revised}."
