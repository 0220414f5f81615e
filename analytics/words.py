"""The words of the bulletin (`kroeg newsletter --lang`), as gettext messages.

Every sentence and heading the bulletin prints is a message here: its key (gettext's
context, `msgctxt`) and its English text (`msgid`), a `str.format` template the code
fills with names and numbers. `make messages` extracts them into `kroeg/locale/kroeg.pot`
and merges that into each language's catalogue, `kroeg/locale/<lang>/LC_MESSAGES/
kroeg.po`, where a translator writes the `msgstr`; the build compiles each into its
`.mo`. A language is there when its catalogue is: docs/LANGUAGES.md says how to add one,
and each language's glossary of the game's words, taken from the seed texts.

Numbers and dates are not words: `analytics.formats` writes them as the language does.
"""

from __future__ import annotations

import functools
import gettext
import io
from datetime import date
from pathlib import Path

from kroeg.analytics import formats

__all__ = [
    "ENGLISH",
    "EXTRACT_KEYWORDS",
    "LANGUAGES",
    "LOCALE_DIR",
    "PLURALS",
    "Words",
    "catalogue",
    "language_name",
    "words",
]

#: The catalogues: `<lang>/LC_MESSAGES/kroeg.po` (and its compiled `.mo`), and the
#: template `kroeg.pot` extracted from this module.
LOCALE_DIR = Path(__file__).parent.parent / "locale"  # kroeg/locale (no resolve: a link)
DOMAIN = "kroeg"
#: The calls `make messages` extracts (babel.cfg names the files), as pybabel spells them:
#: `say:1c,2` is `say(key, english, ...)`, argument 1 the context, argument 2 the text.
EXTRACT_KEYWORDS = ("_m:1c,2", "_n:1c,2,3", "say:1c,2", "say_n:1c,2,3")


def _m(key: str, text: str) -> tuple[str, str]:
    """A message: its key and its English text (extracted as `_m:1c,2`)."""
    return key, text


def _n(key: str, one: str, many: str) -> tuple[str, tuple[str, str]]:
    """A count's message, singular and plural (extracted as `_n:1c,2,3`); a language has
    as many forms as its `Plural-Forms` says (Malay one, Dutch two)."""
    return key, (one, many)


