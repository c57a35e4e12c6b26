"""Grading's staff screens, found by the admin's autodiscovery: the lists, periods, runs and
ratings (lists.py), the events' admin as the ratings extend it (events.py), the live ratings
(live.py), the players' and clubs' (players.py), and the integrity watch's review (integrity.py)."""

from grading.admin import events, integrity, lists, live, players

__all__ = ["events", "integrity", "lists", "live", "players"]
