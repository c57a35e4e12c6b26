"""Grading's staff screens, found by the admin's autodiscovery: the lists, periods, runs and
ratings (lists.py), the events' admin as the ratings extend it (events.py), the live ratings
(live.py), and the players' and clubs' (players.py)."""

from grading.admin import events, lists, live, players

__all__ = ["events", "lists", "live", "players"]
