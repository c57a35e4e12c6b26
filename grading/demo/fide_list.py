"""The demo's list rated by FIDE's current rules (docs/rules.md part 5): a FIDE-rated standard list,
its ratings taken on from the previous system under FIDE's 2017 rules, changed to fide-2025 two
months before the last with FIDE's one-off adjustment of March 2024 at the change (section 18),
so that a newcomer sees a month that began with it, first ratings with their two imaginary
draws, and the 1400 floor. Drawn from a generator of its own: the rest of the demo is the same
with it or without it.
"""

import datetime
from decimal import Decimal

from chess.months import Month
from events.models import Event
from grading.demo.pairings import swiss
from grading.demo.playing import demo_event, play, save_games
from grading.models import RatingList, RatingPeriod
from grading.rule_set_changes import do_change_rule_set
from grading.takeon import publish_taken_on

CODE = "fide-standard"
FIDE_LIST = {
    "name": "FIDE standard",
    "rule_set": "fide-2017",
    "min_minutes": 60,
    "display_order": 5,
}
CHANGED_TO = "fide-2025"
FIRST_RATED = 1000  # the lowest rating under FIDE's 2017 rules


def take_on_fide_list(rng, people, strength, month: Month) -> int:
    """The FIDE list's states before the demo's first month: a rating for most players with a
    FIDE id (and every titled one), with its peak; a few a game or two short of a first rating."""
    the_list, _ = RatingList.objects.get_or_create(code=CODE, defaults=FIDE_LIST)
    period = RatingPeriod.objects.create(rating_list=the_list, month=str(month))
    rows = []
    for person in people:
        if not person.fide_id:
            continue
        roll = rng.random()
        if roll < 0.85 or person.fide_title:
            rating = max(FIRST_RATED, strength[person.pk] + rng.randint(-70, 70))
            games = rng.randint(20, 400)
            rows.append(
                {
                    "player_id": person.pk,
                    "rating": rating,
                    "type": "full",
                    "games": games,
                    "opponents_total": games * rating,
                    "points": Decimal(games) / 2,
                    "last_played": str(month - rng.choice([0, 0, 1, 4, 10])),
                    "peak": rating + rng.choice([0, 0, rng.randint(1, 150)]),
                }
            )
    publish_taken_on(period, rows, f"{len(rows)} FIDE standard ratings taken on for the demo")
    return len(rows)


def change_to_fides_current_rules(month: Month):
    """From ``month`` on the FIDE list is rated by fide-2025, the month beginning with FIDE's
    adjustment: as a rating officer confirms it in the admin."""
    the_list = RatingList.objects.get(code=CODE)
    if the_list.rule_set_for(str(month)) != CHANGED_TO:  # the list outlives a demo loaded again
        do_change_rule_set(the_list, month, CHANGED_TO, acting_user=None, fide_adjustment=True)


def play_fide_opens(rng, people, strength, first: Month, last: Month, before=None) -> tuple[int, int]:
    """A FIDE-rated open each month (90 minutes + 30 seconds, five rounds over three days): mostly
    players with a FIDE id, and a few without, who earn first ratings. Only those over before
    ``before``, if given."""
    rated = [person for person in people if person.fide_id]
    others = [person for person in people if not person.fide_id]
    the_list = RatingList.objects.get(code=CODE)
    events = games = 0
    month = first
    while month <= last:
        start = month.first_day() + datetime.timedelta(days=rng.randint(2, 18))
        end = start + datetime.timedelta(days=2)
        if before and end >= before:
            month += 1
            continue
        entrants = rng.sample(rated, min(rng.randint(22, 30), len(rated))) + rng.sample(others, min(4, len(others)))
        entrants.sort(key=lambda person: -strength[person.pk])
        event = demo_event(
            code=f"DEMO-{month}-FIDE",
            name=f"FIDE Open {month.year} ({month})",
            kind=Event.Kind.SWISS,
            rating_list=the_list,
            start_date=start,
            end_date=end,
            time_control="90 min + 30 sec",
            organiser="Northquay Chess Club",
        )
        games += save_games(event, entrants, swiss(rng, entrants, 5), lambda w, b: play(rng, strength, w, b))
        events += 1
        month += 1
    return events, games