_MESSAGES = (
    _m("title", "{games} in {month}"),
    _m("title_no_games", "The club in {month}"),
    _m("and", "and"),
    _m("bulletin", "THE CLUB BULLETIN"),
    _m("the_month", "The month"),
    _m("summary", "In {month} the club met on {evenings} and played {games}, {hands} in all"),
    _m("no_club_games", "There were no club games in {month}."),
    _m("simulated_left_out",
        "Left out: {games} played by the bots (simulated); "
        "--include-simulated counts them."
    ),
    _m("simulated_counted", "Counted in: {games} played by the bots (simulated)."),
    _m("at_venues", ", at {venues}"),
    _m("games_won", "Games won: {who}."),
    _m("games_lost", "Games lost: {who}."),
    _m("hands", "hands"),
    # A count in a sentence: `1 evening`, `2,434 hands` (the number is written for the language).
    _n("n_evenings", "{n} evening", "{n} evenings"),
    _n("n_games", "{n} game", "{n} games"),
    _n("n_hands", "{n} hand", "{n} hands"),
    _m("leaderboard", "Leaderboard: {ruleset}"),
    _m("ranking",
        "Fewest lost per hand first, each rule set on its own (points and lives are "
        "never added); ranked from {minimum} hands in the month; * fewer than {small} "
        "hands."
    ),
    _m("board_line", "{player} — {value} {unit} lost per hand over {hands}{small}"),
    # What a rule set's scores count (games.unit, from Ruleset.unit), one key per unit.
    _m("penalty points", "penalty points"),
    _m("lives", "lives"),
    _m("points", "points"),
    # A preset's name in a heading (`Leaderboard: classic`); a club's own names stay as written.
    _m("ruleset_classic", "classic"),
    _m("ruleset_lives", "lives"),
    _m("ruleset_troefcall", "troefcall"),
    _m("unranked_boards", "Rule sets without a leaderboard"),
    _m("unranked_boards_note",
       "Nobody played {minimum} hands under these rules this month; who played them:"),
    _m("unranked", "Fewer than {minimum} hands, not ranked: {who}."),
    _m("game_name", "the game of {day}{venue} ({players})"),
    _m("nth_game_name", "game {number} of {day}{hour}{venue} ({players})"),
    _m("at_venue", " at {venue}"),
    _m("undated", "an undated evening"),
    _m("a_game", "a game of the month"),
    _m("bluffer", "Biggest bluffer"),
    _m("bluffer_text", "{player}: {share} of their knocks were bluffs ({bluffs} of {knocks})."),
    _m("best_bluff", "Best bluff"),
    _m("best_bluff_text",
        "{player} knocked to {stake} in hand {hand} of {game} with a {chance} chance of "
        "winning, below the {fair} a seat expects there (a bluff), and everyone folded, "
        "paying {haul} {unit} between them."
    ),
    _m("costliest", "Costliest fold"),
    _m("costliest_text", "{player} folded for {cost} in hand {hand} of {game}{regret}."),
    _m("would_have_won", " — and would have won"),
    _m("regret", "Most regrettable fold"),
    _m("regret_text",
        "{player} folded for {cost} in hand {hand} of {game}; had they played on, they "
        "would have won the hand."
    ),
    _m("caller", "Most calls made good"),
    _m("caller_text",
        "{player}: {share} of their trump calls made good in Troefcall ({made} of {calls})."
    ),
    _m("accurate", "Most accurate player"),
    _m("accurate_text",
        "{player}: {share} accuracy answering knocks, judged on what they could "
        "see."
    ),
    _m("luckiest", "Luckiest cards"),
    _m("luckiest_text",
        "{player}: dealt cards whose chance of winning the hand was {luck} "
        "percentage points above an average hand's."
    ),
    _m("unluckiest", "Unluckiest cards"),
    _m("unluckiest_text",
        "{player}: dealt cards whose chance of winning the hand was {luck} "
        "percentage points below an average hand's."
    ),
    _m("season_heading", "{season}: the standings after {month}"),
    _m("season_summary", "{season}: {game}, {first} to {last}, {evenings}."),
    _m("season_rules",
        "An evening's places score {points} (games won minus games lost, level "
        "players sharing); ranked from {minimum}{dropped}."
    ),
    _n("season_dropped",
        ", each player's worst evening not counted",
        ", each player's worst {n} evenings not counted",
    ),
    _m("season_place", "place"),
    _m("season_evenings", "evenings counted"),
    _m("season_counted", "{counted} of {played}"),
    _m("season_unranked", "Not ranked yet (fewer than {minimum}): {who}."),
    _m("riser", "Riser of the month"),
    _m("riser_text",
        "{player}: rating up {change} in {game} over {games} games this month "
        "({before} to {after})."
    ),
    _m("faller", "Faller of the month"),
    _m("faller_text",
        "{player}: rating down {change} in {game} over {games} games this month "
        "({before} to {after})."
    ),
    _m("blunder", "Blunder of the month"),
    _m("blunder_stay",
        "{player} stayed in at a stake of {stake} in hand {hand} of {game}: "
        "expected to cost {chosen}, where folding cost {other}."
    ),
    _m("blunder_fold",
        "{player} folded at a stake of {stake} in hand {hand} of {game}: it cost "
        "{chosen}, where staying in was expected to cost {other}."
    ),
    _m("blunder_stay_side",
        "{player} stayed in at a stake of {stake} in hand {hand} of {game}: "
        "expected to cost {chosen}, where folding was expected to cost "
        "{other} (the partners would have played on for the side)."
    ),
    _m("blunder_fold_side",
        "{player} folded at a stake of {stake} in hand {hand} of {game}, "
        "leaving the partners to play on for the side: expected to cost "
        "{chosen}, where staying in was expected to cost {other}."
    ),
    _m("blunder_knock_play_on",
        "{player} knocked at a stake of {stake} in hand {hand} of {game}: "
        "expected to cost {chosen}, where playing on without a knock was expected to "
        "cost {other}."
    ),
    _m("blunder_knock_stay",
        "{player} knocked back at a stake of {stake} in hand {hand} of {game}: "
        "expected to cost {chosen}, where staying in was expected to cost {other}."
    ),
    _m("blunder_knock_fold",
        "{player} knocked back at a stake of {stake} in hand {hand} of {game}: "
        "expected to cost {chosen}, where folding cost {other}."
    ),
    _m("blunder_laundry",
        "{player} swapped the laundry in hand {hand} of {game}: expected to cost "
        "{chosen}, where keeping the hand was expected to cost {other}."
    ),
    _m("blunder_laundry_false",
        "{player} swapped the laundry on a false claim in hand {hand} of {game}: "
        "expected to cost {chosen}, where keeping the hand was expected to cost {other}."
    ),
    _m("blunder_armoede",
        "{player} declared armoede in hand {hand} of {game}: expected to cost "
        "{chosen}, where keeping the hand was expected to cost {other}."
    ),
    _m("blunder_armoede_false",
        "{player} declared armoede on a false claim in hand {hand} of {game}: "
        "expected to cost {chosen}, where keeping the hand was expected to cost {other}."
    ),
    _m("top_hand", "Hand of the month"),
    _m("top_hand_text", "Hand {hand} of {game}, played for a stake of {stake}."),
    _m("story", "The hand, as it went"),
    _m("story_html", "The hand of the month, as it went"),
    _m("every_player", "Every player: {ruleset}"),
    _m("every_side", "Every side (team toepen): {ruleset}"),
    _m("player", "player"),
    _m("side", "side"),
    _m("bluffing", "Bluffing and folding"),
    _m("bluff_chart", "Bluff rate (bluffs / knocks)"),
    _m("fold_chart", "What folding cost"),
    _n("fold_caption", "{cost} in {n} fold", "{cost} in {n} folds"),
    _m("sides", "Troefcall: the partnerships"),
    _m("troef_players", "Troefcall: every player"),
    _m("calls_chart", "Calls made good (the majority of the tricks)"),
    _m("footnote",
        "A figure such as 40% 12/30 means 12 times out of 30 chances; * marks fewer than "
        "{small} chances, too few to go by."
    ),
    _m("footer",
        "A figure such as 40% 12/30 means 12 times out of 30 chances; * marks fewer than "
        "{small} chances, too few to go by. Made with kroeg."
    ),
    # The hand's story: the cards dealt and who won (each move is said as the replay says it).
    _m("s_cards", "{player}: {cards}"),
    _m("s_win", "{player} wins the hand"),
    _m("s_win_many", "{players} win the hand"),
    # The statistics' short headings in the players' tables (column headings).
    _m("win_rate", "won"),
    _m("cost_per_hand", "lost/hand"),
    _m("knock_rate", "knocks/hand"),
    _m("bluff_rate", "bluffs"),
    _m("fold_rate", "folds"),
    _m("regret_rate", "fold regret"),
    _m("calls_made_rate", "calls made good"),
    _m("kap_rate", "kap partij"),
    _m("baunie_success", "baunie made"),
    _m("tricks_per_hand", "tricks/hand"),
    _m("points_per_hand", "points/hand"),
)  # fmt: skip

