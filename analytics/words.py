"""The newsletter's words, one catalogue per language (`kroeg newsletter --lang`).

Every sentence and heading the bulletin prints is here, as a `str.format` template; the
code fills in names and numbers. To add a language, copy the `en` block under a new
code, translate the values (keep the `{names}`), and add the code to `LANGUAGES`
(docs/STATS.md, "The newsletter in other languages").
"""

from __future__ import annotations

from datetime import date

from kroeg.analytics import formats

__all__ = ["LANGUAGES", "Words", "words"]

_EN: dict[str, str] = {
    "lang": "en",
    "title": "{games} in {month}",
    "title_no_games": "The club in {month}",
    "and": "and",
    "bulletin": "THE CLUB BULLETIN",
    "the_month": "The month",
    "summary": "In {month} the club met on {evenings} and played {games}, {hands} in all",
    "no_club_games": "There were no club games in {month}.",
    "simulated_left_out": "Left out: {games} played by the bots (simulated); "
                          "--include-simulated counts them.",
    "simulated_counted": "Counted in: {games} played by the bots (simulated).",
    "at_venues": ", at {venues}",
    "games_won": "Games won: {who}.",
    "games_lost": "Games lost: {who}.",
    "evening": "evening", "evenings": "evenings",
    "game": "game", "games": "games",
    "hand": "hand", "hands": "hands",
    "leaderboard": "Leaderboard: {ruleset}",
    "ranking": "Fewest lost per hand first, each rule set on its own (points and lives are "
               "never added); ranked from {minimum} hands in the month; * fewer than {small} "
               "hands.",
    "board_line": "{player} — {value} {unit} lost per hand over {hands}{small}",
    # What a rule set's scores count (games.unit, from Ruleset.unit), one key per unit.
    "penalty points": "penalty points", "lives": "lives", "points": "points",
    "nobody_ranked": "Nobody played {minimum} hands under these rules this month.",
    "unranked": "Fewer than {minimum} hands, not ranked: {who}.",
    "game_name": "the game of {day}{venue} ({players})",
    "nth_game_name": "game {number} of {day}{hour}{venue} ({players})",
    "at_venue": " at {venue}",
    "undated": "an undated evening",
    "a_game": "a game of the month",
    "bluffer": "Biggest bluffer",
    "bluffer_text": "{player}: {share} of knocks were bluffs.",
    "best_bluff": "Best bluff",
    "best_bluff_text": "{player} knocked to {stake} in hand {hand} of {game} with a {chance} "
                       "chance of winning, and everyone folded: {haul} in.",
    "costliest": "Costliest fold",
    "costliest_text": "{player} folded for {cost} in hand {hand} of {game}{regret}.",
    "would_have_won": " — and would have won",
    "regret": "Most regrettable fold",
    "regret_text": "{player} folded for {cost} in hand {hand} of {game}; playing on would have "
                   "won the hand.",
    "caller": "Most calls made good",
    "caller_text": "{player}: {made} of trump calls made good (Troefcall).",
    "accurate": "Most accurate player",
    "accurate_text": "{player}: {share} accuracy answering knocks, judged on what they could "
                     "see.",
    "luckiest": "Luckiest cards",
    "luckiest_text": "{player}: dealt cards whose chance of winning the hand was {luck} "
                     "percentage points above an average hand's.",
    "unluckiest": "Unluckiest cards",
    "unluckiest_text": "{player}: dealt cards whose chance of winning the hand was {luck} "
                       "percentage points below an average hand's.",
    "season_heading": "{season}: the season after {month}",
    "season_rules": "An evening's places score {points} (games won minus games lost, level "
                    "players sharing); ranked from {minimum}{dropped}.",
    "season_dropped": ", each player's worst {worst} not counted",
    "season_place": "place", "season_evenings": "evenings counted",
    "season_counted": "{counted} of {played}",
    "season_unranked": "Not ranked yet (fewer than {minimum}): {who}.",
    "riser": "Riser of the month",
    "riser_text": "{player}: rating up {change} in {game} over {games} games this month "
                  "({before} to {after}).",
    "faller": "Faller of the month",
    "faller_text": "{player}: rating down {change} in {game} over {games} games this month "
                   "({before} to {after}).",
    "blunder": "Blunder of the month",
    "blunder_stay": "{player} stayed in at a stake of {stake} in hand {hand} of {game}: "
                    "expected to cost {chosen}, where folding cost {other}.",
    "blunder_fold": "{player} folded at a stake of {stake} in hand {hand} of {game}: it cost "
                    "{chosen}, where staying in was expected to cost {other}.",
    "blunder_stay_side": "{player} stayed in at a stake of {stake} in hand {hand} of {game}: "
                         "expected to cost {chosen}, where folding was expected to cost "
                         "{other} (the partners would have played on for the side).",
    "blunder_fold_side": "{player} folded at a stake of {stake} in hand {hand} of {game}, "
                         "leaving the partners to play on for the side: expected to cost "
                         "{chosen}, where staying in was expected to cost {other}.",
    "top_hand": "Hand of the month",
    "top_hand_text": "Hand {hand} of {game}, played for a stake of {stake}.",
    "story": "The hand, as it went",
    "story_html": "The hand of the month, as it went",
    "every_player": "Every player",
    "every_side": "Every side (team toepen)",
    "player": "player",
    "side": "side",
    "bluffing": "Bluffing and folding",
    "bluff_chart": "Bluff rate (bluffs / knocks)",
    "fold_chart": "What folding cost",
    "fold_caption": "{cost} in {folds} folds",
    "sides": "Troefcall: the partnerships",
    "troef_players": "Troefcall: every player",
    "calls_chart": "Calls made good (the majority of the tricks)",
    "footnote": "Rates show done/opportunities. Definitions: kroeg docs/STATS.md.",
    "footer": "Rates show done/opportunities. Made with kroeg.",
    # The hand's story, one template per event kind.
    "s_deal": "{player} deals; the stake is {amount}",
    "s_cards": "{player}: {cards}",
    "s_knock": "{player} knocks: the stake is now {amount}",
    "s_stay": "{player} stays in",
    "s_fold": "{player} folds",
    "s_laundry": "{player} swaps the hand (laundry)",
    "s_armoede": "{player} shows poverty (armoede)",
    "s_check": "{player} checks {target}",
    "s_pay": "{player} pays {amount}",
    "s_win": "{player} wins the hand",
    "s_win_many": "{players} win the hand",
    "s_eliminated": "{player} is out of the game",
    # The statistics' short headings in the players' tables.
    "win_rate": "won", "cost_per_hand": "lost/hand", "knock_rate": "knocks",
    "bluff_rate": "bluffs", "fold_rate": "folds", "regret_rate": "fold regret",
    "calls_made_rate": "calls made good", "kap_rate": "kap partij",
    "baunie_success": "baunie made", "tricks_per_hand": "tricks/hand",
    "points_per_hand": "points/hand",
}  # fmt: skip

