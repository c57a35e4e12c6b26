import datetime

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from players.csvfiles import FileRefused
from players.models import Club, Player
from players.services import import_players
from tests.builders import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

HEADER = "code,name,birth_date,sex,title,fide_id,club_code,club_name\n"


def csv(*lines):
    return (HEADER + "".join(line + "\n" for line in lines)).encode()


def test_it_creates_players_and_their_clubs():
    summary = import_players(
        csv(
            '123456A,"Abbott, Alice",1990-05-12,F,WFM,400123,NQC,Northquay',
            '234567B,"Baker, Brian Charles",,m,,,NQC,Northquay',
            "345678C,Carter,2012-09-01,,,,,",
        )
    )

    assert (summary.created, summary.updated, summary.clubs_created) == (3, 0, 1)
    alice = Player.objects.get(code="123456A")
    assert (alice.surname, alice.forenames) == ("Abbott", "Alice")
    assert alice.birth_date == datetime.date(1990, 5, 12)
    assert (alice.sex, alice.fide_title, alice.fide_id) == ("F", "WFM", 400123)
    assert alice.club.name == "Northquay"
    assert Player.objects.get(code="234567B").sex == "M"
    carter = Player.objects.get(code="345678C")
    assert (carter.surname, carter.forenames, carter.club) == ("Carter", "", None)


def test_reimporting_updates_players_by_code_and_never_duplicates():
    import_players(csv('123456A,"Abbott, Alice",1990-05-12,F,,,NQC,Northquay'))
    summary = import_players(
        csv(
            '123456A,"Abbott-Smith, Alice",1990-05-12,F,WIM,400123,SBK,Southbank',
            '234567B,"Baker, Brian",,M,,,SBK,Southbank',
        )
    )

    assert (summary.created, summary.updated) == (1, 1)
    assert Player.objects.count() == 2
    alice = Player.objects.get(code="123456A")
    assert (alice.surname, alice.fide_title, alice.club.code) == ("Abbott-Smith", "WIM", "SBK")


def test_it_renames_an_existing_club_and_uses_a_known_club_by_code_alone():
    ClubFactory(code="NQC", name="Northquay CC")
    import_players(csv('123456A,"Abbott, Alice",,F,,,NQC,Northquay', '234567B,"Baker, Brian",,M,,,NQC,'))

    assert Club.objects.get(code="NQC").name == "Northquay"
    assert Player.objects.get(code="234567B").club.code == "NQC"


def test_it_reads_fide_titles_in_trf_shorthand():
    import_players(csv('123456A,"Abbott, Alice",,F,wg,,,', '234567B,"Baker, Brian",,M,m,,,'))

    assert Player.objects.get(code="123456A").fide_title == "WGM"
    assert Player.objects.get(code="234567B").fide_title == "IM"


def test_it_reads_a_windows_1252_file_from_excel():
    import_players(HEADER.encode() + '123456A,"Müller, Zoë",,F,,,,\n'.encode("cp1252"))

    assert Player.objects.get(code="123456A").name == "Müller, Zoë"


def test_it_refuses_a_file_with_bad_lines_listing_every_one_and_stores_nothing():
    PlayerFactory(code="999999L", surname="Existing")
    with pytest.raises(FileRefused) as refused:
        import_players(
            csv(
                '123456A,"Abbott, Alice",1990-05-12,F,,,NQC,Northquay',
                '12345A,"Baker, Brian",1990-13-01,X,ZZ,abc,NQC,Northquay',
                '345678C,"Carter, Chloe",,F,,,NQC,Northquay Chess',
                '123456A,"Again, Alice",,F,,,,',
                '456789D,"Dunn, David",,M,,,,Club Without Code',
                '567890E,"Evans, Eve",,F,,,ZZZ,',
                '678901F,"Future, Baby",2999-01-01,F,,,,',
                '789012G,",",,,,,,',
            )
        )

    assert refused.value.errors == [
        "line 3: code: '12345A' is not a federation code (six digits and a check letter); "
        "birth_date: '1990-13-01' is not a date in the form YYYY-MM-DD; sex: 'X' is not M, F or empty; "
        "title: 'ZZ' is not a FIDE title (GM, IM, WGM, FM, WIM, CM, WFM, WCM); "
        "fide_id: 'abc' is not a FIDE ID (6 to 9 digits)",
        "line 4: club_name: club NQC is named 'Northquay' on line 2",
        "line 5: code: 123456A is also on line 2",
        "line 6: club_code: a club_name is given without its club_code",
        "line 7: club_code: ZZZ is not a known club and no club_name is given",
        "line 8: birth_date: 2999-01-01 is not in the past",
        "line 9: name: ',' has no surname; write it as 'Surname, Forenames'",
    ]
    assert list(Player.objects.values_list("code", flat=True)) == ["999999L"]
    assert not Club.objects.filter(code="NQC").exists()


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "line 1: the file is empty; expected a header: " + HEADER.strip()),
        (b"code,name\n", "line 1: missing column(s) birth_date, sex, title, fide_id, club_code, club_name"),
        (
            (HEADER.strip() + ",rating\n").encode(),
            "line 1: unknown column(s) rating; expected: " + HEADER.strip(),
        ),
        (csv("123456A,Abbott"), "line 2: 2 values where the header has 8"),
        (csv('123456A,"Abbott\x00, A",,,,,,'), "line 2: name: contains a control character"),
        (csv('123456A,"Abbott, A",0001-01-01,,,,,'), "line 2: birth_date: 0001-01-01 is before 1900"),
        (
            csv('123456A,"Abbott, A",,,,99999999999999999999,,'),
            "line 2: fide_id: '99999999999999999999' is not a FIDE ID",
        ),
        (
            csv('123456A,"Abbott, A",,,,424242,,', '234567B,"Baker, B",,,,424242,,'),
            "line 3: fide_id: 424242 is also on line 2",
        ),
        (csv('123456A,"Abbott, A",,,,,A/B,Slash club'), "line 2: club_code: 'A/B' is not a club code"),
        (csv('123456A,"Abbott, A",,,,,..,Dots'), "line 2: club_code: '..' is not a club code"),
        (csv('123456A,"Abbott\u202e, A",,,,,,'), "line 2: name: contains a control character"),
        (
            (HEADER + '123456A,"Müller, Jörg",,,,,,\n').encode() + '234567B,"Weiß, Ana",,,,,,\n'.encode("cp1252"),
            "line 3: is not UTF-8 though other lines of the file are",
        ),
    ],
)
def test_it_refuses_a_malformed_file_saying_where(content, message):
    with pytest.raises(FileRefused) as refused:
        import_players(content)

    assert refused.value.errors[0].startswith(message)
    assert Player.objects.count() == 0


