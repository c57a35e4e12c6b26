"""The federation's roles, as Django groups kept in step with the code after every migrate.

Administrators are Django superusers. A rating officer also needs "staff status" to use the
admin; an arbiter does not use the admin at all.
"""

from django.contrib.auth.models import Group, Permission

from events.approval import APPROVE_PERMISSION

ARBITERS = "Arbiters"
RATING_OFFICERS = "Rating officers"

ROLES = {
    ARBITERS: ["events.submit_results"],
    RATING_OFFICERS: [
        APPROVE_PERMISSION,
        "events.add_event",
        "events.view_event",
        "events.change_event",
        "events.view_entry",
        "events.change_entry",
        "events.view_game",
        "events.view_upload",
        "events.view_eventchange",
        "events.view_apitoken",
        "events.change_apitoken",
        "players.merge_player",
        "grading.view_playermerge",
        "players.view_player",
        "players.change_player",
        "players.add_player",
        "players.view_club",
        "players.change_club",
        "players.add_club",
        "players.handle_personal_data",
        "players.view_playerchange",
        "players.view_privacysetting",
        "grading.run_rating",
        "grading.view_ratinglist",
        "grading.view_ratingperiod",
        "grading.change_ratingperiod",
        "grading.view_playerrating",
        "grading.view_ratingrun",
        "grading.view_livelist",
        "grading.view_liverating",
        "grading.view_liveentry",
        "grading.view_livegamenotrated",
        "grading.view_gamenotrated",
        "corrections.view_report",
        "corrections.change_report",
        "laboratory.view_rulevariant",
        "laboratory.add_rulevariant",
        "laboratory.change_rulevariant",
        "laboratory.delete_rulevariant",
        "laboratory.view_simulation",
        "laboratory.add_simulation",
        "laboratory.delete_simulation",
        # Arbiters' accounts only (never staff): an application approved or declined, an invitation.
        "accounts.view_application",
        "accounts.decide_application",
        "accounts.view_invitation",
        "accounts.add_invitation",
    ],
}


def start_page(user) -> str:
    """Where a user lands after logging in: staff in the admin, arbiters in their events."""
    if user.is_staff:
        return "admin:index"
    if user.has_perm("events.submit_results"):
        return "arbiter-events"
    return "home"


def ensure_roles(**kwargs):
    # post_migrate comes once per app: permissions of apps not yet through it are added on a
    # later call, so the last call leaves every group complete.
    for name, permissions in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        wanted = Permission.objects.none()
        for dotted in permissions:
            app_label, codename = dotted.split(".")
            wanted |= Permission.objects.filter(content_type__app_label=app_label, codename=codename)
        group.permissions.set(wanted)