_NL: dict[str, str] = {
    "lang": "nl",
    "title": "{games} in {month}",
    "title_no_games": "De club in {month}",
    "and": "en",
    "bulletin": "HET CLUBBLAD",
    "the_month": "De maand",
    "summary": "In {month} kwam de club {evenings} bijeen en speelde {games}, {hands} in "
               "totaal",
    "no_club_games": "In {month} waren er geen clubspellen.",
    "simulated_left_out": "Weggelaten: {games} gespeeld door de bots (gesimuleerd); "
                          "--include-simulated telt ze mee.",
    "simulated_counted": "Meegeteld: {games} gespeeld door de bots (gesimuleerd).",
    "at_venues": ", in {venues}",
    "games_won": "Spellen gewonnen: {who}.",
    "games_lost": "Spellen verloren: {who}.",
    "evening": "avond", "evenings": "avonden",
    "game": "spel", "games": "spellen",
    "hand": "hand", "hands": "handen",
    "leaderboard": "Ranglijst: {ruleset}",
    "ranking": "Minste verlies per hand eerst, elke spelregel apart (punten en levens worden "
               "nooit opgeteld); in de lijst vanaf {minimum} handen in de maand; * minder dan "
               "{small} handen.",
    "board_line": "{player} — {value} {unit} verloren per hand over {hands}{small}",
    "penalty points": "strafpunten", "lives": "levens", "points": "punten",
    "nobody_ranked": "Niemand speelde deze maand {minimum} handen met deze regels.",
    "unranked": "Minder dan {minimum} handen, niet in de lijst: {who}.",
    "game_name": "het spel van {day}{venue} ({players})",
    "nth_game_name": "spel {number} van {day}{hour}{venue} ({players})",
    "at_venue": " in {venue}",
    "undated": "een avond zonder datum",
    "a_game": "een spel van de maand",
    "bluffer": "Grootste bluffer",
    "bluffer_text": "{player}: {share} van het kloppen was bluf.",
    "best_bluff": "Beste bluf",
    "best_bluff_text": "{player} klopte naar {stake} in hand {hand} van {game} met {chance} kans "
                       "om te winnen, en iedereen paste: {haul} binnen.",
    "costliest": "Duurste pas",
    "costliest_text": "{player} paste voor {cost} in hand {hand} van {game}{regret}.",
    "would_have_won": " — en had gewonnen",
    "regret": "Spijtigste pas",
    "regret_text": "{player} paste voor {cost} in hand {hand} van {game}; wie doorspeelde had "
                   "de hand gewonnen.",
    "caller": "Meeste troef waargemaakt",
    "caller_text": "{player}: {made} van de troefroepen waargemaakt (Troefcall).",
    "accurate": "Scherpste speler",
    "accurate_text": "{player}: {share} nauwkeurig op een klop, naar wat die kon zien.",
    "luckiest": "Beste kaarten",
    "luckiest_text": "{player}: kreeg kaarten met {luck} procentpunt meer kans om de hand te "
                     "winnen dan gemiddeld.",
    "unluckiest": "Slechtste kaarten",
    "unluckiest_text": "{player}: kreeg kaarten met {luck} procentpunt minder kans om de hand "
                       "te winnen dan gemiddeld.",
    "season_heading": "{season}: de stand na {month}",
    "season_rules": "Een avond geeft per plaats {points} punten (gewonnen min verloren spellen, "
                    "gelijken delen); in de stand vanaf {minimum}{dropped}.",
    "season_dropped": ", de slechtste {worst} van elke speler telt niet mee",
    "season_place": "plaats", "season_evenings": "avonden geteld",
    "season_counted": "{counted} van {played}",
    "season_unranked": "Nog niet in de stand (minder dan {minimum}): {who}.",
    "riser": "Stijger van de maand",
    "riser_text": "{player}: rating {change} omhoog bij {game} in {games} potjes deze maand "
                  "(van {before} naar {after}).",
    "faller": "Daler van de maand",
    "faller_text": "{player}: rating {change} omlaag bij {game} in {games} potjes deze maand "
                   "(van {before} naar {after}).",
    "blunder": "Blunder van de maand",
    "blunder_stay": "{player} ging mee bij een inzet van {stake} in hand {hand} van "
                    "{game}: dat kostte naar verwachting {chosen}, passen kostte {other}.",
    "blunder_fold": "{player} paste bij een inzet van {stake} in hand {hand} van {game}: dat "
                    "kostte {chosen}, meegaan naar verwachting {other}.",
    "blunder_stay_side": "{player} ging mee bij een inzet van {stake} in hand {hand} van "
                         "{game}: dat kostte naar verwachting {chosen}, passen naar "
                         "verwachting {other} (de partners hadden voor de ploeg "
                         "doorgespeeld).",
    "blunder_fold_side": "{player} paste bij een inzet van {stake} in hand {hand} van {game} "
                         "en liet de partners voor de ploeg doorspelen: dat kostte naar "
                         "verwachting {chosen}, meegaan naar verwachting {other}.",
    "top_hand": "Hand van de maand",
    "top_hand_text": "Hand {hand} van {game}, gespeeld om een inzet van {stake}.",
    "story": "De hand, zoals hij ging",
    "story_html": "De hand van de maand, zoals hij ging",
    "every_player": "Alle spelers",
    "every_side": "Alle koppels (toepen in teams)",
    "player": "speler",
    "side": "koppel",
    "bluffing": "Bluffen en passen",
    "bluff_chart": "Bluf (bluf / kloppen)",
    "fold_chart": "Wat passen kostte",
    "fold_caption": "{cost} in {folds} keer passen",
    "sides": "Troefcall: de koppels",
    "troef_players": "Troefcall: alle spelers",
    "calls_chart": "Troef waargemaakt (de meeste slagen)",
    "footnote": "Cijfers als gedaan/kansen. Definities: kroeg docs/STATS.md.",
    "footer": "Cijfers als gedaan/kansen. Gemaakt met kroeg.",
    "s_deal": "{player} deelt; de inzet is {amount}",
    "s_cards": "{player}: {cards}",
    "s_knock": "{player} klopt (toept): de inzet is nu {amount}",
    "s_stay": "{player} gaat mee",
    "s_fold": "{player} past",
    "s_laundry": "{player} wast (vuile was)",
    "s_armoede": "{player} meldt armoede",
    "s_check": "{player} controleert {target}",
    "s_pay": "{player} betaalt {amount}",
    "s_win": "{player} wint de hand",
    "s_win_many": "{players} winnen de hand",
    "s_eliminated": "{player} ligt eruit",
    "win_rate": "gewonnen", "cost_per_hand": "verlies/hand", "knock_rate": "klopt",
    "bluff_rate": "bluf", "fold_rate": "past", "regret_rate": "spijt van passen",
    "calls_made_rate": "troef waargemaakt", "kap_rate": "kap", "baunie_success": "baunie",
    "tricks_per_hand": "slagen/hand", "points_per_hand": "punten/hand",
}  # fmt: skip

#: Every language the bulletin can be written in.
LANGUAGES = {"en": _EN, "nl": _NL}


class Words:
    """One language's words: `w("key", name=value)` fills a template."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.table = LANGUAGES[lang]

    def __call__(self, key: str, **values: object) -> str:
        return self.table[key].format(**values)

    def count(self, n: int, one: str, many: str) -> str:
        """`1 evening`, `2,434 hands`, `2.434 handen`."""
        return f"{formats.integer(n, self.lang)} {self.table[one] if n == 1 else self.table[many]}"

    def month(self, first: date) -> str:
        """`November 2026`, `november 2026`."""
        return formats.month(first, self.lang)

    def number(self, value: float, digits: int) -> str:
        """`0.97`, `0,97`: a figure in a sentence, as the language writes it."""
        return formats.decimal(value, digits, self.lang)

    def percent(self, fraction: float, digits: int = 0) -> str:
        """`73%`; `73 %` in French."""
        return formats.percent(fraction, digits, self.lang)


def words(lang: str) -> Words:
    """The catalogue for `lang` (one of LANGUAGES)."""
    return Words(lang)