def test_the_command_exits_with_status_2_and_every_problem(tmp_path):
    path = tmp_path / "players.csv"
    path.write_bytes(csv('12345A,"Abbott, Alice",,,,,,', '234567B,"",,,,,,'))

    with pytest.raises(CommandError) as error:
        call_command("import_players", str(path))

    assert error.value.returncode == 2
    assert str(error.value) == (
        f"{path}: nothing imported, 2 problems:\n"
        "line 2: code: '12345A' is not a federation code (six digits and a check letter)\n"
        "line 3: name: '' has no surname; write it as 'Surname, Forenames'"
    )


def test_the_command_reports_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot read .*missing.csv: No such file or directory"):
        call_command("import_players", str(tmp_path / "missing.csv"))


def test_the_command_imports_ten_thousand_players(tmp_path, capsys):
    lines = [f'{100000 + n:06d}A,"Surname{n}, Forename",,M,,,C{n % 50:03d},Club {n % 50}' for n in range(10_000)]
    path = tmp_path / "players.csv"
    path.write_bytes(csv(*lines))

    call_command("import_players", str(path))

    assert capsys.readouterr().out == "10000 players created, 0 updated, 50 clubs created.\n"
    assert Player.objects.filter(club__code="C007").count() == 200


def test_a_fide_id_of_fewer_than_6_or_more_than_9_digits_is_refused_naming_its_line():
    with pytest.raises(FileRefused) as refused:
        import_players(
            csv(
                '123456A,"Abbott, A",,,,12345,,',
                '234567B,"Baker, B",,,,100000,,',
                '345678C,"Carter, C",,,,1234567890,,',
                '456789D,"Dunn, D",,,,999999999,,',
            )
        )

    # An ICU member number (5 digits) is another body's; 10 digits is no FIDE ID either.
    assert refused.value.errors == [
        "line 2: fide_id: '12345' is not a FIDE ID (6 to 9 digits)",
        "line 4: fide_id: '1234567890' is not a FIDE ID (6 to 9 digits)",
    ]
    assert Player.objects.count() == 0


def test_a_fide_id_of_6_to_9_digits_is_recorded():
    import_players(csv('123456A,"Abbott, A",,,,100000,,', '234567B,"Baker, B",,,,999999999,,'))

    assert dict(Player.objects.values_list("code", "fide_id")) == {"123456A": 100000, "234567B": 999999999}


def test_a_fide_id_already_on_another_players_record_is_refused():
    PlayerFactory(code="999999L", fide_id=424242)

    with pytest.raises(FileRefused) as refused:
        import_players(csv('123456A,"Abbott, A",,,,424242,,'))

    assert refused.value.errors == ["line 2: fide_id: 424242 is the FIDE ID of 999999L already"]


@pytest.mark.parametrize(
    "content, message",
    [
        (("\n\n" + HEADER + '123456A,"Abbott, A",,,,,,\n').encode(), None),
        ((HEADER.strip() + ",\n").encode(), "line 1: a column without a name (a comma too many?)"),
        ((HEADER.strip() + ",sex\n").encode(), "line 1: column(s) named twice: sex"),
        (
            HEADER.replace(",", ";").encode(),
            "line 1: the columns are separated by semicolons: save the file with commas",
        ),
    ],
)
def test_the_header_is_read_past_blank_lines_and_its_problems_named(content, message):
    if message is None:
        assert import_players(content).created == 1
        return
    with pytest.raises(FileRefused) as refused:
        import_players(content)

    assert refused.value.errors[0].startswith(message)


def test_a_name_is_split_as_event_files_split_it_runs_of_spaces_made_one():
    import_players(csv('123456A,"  Van  der Berg ,  Anna   Maria ",,,,,,'))

    player = Player.objects.get(code="123456A")
    assert (player.surname, player.forenames, player.name) == ("Van der Berg", "Anna Maria", "Van der Berg, Anna Maria")
