"""The rating officers' daily digest (docs/mails.md): what waits for them, a section of each
kind; no mail when nothing waits. A section is a small function returning a Section, or None
when nothing of its kind waits; SECTIONS lists them in the order the mail shows them."""

from dataclasses import dataclass

from django.db.models import Count, Min
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from accounts.models import Application
from common.admin import username
from common.outgoing_mail import site_url
from corrections.models import Report
from corrections.selectors import OPEN
from events.models import Event
from grading.models import Flag, RatingList
from mails.choices import officers, wants
from mails.delivery import Mail, Recipient
from mails.models import Kind

SHOWN = 10  # items a section lists; its link shows them all


@dataclass
class Item:
    text: str
    url: str


@dataclass
class Section:
    summary: str  # its heading, and its part of the Subject line: "3 events submitted"
    items: list[Item]
    more: int  # items not listed
    url: str  # where they all are

    @classmethod
    def of(cls, summary, items, url):
        return cls(summary, items[:SHOWN], max(len(items) - SHOWN, 0), site_url(url))


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def on(moment) -> str:
    return date_format(timezone.localtime(moment), "j M Y")


def submitted_events() -> Section | None:
    """Events submitted for approval, the longest waiting first."""
    events = list(Event.objects.filter(status=Event.Status.SUBMITTED).select_related("arbiter", "rating_list"))
    if not events:
        return None
    events.sort(key=lambda event: (event.status_changed_at or timezone.now(), event.code))
    items = [
        Item(
            f"{event.name} ({event.code}), {event.rating_list.name}, arbiter {username(event.arbiter)}"
            + (f", submitted {on(event.status_changed_at)}" if event.status_changed_at else ""),
            site_url(reverse("admin:events_event_decide", args=[event.pk])),
        )
        for event in events
    ]
    url = reverse("admin:events_event_changelist") + "?status__exact=submitted"
    return Section.of(plural(len(events), "event") + " submitted for approval", items, url)


def open_reports() -> Section | None:
    """Error reports new or in hand, the oldest first."""
    reports = list(Report.objects.filter(state__in=OPEN).order_by("created_at", "pk"))
    if not reports:
        return None
    new = sum(report.state == Report.State.NEW for report in reports)
    items = [
        Item(
            f"{report.reference}: {report.get_kind_display()}, about {report.about} ({report.get_state_display()}, "
            f"sent {on(report.created_at)})",
            site_url(reverse("admin:corrections_report_change", args=[report.pk])),
        )
        for report in reports
    ]
    summary = plural(len(reports), "error report") + f" open ({new:,} new)"
    return Section.of(summary, items, reverse("admin:corrections_report_changelist"))


def open_flags() -> Section | None:
    """The integrity watch's open flags, by list and month, each month's review page linked."""
    months = list(
        Flag.objects.filter(state=Flag.State.OPEN)
        .values("rating_list", "month")
        .annotate(count=Count("pk"), since=Min("found_at"))
        .order_by("rating_list", "-month")
    )
    if not months:
        return None
    lists = RatingList.objects.in_bulk([month["rating_list"] for month in months])
    review = reverse("admin:grading_flag_review")
    items = [
        Item(
            f"{lists[month['rating_list']].name}, {month['month']}: {plural(month['count'], 'flag')} open",
            site_url(f"{review}?list={lists[month['rating_list']].code}&month={month['month']}"),
        )
        for month in months
    ]
    total = sum(month["count"] for month in months)
    url = reverse("admin:grading_flag_changelist") + "?state__exact=open"
    return Section.of(plural(total, "integrity flag") + " open", items, url)


def waiting_applications() -> Section | None:
    """Arbiters' requests for an account not yet approved or declined, the oldest first."""
    applications = list(Application.objects.filter(state=Application.State.WAITING).order_by("created_at", "pk"))
    if not applications:
        return None
    items = [
        Item(
            f"{application.forenames} {application.surname}, arbiter licence {application.licence}, "
            f"asked {on(application.created_at)}",
            site_url(reverse("admin:accounts_application_change", args=[application.pk])),
        )
        for application in applications
    ]
    url = reverse("admin:accounts_application_changelist") + "?state__exact=waiting"
    return Section.of(plural(len(applications), "account") + " to approve", items, url)


SECTIONS = [submitted_events, open_reports, waiting_applications, open_flags]


def mail_of_day(day: str) -> Mail:
    """The digest of ``day`` (YYYY-MM-DD) as things stand now: without recipients when nothing
    waits, or no officer wants it."""
    sections = [section for section in (make() for make in SECTIONS) if section is not None]
    recipients = [Recipient(user.email, user) for user in officers() if wants(user, Kind.DIGEST)] if sections else []
    title = "Waiting for the rating officers: " + ", ".join(section.summary for section in sections)
    return Mail(Kind.DIGEST, day, title, Kind.DIGEST, {"sections": sections, "day": day}, recipients)
