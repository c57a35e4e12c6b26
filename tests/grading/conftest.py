from events.models import Entry, Event, Game
from grading.engine.periods import Month
from grading.models import RatingList, RatingRun
from grading.takeon import import_ratings
from players.models import Player


def take_on(list_code, month, *lines):
    """Publish ratings for ``month`` as the previous system left them: "CODE,rating,type,games,
    opponents_total,points,last_played" lines."""
    data = "code,rating,type,games,opponents_total,points,last_played\n" + "".join(line + "\n" for line in lines)
    import_ratings(data.encode(), RatingList.objects.get(code=list_code), Month.parse(month))


def approved_event(code, list_code, day, games, status=Event.Status.APPROVED):
    """An approved event on a list: games as (white code, black code, result) on ``day``."""
    event = Event.objects.create(
        code=code,
        name=code,
        rating_list=RatingList.objects.get(code=list_code),
        start_date=day,
        end_date=day,
        status=status,
    )
    players = {}
    for white, black, _ in games:
        for code_ in (white, black):
            if code_ not in players:
                player = Player.objects.get(code=code_)
                players[code_] = Entry.objects.create(
                    event=event, pin=len(players) + 1, surname=player.surname, player=player, match="code"
                )
    Game.objects.bulk_create(
        Game(
            event=event,
            round=number,
            date=day,
            white_entry=players[white],
            black_entry=players[black],
            white=players[white].player,
            black=players[black].player,
            result=result,
        )
        for number, (white, black, result) in enumerate(games, start=1)
    )
    return event


def succeeded(run):
    assert run.outcome == RatingRun.Outcome.SUCCEEDED, run.message
    return run
