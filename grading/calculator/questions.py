"""What the calculator is asked, checked field by field: the page's form and the API's query
both come through here, so both refuse the same input with the same words."""

import datetime

from django import forms

import players.selectors
from chess.titles import CHOICES as TITLE_CHOICES
from grading.calculator.trial import MAX_OPPONENTS, ByHand, Opponent, Trial, calculate, rules_of, trial_month
from grading.engine import EngineInputError
from grading.models import RatingList
from grading.selectors.rule_sets import lists_with_changes
from players.models import Player, is_player_code

HIGHEST_RATING = 3500  # above any rating ever published, by either method
RESULTS = {"1": 2, "0.5": 1, "½": 1, "=": 1, "0": 0}
EMPTY_ROWS = 6  # opponent rows of an empty form
RESULT_CHOICES = [("", "–"), ("1", "won"), ("0.5", "drew"), ("0", "lost")]


def players_given(data) -> dict:
    """{code: Player} of every federation code ``data`` gives, the player's and the opponents',
    in one query (a merged duplicate's code gives the record kept): the forms look them up here,
    where each code was a query of its own."""
    if data is None:
        return {}
    given = [data.get("player", "")] + [
        value for key in data if key.endswith("-opponent") for value in data.getlist(key)
    ]
    codes = {code.strip().upper() for code in given if is_player_code(code.strip().upper())}
    found = players.selectors.players_by_codes(codes)
    return {code: player.merged_into if player.merged_into_id else player for code, player in found.items()}


def player_by_code(code: str, given: dict) -> Player | None:
    """The player with ``code`` (any case) among ``given`` (players_given), or None."""
    return given.get(code.strip().upper())


