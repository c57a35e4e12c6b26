import argparse
import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from events import approval, workflow
from events.uploads import storing
from events.uploads.checking import EventDetails, check_upload
from grading.selectors.history import lists_for_uploads
from players.csvfiles import FileRefused, read_path


def iso_date(text):
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date YYYY-MM-DD") from None


# The upload form's fields, as this command's options.
OPTIONS = {
    "the Event code field": "--code",
    "the Start date and End date fields": "--start and --end",
    "the Time control field": "--time-control (or --list)",
}


def for_the_command(problem):
    text = str(problem)
    for field, option in OPTIONS.items():
        text = text.replace(field, option)
    return text


class Command(BaseCommand):
    help = (
        "Load an event file (TRF, ECF results file or CSV) with the same parsing, validation and "
        "matching as an arbiter's upload; --approve approves it at once. A file with errors "
        "stores nothing: the report is printed and the exit status is 2."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--list", dest="list_code", help="put the event on this list, whatever its time control")
        parser.add_argument("--approve", action="store_true", help="approve the event for rating at once")
        parser.add_argument(
            "--register-visitors",
            action="store_true",
            help="with --approve: register the players of other federations too",
        )
        parser.add_argument("--code", default="", help="the event code, where the file has none")
        parser.add_argument("--name", default="", help="the event name, instead of the file's")
        parser.add_argument("--start", type=iso_date, help="the first day, YYYY-MM-DD, where the file gives no dates")
        parser.add_argument("--end", type=iso_date, help="the last day, YYYY-MM-DD, where the file gives no dates")
        parser.add_argument("--time-control", default="", help="e.g. 90+30, where the file has none")
        parser.add_argument("--online", action="store_true", help="the games were played online")
        parser.add_argument("--user", default="", help="the staff user recorded as uploading it")

    def handle(
        self,
        *args,
        file,
        list_code,
        approve,
        register_visitors,
        code,
        name,
        start,
        end,
        time_control,
        online,
        user,
        **options,
    ):
        lists = lists_for_uploads()
        rating_list = None
        if list_code:
            rating_list = next((rating_list for rating_list in lists if rating_list.code == list_code), None)
            if rating_list is None:
                codes = ", ".join(rating_list.code for rating_list in lists)
                raise CommandError(f"--list: no rating list {list_code!r} (lists: {codes})", returncode=2)
        staff = self.staff_user(user)
        try:
            data = read_path(file)
        except FileRefused as refused:
            raise CommandError(refused.errors[0], returncode=2) from None
        if start and end and end < start:
            raise CommandError("--end: the event cannot end before it starts", returncode=2)
        details = EventDetails(
            code=code,
            name=name,
            start_date=start,
            end_date=end,
            time_control=time_control,
            online=online,
            rating_list=rating_list,
        )
        check = check_upload(data, file, details, lists)
        for problem in check.warnings:
            self.stderr.write(f"{file}: warning: {problem}")
        if check.errors:
            lines = "\n".join(f"{file}: error: {for_the_command(problem)}" for problem in check.errors)
            raise CommandError(f"{lines}\n{file}: nothing stored, {len(check.errors)} error(s)", returncode=2)
        try:
            event = storing.do_store_upload(check, data, file, acting_user=staff, staff=True, arbiter=staff)
            if approve:
                workflow.do_submit_event(event, acting_user=staff)
                event = approval.do_approve_event(event, acting_user=staff, visitors=register_visitors)
        except workflow.WorkflowError as refused:
            raise CommandError(f"{file}: {refused}", returncode=2) from None
        games = event.games.count()
        rated = event.games.filter(rated=True).count()
        self.stdout.write(
            f"{event.code}: {event.entries.count()} players, {games} games ({rated} rated) on "
            f"{event.rating_list.code}, {event.get_status_display()}."
        )
        if approve and (waiting := approval.unregistered_visitors(event)):
            self.stdout.write(
                f"{event.code}: {len(waiting)} players of other federations are on no record and their "
                "games are not rated: register them with --register-visitors or in the admin."
            )

    def staff_user(self, username):
        users = get_user_model().objects.filter(is_superuser=True)
        if username:
            users = get_user_model().objects.filter(username=username, is_staff=True)
        user = users.order_by("pk").first()
        if user is None:
            raise CommandError(
                f"no staff user {username!r}"
                if username
                else "no superuser: create one with createsuperuser, or name a staff --user",
                returncode=2,
            )
        return user
