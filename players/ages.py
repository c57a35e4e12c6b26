"""What the public sees of a player's age, decided in one place (docs/privacy.md).

The federation's privacy setting (players.models.PrivacySetting) says what the public sees:
nothing, an age band, or the year of birth. A junior's year of birth is never shown, whatever
the setting: with the junior top lists, which publish who is under 12 on a list's first day, a
year of birth would give a junior's exact age (born in 2014 and under 12 on 1 August 2026: 11).
A birth date and an exact age are never shown. The rating method still reads birth dates; only
what the pages, the downloads, the feeds and the API show is decided here.
"""

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from players.models import PrivacySetting, years_before

JUNIOR_BELOW = 18  # a junior is under 18 on the day in question (docs/rules.md section 3)


@dataclass(frozen=True)
class AgeBand:
    label: str
    lowest: int  # from this age in completed years
    below: int | None  # up to this age, not including it; None: no end


# The bands the public may see, youngest first: each player is in the narrowest that holds them
# (a 9-year-old is U10, not U12). Adults from 18 to 49 are in none. The top lists and the list
# filters take their juniors' bands and the seniors' age from here.
AGE_BANDS = (
    AgeBand("U8", 0, 8),
    AgeBand("U10", 8, 10),
    AgeBand("U12", 10, 12),
    AgeBand("U14", 12, 14),
    AgeBand("U16", 14, 16),
    AgeBand("U18", 16, JUNIOR_BELOW),
    AgeBand("Senior 50+", 50, 65),
    AgeBand("Senior 65+", 65, None),
)
JUNIOR_BANDS = [band.below for band in AGE_BANDS if band.below and band.below <= JUNIOR_BELOW]
SENIOR_AGE = AGE_BANDS[-1].lowest  # the seniors of the top lists and the ranks


@dataclass(frozen=True)
class AgeShown:
    """What the public sees of one player's age: an age band, a year of birth, or nothing (both empty)."""

    band: str = ""
    birth_year: int | None = None

    def __bool__(self):
        return bool(self.band or self.birth_year)

    def __str__(self):
        return str(self.birth_year) if self.birth_year else self.band

    @property
    def label(self) -> str:
        """The heading it goes under: "Year of birth" or "Age group"."""
        return "Year of birth" if self.birth_year else "Age group"


NOTHING = AgeShown()


def age_shown(player, on: datetime.date, setting: PrivacySetting) -> AgeShown:
    """What the public sees of ``player``'s age on the day ``on`` (a list's first day, or today)
    under the federation's privacy ``setting``."""
    return age_shower(on, setting)(player.birth_date)


def age_shower(on: datetime.date, setting: PrivacySetting) -> Callable[[datetime.date | None], AgeShown]:
    """age_shown for many players on one day: a function of a birth date, its day's band
    boundaries worked out once (a list's download has 300,000 lines)."""
    if setting.age_shown == PrivacySetting.AgeShown.NOTHING:
        return lambda born: NOTHING
    # Age N or more on ``on``: born on or before the same day N years earlier (as the top lists count).
    starts = [(years_before(on, band.lowest), band) for band in reversed(AGE_BANDS)]
    junior_after = years_before(on, JUNIOR_BELOW)
    years = setting.age_shown == PrivacySetting.AgeShown.BIRTH_YEAR

    def shown(born: datetime.date | None) -> AgeShown:
        if born is None or born >= on:
            return NOTHING
        if years and born <= junior_after:
            return AgeShown(birth_year=born.year)
        band = next((band for start, band in starts if born <= start), None)
        if band is None or (band.below is not None and born <= years_before(on, band.below)):
            return NOTHING  # between the bands: an adult under 50
        return AgeShown(band=band.label)

    return shown