class CalculatorForm(forms.Form):
    # The lists are read once per form, in __init__: a ModelChoiceField reads them for each
    # check and each rendering, through a database cursor of its own.
    list = forms.ChoiceField(
        choices=(), error_messages={"invalid_choice": forms.ModelChoiceField.default_error_messages["invalid_choice"]}
    )
    player = forms.CharField(
        label="Player code", required=False, max_length=20, help_text="Their latest published rating is used."
    )
    rating = forms.IntegerField(label="or a rating", required=False, min_value=1, max_value=HIGHEST_RATING)
    type = forms.ChoiceField(choices=[("full", "Full"), ("partial", "Partial")], required=False, initial="full")
    games = forms.IntegerField(
        label="Games behind it", required=False, min_value=0, max_value=100_000, help_text="Empty: 30 or more."
    )
    age = forms.IntegerField(label="Age", required=False, min_value=4, max_value=110, help_text="Empty: an adult.")
    title = forms.ChoiceField(label="FIDE title", choices=[("", "none"), *TITLE_CHOICES], required=False)

    def __init__(self, *args, today: datetime.date, players: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.today, self.players = today, players
        self.lists = {rating_list.code: rating_list for rating_list in lists_with_changes()}
        self.fields["list"].choices = [(code, rating_list.name) for code, rating_list in self.lists.items()]

    def clean_list(self) -> RatingList:
        return self.lists[self.cleaned_data["list"]]

    def clean_player(self):
        code = self.cleaned_data["player"].strip()
        if not code:
            return None
        player = player_by_code(code, self.players)
        if player is None:
            raise forms.ValidationError(f"No player has the code {code}.")
        return player

    def clean(self):
        data = super().clean()
        rating_list = data.get("list")
        if rating_list is None or self.errors:
            return data
        self.month = trial_month(rating_list, self.today)
        self.rules = rules = rules_of(rating_list, self.month)
        typed = [name for name in ("rating", "games", "age", "title") if data.get(name) not in (None, "")]
        if data.get("player"):
            for name in typed:
                self.add_error(name, "Leave this empty when a player code is given: their own record is used.")
            return data
        rating, partial = data.get("rating"), data.get("type") == "partial"
        if rating is not None and rating < rules.rating_floor:
            self.add_error("rating", f"No rating on this list is under {rules.rating_floor}.")
        if rating is not None and partial:
            if rules.is_elo:
                self.add_error("type", "The Elo method has no Partial ratings: a rating is Full.")
            elif data.get("games") is None or not 0 < data["games"] < rules.full_rating_games:
                self.add_error(
                    "games", f"A Partial rating stands on 1 to {rules.full_rating_games - 1} games: give how many."
                )
        return data

    def subject(self) -> Player | ByHand:
        data = self.cleaned_data
        if data["player"]:
            return data["player"]
        return ByHand(data["rating"], data["type"] or "full", data["games"], data["age"], data["title"])


class OpponentForm(forms.Form):
    opponent = forms.CharField(label="Opponent: code or rating", required=False, max_length=20)
    result = forms.ChoiceField(label="Result", choices=RESULT_CHOICES, required=False)

    def __init__(self, *args, players: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players

    def clean(self):
        data = super().clean()
        text, result = data.get("opponent", "").strip(), data.get("result", "")
        if not text and not result:
            return data  # a row left empty
        if not text:
            self.add_error("opponent", "Give the opponent's code or rating.")
        elif is_player_code(text.upper()):
            data["player"] = player_by_code(text, self.players)
            if data["player"] is None:
                self.add_error("opponent", f"No player has the code {text}.")
        elif text.isdigit() and len(text) <= 4 and 1 <= int(text) <= HIGHEST_RATING:
            data["rating"] = int(text)
        else:
            self.add_error("opponent", f"Give a federation code (e.g. 123456A) or a rating (e.g. 1850), not “{text}”.")
        if not result:
            self.add_error("result", "Choose the result.")
        return data

    def game(self) -> Opponent | None:
        data = self.cleaned_data
        if not data.get("result"):
            return None
        return Opponent(data.get("player"), data.get("rating"), RESULTS[data["result"]])


class BaseOpponentFormSet(forms.BaseFormSet):
    default_error_messages = {
        "too_many_forms": f"At most {MAX_OPPONENTS} opponents.",
        "missing_management_form": "The form's row count (o-TOTAL_FORMS) is missing or not a number.",
    }

    def clean(self):
        if any(self.errors) or not self.management_form.is_valid():
            return
        if not self.opponents():
            raise forms.ValidationError("Give at least one opponent and the result of the game.")
        player = getattr(self, "player", None)
        if any(o.player == player for o in self.opponents() if o.player):
            raise forms.ValidationError(f"{player.name} cannot be their own opponent.")

    def opponents(self) -> list[Opponent]:
        return [o for o in (form.game() for form in self.forms if form.cleaned_data) if o]


OpponentFormSet = forms.formset_factory(
    OpponentForm,
    formset=BaseOpponentFormSet,
    extra=0,
    max_num=MAX_OPPONENTS,
    absolute_max=MAX_OPPONENTS,
    validate_max=True,
)


def trial_of(data, today: datetime.date) -> tuple[Trial | None, CalculatorForm, BaseOpponentFormSet]:
    """The calculator's answer to ``data`` (a QueryDict, or None for an empty form), with the
    forms that hold its errors: the answer is None where any field is wrong."""
    given = players_given(data)
    form = CalculatorForm(data, today=today, players=given)
    opponents = OpponentFormSet(
        data, prefix="o", initial=None if data is not None else [{}] * EMPTY_ROWS, form_kwargs={"players": given}
    )
    if data is None:
        return None, form, opponents
    valid = form.is_valid()
    opponents.player = form.cleaned_data.get("player") if valid else None
    if not (opponents.is_valid() and valid):
        return None, form, opponents
    try:
        trial = calculate(
            form.cleaned_data["list"], form.month, form.rules, form.subject(), opponents.opponents(), form.lists
        )
        return trial, form, opponents
    except EngineInputError as error:
        form.add_error(None, f"The rating method refused these games: {error.message}")
        return None, form, opponents