#: Every message's English text by key.
ENGLISH: dict[str, str] = {key: text for key, text in _MESSAGES if isinstance(text, str)}
#: The counts' English singular and plural by key.
PLURALS: dict[str, tuple[str, str]] = {
    key: text for key, text in _MESSAGES if isinstance(text, tuple)
}


def _languages() -> tuple[str, ...]:
    """English, then every language with a catalogue, by code."""
    found = {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.[mp]o")}
    return ("en", *sorted(found - {"en"}))


#: Every language the bulletin can be written in.
LANGUAGES: tuple[str, ...] = _languages()


@functools.cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """`lang`'s translations: the compiled `.mo` the build made, or, in a checkout where
    the `.po` is newer (a translator's edit not yet compiled), the `.po` compiled in
    memory by Babel the same way. English is the messages themselves."""
    if lang == "en":
        return gettext.NullTranslations()
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        compiled = io.BytesIO()
        write_mo(compiled, read_po(handle, locale=lang, domain=DOMAIN))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


class Words:
    """One language's words: `w("key", name=value)` fills a template."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._translations = catalogue(lang)

    def text(self, key: str) -> str:
        """The template of `key` in this language (English where it has none yet)."""
        return self._translations.pgettext(key, ENGLISH[key])

    def __call__(self, key: str, **values: object) -> str:
        return self.text(key).format(**values)

    def count(self, n: int, key: str, **values: object) -> str:
        """`1 evening`, `2,434 hands`, `2.434 handen`: `key` one of PLURALS, in the form
        the language takes for `n`, filled with `n` as it writes it and `values`."""
        one, many = PLURALS[key]
        template = self._translations.npgettext(key, one, many, n)
        return template.format(n=formats.integer(n, self.lang), **values)

    def say(self, key: str, english: str, **values: object) -> str:
        """A message written where it is used (the dashboard's, the replay's): `key` its
        context, `english` its text (extracted as `say:1c,2`), filled with `values`."""
        return self._translations.pgettext(key, english).format(**values)

    def say_n(self, key: str, one: str, many: str, n: int, **values: object) -> str:
        """A count written where it is used (extracted as `say_n:1c,2,3`): the form the
        language takes for `n`, filled with `n` as it writes it and `values`."""
        template = self._translations.npgettext(key, one, many, n)
        return template.format(n=formats.integer(n, self.lang), **values)

    @property
    def name(self) -> str:
        """The language's name in itself, as Babel (CLDR) writes it: `Nederlands`."""
        return language_name(self.lang)

    def ruleset(self, label: str) -> str:
        """A rule set's name with its variants (`lives + team-toepen`): a preset's name in
        this language, a variant's and a club's own as written."""
        name, plus, variants = label.partition(" + ")
        key = f"ruleset_{name}"
        return (self.text(key) if key in ENGLISH else name) + plus + variants

    def month(self, first: date) -> str:
        """`November 2026`, `november 2026`."""
        return formats.month(first, self.lang)

    def number(self, value: float, digits: int) -> str:
        """`0.97`, `0,97`: a figure in a sentence, as the language writes it."""
        return formats.decimal(value, digits, self.lang)

    def percent(self, fraction: float, digits: int = 0) -> str:
        """`73%`; `73 %` in French."""
        return formats.percent(fraction, digits, self.lang)


def language_name(lang: str) -> str:
    """`nl` as `Nederlands`, `fr` as `Français`: a language named in itself (CLDR)."""
    from babel import Locale

    name = Locale.parse(lang).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def words(lang: str) -> Words:
    """The catalogue for `lang` (one of LANGUAGES)."""
    return Words(lang)
