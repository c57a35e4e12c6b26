"""The top lists of a publication: juniors by age band, women, seniors, and the biggest improvers.

Ages are completed years on the first day of the list's period, like PlayerRating.age: a
player is "U12" on the 2026-10 list if they had not turned 12 by 1 October 2026.
"""

import datetime

from django.core.cache import cache
from django.db.models import F, FilteredRelation, Q

from chess.months import Month
from grading.models import RANKED, RatingPeriod
from grading.selectors.history import publication_key
from players.ages import JUNIOR_BANDS, SENIOR_AGE
from players.models import Player, years_before
from players.privacy import privacy_state

TOP_SIZE = 10
# Named after what they hold, Full ratings only: those kept under "top-lists" had Partial ones.
TOP_LISTS_KEY = "full-top-lists"


def first_day(period) -> datetime.date:
    return Month.parse(period.month).first_day()


def age_condition(band: str, day: datetime.date, prefix="player__") -> Q:
    """Players in an age band on ``day``: ``junior``, ``u8`` ... ``u18``, ``senior``."""
    if band == "senior":
        return Q(**{f"{prefix}birth_date__lte": years_before(day, SENIOR_AGE)})
    under = 18 if band == "junior" else int(band[1:])
    # Under N on ``day``: born after the same day N years earlier.
    return Q(**{f"{prefix}birth_date__gt": years_before(day, under)})


def top_lists(published):
    """The top players of a publication: juniors by band, women, seniors, improvers.

    Returns [(title, key, entries)]; cached per publication, which never changes, and per state
    of what the public sees of personal data (a name restricted to initials since).
    """
    key = publication_key(TOP_LISTS_KEY, published.period.pk, published.revision, published.period.published_at)
    key = f"{key}:{privacy_state()}"
    found = cache.get(key)
    if found is None:
        found = compute_top_lists(published)
        cache.set(key, found, 24 * 3600)
    return found


def compute_top_lists(published):
    day = first_day(published.period)
    entries = published.entries().filter(RANKED)  # a top list ranks, as the list's ranks do: Full ratings
    groups = [(f"Under {age}", f"u{age}", entries.filter(age_condition(f"u{age}", day))) for age in JUNIOR_BANDS]
    groups.append(("Women", "women", entries.filter(player__sex=Player.Sex.FEMALE)))
    groups.append((f"Seniors ({SENIOR_AGE} and over)", "seniors", entries.filter(age_condition("senior", day))))
    tops = [(title, key, list(rows[:TOP_SIZE])) for title, key, rows in groups]
    since, rows = improvers(published)
    title = f"Biggest improvers since {since}" if since else "Biggest improvers of the last 12 months"
    tops.append((title, "improvers", rows))
    return tops


def improvers(published, size=TOP_SIZE):
    """The players whose rating rose most since the list of 12 months earlier (or the oldest
    list published since then): (that list's month, entries annotated ``before`` and ``gain``)."""
    since = str(Month.parse(published.period.month) - 12)
    baseline = (
        RatingPeriod.objects.published()
        .filter(
            rating_list_id=published.period.rating_list_id,
            month__gte=since,
            month__lt=published.period.month,
        )
        .order_by("month")
        .first()
    )
    if baseline is None:
        return None, []
    return baseline.month, list(
        published.entries()
        .annotate(
            earlier=FilteredRelation(
                "player__list_entries",
                condition=Q(player__list_entries__period=baseline, player__list_entries__revision=baseline.revision),
            )
        )
        .filter(earlier__isnull=False)
        .annotate(before=F("earlier__rating"), before_type=F("earlier__type"), gain=F("rating") - F("earlier__rating"))
        .filter(gain__gt=0)
        .order_by("-gain", "-rating", "player__surname", "player__code")[:size]
    )
