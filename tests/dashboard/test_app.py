"""The dashboard pages under Streamlit's AppTest."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block, Button

from kroeg.analytics.derived import analysed, enrich
from kroeg.analytics.evenings import game_names
from kroeg.analytics.verdict_words import swap_verdict
from kroeg.analytics.views import connect
from kroeg.analytics.words import words
from kroeg.dashboard import serve
from kroeg.dashboard.replay import TableState, hand_states
from kroeg.dashboard.table import PAGE_TOP
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset

APP = str(serve.APP)
SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    games = notation.load(SAMPLES / "laundry-and-checks.txt")
    Dataset(tmp_path / "ds").write(games)
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "ds"))
    return tmp_path / "ds"


def app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=30)


def test_overview_shows_the_dataset_in_numbers(club: Path) -> None:
    at = app().run()
    assert not at.exception
    assert [m.value for m in at.metric] == ["1", "2", str(len(Dataset(club).events_table())), "4"]


def plain(markdown: str) -> str:
    """What a Markdown source shows: names reach it with their punctuation escaped."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def page_html(at: AppTest) -> str:
    return "".join(m.value for m in at.markdown) + "".join(h.value for h in at.html)


def hand_two(club: Path) -> tuple[str, TableState, TableState]:
    """The sample game's id, and the steps of Ben's knock and Carla's fold in its hand 2."""
    (game_id,) = Dataset(club).game_ids()
    states = hand_states(Dataset(club).read_game(game_id), 2, reveal_all=False)
    knock = next(s for s in states if s.text.startswith("Ben knocks"))
    fold = next(s for s in states if s.text.startswith("Carla folds"))
    return game_id, knock, fold


def replay_at(step: int) -> AppTest:
    """The Replay page on hand 2 of the sample game, at `step`."""
    at = app().run()
    at.switch_page("views/replay.py").run()
    at.selectbox(key="replay_hand").select(2).run()
    at.slider(key="replay_step").set_value(step).run()
    return at


def test_replay_steps_through_a_hand_in_both_views(club: Path) -> None:
    game_id, knock_state, fold_state = hand_two(club)
    knock, fold = knock_state.step, fold_state.step
    states = hand_states(Dataset(club).read_game(game_id), 2, reveal_all=False)
    at = replay_at(knock)
    assert not at.exception
    shown = page_html(at)
    assert shown.count(PAGE_TOP) == 1  # the top of the page: the Record page's rule too
    assert "stake 2" in shown
    assert f"Step {knock}/{len(states) - 1}:</b> Ben knocks: the stake is now 2" in shown
    assert (
        f'<li data-kroeg-step="{knock}" class="now">▶ Ben knocks: the stake is now 2</li>' in shown
    )
    # What the table saw: Dan's new hand lies face up after his caught bluff swap,
    # Anna's cards are still face down.
    assert '<span class="kroeg-card red">10♦</span>' in shown
    assert shown.count('class="kroeg-card back"') == 3 + 3 + 3  # Anna, Ben, Carla: 3 each
    # The moves up to this one are in the list, under the deal and its tricks; what is
    # still to come is not told (the table has not seen it yet).
    assert shown.count("<li data-kroeg-step=") == knock + 1
    assert '<p class="kroeg-group">The deal</p>' in shown
    assert html.escape(fold_state.text) not in shown
    at.slider(key="replay_step").set_value(0).run()  # the deal is one step
    dealing = page_html(at)
    assert "Carla deals; the stake is 1 — 4 cards to each" in dealing
    assert '<span class="kroeg-card">J♠</span>' not in dealing  # no card shown face up
    at.slider(key="replay_step").set_value(fold).run()
    assert re.search(r'class="kroeg-name out[^"]*">Carla', page_html(at))  # folded
    at.selectbox(key="replay_view").set_value("all").run()
    everything = page_html(at)
    assert '<span class="kroeg-card">J♠</span>' in everything  # Anna's jack of spades
    assert 'class="kroeg-card back"' not in everything
    # Every move of the hand is in the list, under the deal, its tricks and its end.
    assert everything.count("<li data-kroeg-step=") == len(states)
    assert '<p class="kroeg-group">Trick 1</p>' in everything
    at.slider(key="replay_step").set_value(0).run()
    assert '<span class="kroeg-card">J♠</span>' in page_html(at)  # all cards: from the deal
    at.slider(key="replay_step").set_value(fold).run()
    assert at.button(key="replay_knock").disabled  # no knock after Carla's fold
    at.button(key="replay_first").click().run()
    assert at.slider(key="replay_step").value == 0
    # Only the buttons that move the step are enabled, at either end.
    assert at.button(key="replay_first").disabled and at.button(key="replay_previous").disabled
    assert not at.button(key="replay_next").disabled
    at.button(key="replay_last").click().run()
    assert at.slider(key="replay_step").value == len(states) - 1
    assert at.button(key="replay_next").disabled and at.button(key="replay_last").disabled
    assert not at.button(key="replay_previous").disabled
    # The end of the hand says how it came out.
    assert (
        "<b>Result:</b> Dan wins the hand (stake 2). Paid: Anna 2, Ben 2, Carla 1, Dan 1. "
        "Scores after the hand: Anna 3 points, Ben 4 points, Carla 1 point, Dan 2 points."
    ) in page_html(at)
    at.button(key="replay_previous").click().run()
    assert "Result:" not in page_html(at)


def test_replay_arrives_from_a_link(club: Path) -> None:
    (game_id,) = Dataset(club).game_ids()
    at = app()
    at.query_params["game"] = game_id
    at.query_params["hand"] = "2"
    at.run()
    at.switch_page("views/replay.py").run()
    assert at.selectbox(key="replay_game").value == game_id


def test_players_page_charts_and_lists_the_hands(club: Path) -> None:
    enrich(Dataset(club))  # knock strength: which knocks were bluffs
    at = app().run()
    at.switch_page("views/players.py").run()
    assert not at.exception
    assert [s.value for s in at.subheader][:4] == [
        "Bluffing",
        "What folding cost, in penalty points",
        "Answering knocks",
        "The numbers, with done / opportunities",
    ]
    at.selectbox(key="who").select("Ben").run()
    game_id, knock_state, fold_state = hand_two(club)
    knock, fold = knock_state.seq, fold_state.seq  # a link names a move by its event number
    shown = page_html(at)
    assert "**Ben's bluffs** (1 shown, at most 50)" in shown
    # Each names its game as people do (its evening's day, its time, its players) and
    # opens the replay at the knock or fold itself.
    name = "23 Oct\\, 20\\:00 — Anna\\, Ben\\, Carla\\, Dan"  # escaped for Markdown
    assert f"[{name} · hand 2](replay?game={game_id}&hand=2&step={knock})" in shown
    assert game_id not in shown.replace(f"game={game_id}", "")
    at.radio(key="behind").set_value("won").run()
    assert "No bluffs that won (everyone folded) yet." in page_html(at)  # Dan saw it through
    at.selectbox(key="who").select("Carla").run()
    at.radio(key="behind").set_value("folds").run()
    link = f"[{name} · hand 2](replay?game={game_id}&hand=2&step={fold}) — the fold cost 1"
    assert link in page_html(at)


def test_an_empty_dataset_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Dataset(tmp_path / "empty").create()
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "empty"))
    at = app().run()
    assert not at.exception
    assert at.info[0].value.startswith("This dataset has no games yet.")


def test_a_missing_dataset_gets_one_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "nope"))
    at = app().run()
    assert [plain(e.value) for e in at.error] == [
        f"{tmp_path / 'nope'}: no such dataset (the folder does not exist)"
    ]


def test_games_page_draws_the_scores_and_links_every_hand(club: Path) -> None:
    (game_id,) = Dataset(club).game_ids()
    at = app().run()
    at.switch_page("views/games.py").run()
    assert not at.exception
    assert [s.value for s in at.subheader] == ["Points after each hand", "Hands"]
    links = page_html(at)
    assert f"[hand 1](replay?game={game_id}&hand=1)" in links
    assert (
        f"[hand 2](replay?game={game_id}&hand=2) — Ben knocked; Carla folded; Dan won "
        "(stake 2); paid: Anna 2, Ben 2, Carla 1, Dan 1"
    ) in links
    assert "**Standings:** Carla 1 point, Dan 2 points, Anna 3 points, Ben 4 points" in links


def test_record_page_enters_a_hand_and_stores_it(club: Path) -> None:
    """Seed 003's example entered with taps (dealer, knocks, answers) and typed cards; a
    refusal shows as an error in words; the log reads newest move first, each move's lines
    in time order; storing asks first."""
    from tests.recorder.test_seed_example import play_example

    at = app().run()
    at.switch_page("views/record.py").run()
    at.button[0].click().run()  # start: Anna, Ben, Carla, Dan, classic
    assert plain(at.subheader[0].value) == "hand 1: name the dealer"
    assert page_html(at).count(PAGE_TOP) == 1  # the top of the page: the Replay page's rule
    # Only what this moment takes: the players as dealer buttons, no Stay/Fold/Knock.
    labels = [b.label for b in at.button]
    assert "Dan" in labels and "Anna" in labels
    assert not [b for b in labels if b.endswith(("stays", "folds"))] and "Knock:" not in str(
        [c.value for c in at.caption]
    )
    at.text_input(key="record_command").input("zz").run()
    assert plain(at.error[0].value).startswith("Refused: zz — expected a player")
    at.button(key="record_p_Who deals?_3").click().run()  # Dan deals
    assert plain(at.subheader[0].value).startswith("cards for ")
    at.text_input(key="record_command").input(
        "a: jh jc td 9s; b: qh qc jd 8s; c: kh kc 7d as; d: ah 7c 8d qd"
    ).run()
    for line in ["jh", "qh", "kh", "ah", "7c", "jc", "qc", "kc"]:
        at.text_input(key="record_command").input(line).run()
    at.button(key="record_p_Knock:_1").click().run()  # Ben knocks: a tap
    assert plain(at.subheader[0].value).startswith("Carla")
    at.button(key="record_fold").click().run()  # Carla folds
    at.button(key="record_stay").click().run()  # Dan stays
    at.button(key="record_stay").click().run()  # Anna stays
    for line in ["8d", "td", "jd", "a k", "s", "f", "9s", "8s"]:
        at.text_input(key="record_command").input(line).run()
        assert not at.exception and not at.error
    assert plain(at.subheader[0].value) == "hand 2: Anna deals"
    log = at.code[0].value.splitlines()
    assert (
        log.index("> 8s")
        < log.index("> 8d")
        < log.index("> Carla folds")
        < log.index("> Ben knocks")
    )
    assert log[:2] == ["> 8s", "  Ben plays 8♠"]  # the last move on top, its lines in order
    assert "journal" not in "\n".join(log) and str(club) not in "\n".join(log)  # no paths
    at.button(key="record_store").click().run()
    assert "Store this game (1 hand) in the dataset?" in at.warning[0].value
    assert not [g for g in Dataset(club).read_games() if g.source == "manual"]  # not yet
    at.button(key="record_store_yes").click().run()
    stored = [g for g in Dataset(club).read_games() if g.source == "manual"]
    assert len(stored) == 1 and stored[0].events == tuple(play_example().log)
    # Said by the name people use (its day, its time, its players), not by its id.
    (name,) = game_names(connect(club), [stored[0].game_id]).values()
    assert re.fullmatch(r"\d+ \w{3}, \d\d:\d\d — Anna, Ben, Carla, Dan", str(name))
    assert plain(at.success[0].value).startswith(f"Stored: {name}. ")
    assert stored[0].game_id not in at.success[0].value
    # Analysed at landing: the Replay page has its verdicts without `kroeg analyse`.
    assert at.success[0].value.endswith("Analysed: its knocks and folds have their verdicts.")
    assert stored[0].game_id in analysed(Dataset(club))


def test_the_one_screen_pages_share_one_top() -> None:
    """The room above the Replay and Record pages' content is one rule (table.PAGE_TOP),
    not a copy in each page."""
    root = Path(__file__).resolve().parents[2] / "dashboard"
    sources = [root / "table.py", root / "views" / "record.py", root / "views" / "replay.py"]
    written = sum(p.read_text(encoding="utf-8").count("padding-top") for p in sources)
    assert written == PAGE_TOP.count("padding-top") == 2


def card_lines(at: AppTest) -> list[list[str]]:
    """The Record page's card grid as shown: each line's cards (their codes), in order."""
    lines: list[list[str]] = []

    def walk(block: Block) -> None:
        buttons = [c for c in block.children.values() if isinstance(c, Button)]
        keys = [b.key for b in buttons if b.key and b.key.startswith("record_card_")]
        if keys:
            lines.append([key.rsplit("_", 1)[1] for key in keys])
        for child in block.children.values():
            if isinstance(child, Block):
                walk(child)

    walk(at.main)
    return lines


def tap_card(at: AppTest, code: str) -> None:
    """One tap on a card of the grid."""
    (button,) = [b for b in at.button if b.key and b.key.startswith("record_card_")
                 and b.key.endswith(f"_{code}")]  # fmt: skip
    button.click().run()


#: Seed 003's deal (tests/recorder/test_seed_example.py), hand by hand in seat order.
SEED_DEAL = {"Anna": "Jh Jc Td 9s", "Ben": "Qh Qc Jd 8s", "Carla": "Kh Kc 7d As",
             "Dan": "Ah 7c 8d Qd"}  # fmt: skip


def test_record_page_cards_by_suit_and_a_deal_in_one_tap_a_card(club: Path) -> None:
    """The cards are a grid of four lines, one per suit, its ranks low to high, only the
    cards still possible; a full deal is one tap a card: the hand being filled passes to
    the next once full, and the deal goes to the engine with the last card."""
    at = app().run()
    at.switch_page("views/record.py").run()
    at.button[0].click().run()  # start: Anna, Ben, Carla, Dan, classic
    at.button(key="record_p_Who deals?_3").click().run()  # Dan deals
    ranks = ["7", "8", "9", "T", "J", "Q", "K", "A"]
    assert card_lines(at) == [[r + s for r in ranks] for s in "cdhs"]
    labels = [b.label for b in at.button if b.key and b.key.startswith("record_card_")]
    assert labels[:8] == ["7", "8", "9", "10", "J", "Q", "K", "A"]  # the suit leads the line
    assert at.button(key="record_seat_0").proto.type == "primary"  # Anna's hand first
    taps = 0
    for name, cards in SEED_DEAL.items():
        for code in cards.split():
            tap_card(at, code)
            taps += 1
            assert not at.exception and not at.error
        if name == "Anna":  # full: the next taps go to Ben, and her cards are not offered
            assert at.button(key="record_seat_0").label == "Anna 4/4"
            assert at.button(key="record_seat_1").proto.type == "primary"
            assert [c for line in card_lines(at) for c in line if c in cards.split()] == []
            assert "Anna: J♥ J♣ 10♦ 9♠" in [m.value for m in at.main.markdown]
    assert taps == 16  # and no tap to confirm (the old page took 17: 16 cards and "Deal")
    assert plain(at.subheader[0].value) == "hand 1, trick 1: Anna leads (stake 1)"
    manual = at.session_state["record_manual"]
    assert [" ".join(str(c) for c in hand) for hand in manual.game.hands] == list(
        SEED_DEAL.values()
    )
    assert "> the cards: Anna J♥ J♣ 10♦ 9♠; Ben Q♥ Q♣ J♦ 8♠; Carla K♥ K♣ 7♦ A♠; " \
        "Dan A♥ 7♣ 8♦ Q♦" in at.code[0].value.splitlines()  # fmt: skip
    # Anna leads: one tap on a card of her known hand, the only cards offered.
    assert card_lines(at) == [["Jc"], ["Td"], ["Jh"], ["9s"]]
    tap_card(at, "Jh")
    assert plain(at.subheader[0].value).startswith("hand 1, trick 1: Ben plays")
    assert at.code[0].value.splitlines()[:2] == ["> Anna plays J♥", "  Anna plays J♥"]


def test_record_page_deals_some_hands_and_takes_a_card_back(club: Path) -> None:
    """Only the hands someone saw: a hand chosen by its button, a card taken back, the rest
    left unknown with "Deal these cards"."""
    at = app().run()
    at.switch_page("views/record.py").run()
    at.button[0].click().run()
    at.button(key="record_p_Who deals?_3").click().run()
    at.button(key="record_seat_3").click().run()  # Dan's hand, the one seen
    for code in ["Ah", "7c", "9d"]:
        tap_card(at, code)
    at.button(key="record_take_back").click().run()  # not the 9♦: the 8♦
    assert at.button(key="record_seat_3").label == "Dan 2/4"
    for code in ["8d", "Qd"]:
        tap_card(at, code)
    assert at.button(key="record_seat_0").proto.type == "primary"  # Dan is full: Anna next
    at.button(key="record_deal").click().run()
    assert not at.error, at.error[0].value
    manual = at.session_state["record_manual"]
    assert [len(h) for h in manual.game.hands] == [4, 4, 4, 4]
    assert [str(c) for c in manual.game.hands[3]] == ["Ah", "7c", "8d", "Qd"]
    assert [h.count(None) for h in manual.game.hands] == [4, 4, 4, 0]  # the others unknown


def test_record_page_says_the_clis_words(club: Path) -> None:
    """The cards prompt offers the word `kroeg record` reads, and the button says it: one
    word, from recorder.manual, in the prompt, on the button, in the help and the log."""
    from kroeg.parsers.commands import HELP
    from kroeg.recorder.manual import SKIP

    at = app().run()
    at.switch_page("views/record.py").run()
    at.button[0].click().run()
    at.button(key="record_p_Who deals?_3").click().run()
    prompt = plain(at.subheader[0].value)
    button = at.button(key="record_skip").label
    assert prompt == "cards for Anna, Ben, Carla, Dan (or skip)"
    assert f"(or {button.lower()})" in prompt and button.lower() == SKIP
    assert f"or '{SKIP}' for all unknown" in HELP
    at.button(key="record_skip").click().run()
    assert "> skip" in at.code[0].value.splitlines()  # what one types at `kroeg record`
    assert plain(at.subheader[0].value) == "hand 1, trick 1: Anna leads (stake 1)"


def test_the_sidebar_filters_apply_to_every_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset = Dataset(tmp_path / "two")
    for name in ("laundry-and-checks.txt", "lives-armoede-cut.txt"):
        dataset.write(notation.load(SAMPLES / name))
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    at = app().run()
    assert [m.value for m in at.metric][:2] == ["2", "10"]
    at.multiselect(key="filter_venue").select("Clubhuis De Troef").run()
    assert [m.value for m in at.metric][:2] == ["1", "8"]
    at.switch_page("views/games.py").run()
    assert at.selectbox(key="games_game").options == [
        "20 Nov, 21:00 — Anna, Ben, Carla, Dan · lives"
    ]
    at.switch_page("views/players.py").run()
    at.multiselect(key="filter_players").select("Dan").run()
    table = at.dataframe[0].value
    assert table["player"].to_list() == ["Dan"]
    assert table["hands"].to_list() == [8]


@pytest.fixture
def troefcall_club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    Dataset(tmp_path / "tc").write(notation.load(SAMPLES / "troefcall-evening.txt"))
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "tc"))
    return tmp_path / "tc"


def test_troefcall_replay_shows_trump_partnerships_and_the_caller(troefcall_club: Path) -> None:
    (game_id,) = Dataset(troefcall_club).game_ids()
    states = hand_states(Dataset(troefcall_club).read_game(game_id), 1, reveal_all=False)
    kap = next(s.step for s in states if s.kind == "kap")
    call = next(s.step for s in states if s.kind == "trump")
    at = app().run()
    at.switch_page("views/replay.py").run()
    shown = page_html(at)  # the hand opens at the deal: the caller's five cards
    assert "Step 0/" in shown and "— 5 cards to Anna" in shown
    assert shown.count('class="kroeg-card back"') == 5  # the caller's five, face down
    at.slider(key="replay_step").set_value(call).run()  # trump is called, the deal goes on
    shown = page_html(at)
    assert call == 1 and "Step 1/" in shown and "Anna calls trump: ♠ spades — 13 cards" in shown
    assert "trump <span>♠</span>" in shown and 'kroeg-caller">trump</span>' in shown
    assert shown.count('class="kroeg-card back"') == 52
    assert '<span class="kroeg-side s0"></span>Anna' in shown
    assert '<span class="kroeg-side s1"></span>Ben' in shown
    at.slider(key="replay_step").set_value(kap).run()
    shown = page_html(at)
    assert "Carla: kap! (Anna &amp; Carla took the first 7 tricks)" in shown
    assert "Anna &amp; Carla 7" in shown and "Ben &amp; Dan 0" in shown
    assert "<div>hand over</div>" in shown and "before the first card" not in shown
    at.button(key="replay_first").click().run()
    at.button(key="replay_call").click().run()
    assert at.slider(key="replay_step").value == call
    at.button(key="replay_trick").click().run()
    assert "→ Anna takes trick 1" in page_html(at)
    at.button(key="replay_call").click().run()
    assert at.slider(key="replay_step").value == kap
    # The call and the kap carry their marks in the list, and the call its verdict.
    shown = page_html(at)
    assert '<span class="kroeg-mark kap">● kap</span>' in shown
    assert "Kap: Anna &amp; Carla took the first seven tricks in a row." in shown
    assert '<span class="kroeg-mark made">● made</span>' in shown
    at.slider(key="replay_step").set_value(call).run()
    assert (
        '<p class="kroeg-verdict made">Verdict: Anna&#x27;s call was made good: the side took '
        "7 of 13 tricks.</p>"
    ) in page_html(at)
    at.selectbox(key="replay_view").set_value("all").run()
    at.slider(key="replay_step").set_value(kap).run()
    assert '<span class="kroeg-card">6♠</span>' not in page_html(at)  # played by now
    assert 'class="kroeg-card back"' not in page_html(at)


def test_troefcall_call_verdict_names_both_sides(troefcall_club: Path) -> None:
    """Anna's call judged from her cards, its value said as her pair's points less the
    other pair's, each pair named by its players (not "the side, less the other side's")."""
    enrich(Dataset(troefcall_club))
    (game_id,) = Dataset(troefcall_club).game_ids()
    states = hand_states(Dataset(troefcall_club).read_game(game_id), 1, reveal_all=False)
    call = next(s.step for s in states if s.kind == "trump")
    at = app().run()
    at.switch_page("views/replay.py").run()
    at.slider(key="replay_step").set_value(call).run()
    assert not at.exception
    shown = html.unescape(page_html(at))
    assert re.search(
        r"Anna called ♠(, the best call from Anna's cards)?: expected -?\d+\.\d points for "
        r"Anna & Carla, less Ben & Dan's",
        shown,
    ), shown
    assert "the other side" not in shown


def test_troefcall_replay_shows_the_kaps_points_at_its_score(troefcall_club: Path) -> None:
    """The kap's step shows the scores before it; the next step, the score's row, the five
    (the table's scores read the pay and score rows so far, not the engine's state, which
    holds the score from the kap on)."""
    (game_id,) = Dataset(troefcall_club).game_ids()
    states = hand_states(Dataset(troefcall_club).read_game(game_id), 1, reveal_all=False)
    kap = next(s.step for s in states if s.kind == "kap")
    assert states[kap + 1].kind == "score"
    at = app().run()
    at.switch_page("views/replay.py").run()
    at.slider(key="replay_step").set_value(kap).run()
    assert page_html(at).count('<div class="kroeg-score">0 points</div>') == 4
    at.slider(key="replay_step").set_value(kap + 1).run()
    shown = page_html(at)
    assert "Anna &amp; Carla score 5" in shown
    assert shown.count('<div class="kroeg-score">5 points</div>') == 2


def test_troefcall_games_and_players(troefcall_club: Path) -> None:
    at = app().run()
    at.switch_page("views/games.py").run()
    assert not at.exception
    hands = page_html(at)
    assert (
        "Anna called ♠; tricks Anna \\& Carla 7, Ben \\& Dan 0; 5 to Anna \\& Carla by kap partij"
        in hands
    )
    at.switch_page("views/players.py").run()
    assert not at.exception
    assert [h.value for h in at.header] == ["Troefcall"]
    table = at.dataframe[0].value
    assert table["calls made good"].to_list() == ["100% 1/1*", "100% 1/1*", "0% 0/1*", "-"]


def test_record_page_enters_a_troefcall_hand(troefcall_club: Path) -> None:
    from tests.kroeg.test_record import TROEFCALL_SCRIPT

    at = app().run()
    at.switch_page("views/record.py").run()
    at.selectbox[0].select("troefcall")  # the form's rule set
    at.button[0].click().run()
    assert plain(at.subheader[0].value).startswith("hand 1: name the dealer, or the face-up deal")
    for line in ["jacks: Anna Tc, Ben 6d, Carla 9c, Dan 5h, Anna Js"]:
        at.text_input(key="record_command").input(line).run()  # the Jack, typed
    at.button(key="record_deal_expected").click().run()  # Dan deals, as the Jack says
    at.text_input(key="record_command").input(TROEFCALL_SCRIPT[2]).run()  # five cards
    assert plain(at.subheader[0].value) == "Anna calls trump"
    at.button(key="record_trump_SPADES").click().run()  # one tap names trump
    assert plain(at.subheader[0].value).startswith("cards for Ben, Carla, Dan, Anna")
    for line in TROEFCALL_SCRIPT[4:12]:  # the other cards, seven tricks
        at.text_input(key="record_command").input(line).run()
        assert not at.exception
    assert plain(at.subheader[0].value) == (
        "Anna & Carla took the first 7, trump ♠: kap, baunie, stop, or Carla leads"
    )
    at.button(key="record_kap").click().run()  # Carla won the 7th trick: her kap scores 5
    assert (
        plain(at.caption[0].value)
        == "scores: Anna 5 points, Ben 0 points, Carla 5 points, Dan 0 points"
    )
    assert plain(at.subheader[0].value) == "hand 2: Anna deals, Ben calls"


def test_record_page_deals_a_troefcall_hand_in_taps(troefcall_club: Path) -> None:
    """Troefcall's deal by taps: the caller's five (dealt once five are in), then the rest;
    the last hand, which can only take the cards left, is filled by itself."""
    from tests.kroeg.test_record import TROEFCALL_SCRIPT

    at = app().run()
    at.switch_page("views/record.py").run()
    at.selectbox[0].select("troefcall")
    at.button[0].click().run()
    at.text_input(key="record_command").input(TROEFCALL_SCRIPT[0]).run()  # the Jacks
    at.button(key="record_deal_expected").click().run()  # Dan deals
    assert card_lines(at)[0] == [r + "c" for r in "23456789TJQKA"]  # 13 ranks, low to high
    taps = 0
    for code in TROEFCALL_SCRIPT[2].removeprefix("a: ").split():
        tap_card(at, code.capitalize())
        taps += 1
    assert plain(at.subheader[0].value) == "Anna calls trump"
    at.button(key="record_trump_SPADES").click().run()
    hands = dict(part.split(": ") for part in TROEFCALL_SCRIPT[4].split("; "))
    for who in "bcd":  # Ben, Carla, Dan: Anna's eight are what is left
        for code in hands[who].split():
            tap_card(at, code.capitalize())
            taps += 1
            assert not at.exception and not at.error
    assert taps == 5 + 39  # the old page: 5 + "Deal", then 47 + "Deal": 54
    assert plain(at.subheader[0].value) == "hand 1, trick 1: Anna leads, trump ♠"
    manual = at.session_state["record_manual"]
    anna = (TROEFCALL_SCRIPT[2].removeprefix("a: ") + " " + hands["a"]).split()
    assert sorted(str(c) for c in manual.game.hands[0]) == sorted(c.capitalize() for c in anna)


MARKUP_NAMES = ("![i](//127.0.0.1/img.png)", "[login](https//x.y)", "<b>Carla</b>", "*Dan*")


def test_names_are_never_rendered_as_markup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    (game,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    Dataset(tmp_path / "ds").write([dataclasses.replace(game, players=MARKUP_NAMES)])
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "ds"))
    enrich(Dataset(tmp_path / "ds"))
    at = app().run()
    for page in ("views/games.py", "views/players.py"):
        at.switch_page(page).run()
        assert not at.exception
        if page.endswith("players.py"):
            at.selectbox(key="who").select(MARKUP_NAMES[0]).run()
        sources = [m.value for m in at.markdown] + [s.value for s in at.subheader]
        shown = "\n".join(sources)
        assert "![i](" not in shown and "[login](" not in shown and "<b>" not in shown
        assert all(plain(s) == s or "\\" in s for s in sources)
    assert "\\!\\[i\\]\\(\\/\\/127\\.0\\.0\\.1\\/img\\.png\\)" in shown  # escaped, shown as typed


def test_a_hand_number_that_is_not_ascii_digits_opens_hand_1(club: Path) -> None:
    (game_id,) = Dataset(club).game_ids()
    at = app()
    at.query_params["game"] = game_id
    at.query_params["hand"] = "²"  # isdigit() says yes, int() says no
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception
    assert at.selectbox(key="replay_game").value == game_id


def test_a_damaged_file_is_named_on_the_page_not_a_traceback(club: Path) -> None:
    (events,) = Dataset(club).files("events")
    events.write_bytes(events.read_bytes()[:300])
    at = app().run()
    assert not at.exception
    (error,) = at.error
    assert plain(error.value).startswith(f"{events}: damaged Parquet file (")


def test_replay_says_so_when_the_filters_leave_no_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A Toepen-only player and the Troefcall rule set: no game is left (it once crashed).
    (toepen,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    others = dataclasses.replace(toepen, players=("Eva", "Frits", "Gijs", "Hanna"), game_id="e")
    dataset = Dataset(tmp_path / "mixed")
    dataset.write([others, *notation.load(SAMPLES / "troefcall-evening.txt")])
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    at = app().run()
    rule_sets = at.multiselect(key="filter_ruleset")
    assert rule_sets.options == ["classic + dirty-laundry + face-up", "troefcall + target-15"]
    rule_sets.select("troefcall + target-15").run()
    at.multiselect(key="filter_players").select("Eva").run()
    at.switch_page("views/replay.py").run()
    assert not at.exception
    assert [i.value for i in at.info] == ["No game matches the filters in the sidebar."]


def test_a_link_to_a_game_or_hand_that_is_not_there_says_so(club: Path) -> None:
    at = app()
    at.query_params["game"] = "doesnotexist"
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception
    assert "There is no game doesnotexist in this dataset" in at.warning[0].value
    game_id = Dataset(club).game_ids().pop()
    at = app()
    at.query_params["game"] = game_id
    at.query_params["hand"] = "99"
    at.run()
    at.switch_page("views/replay.py").run()
    assert "This game has no hand 99 (its hands are 1 to 2): showing hand 1." in at.warning[0].value
    assert at.selectbox(key="replay_hand").value == 1


def test_a_hand_shown_by_a_check_lies_in_the_middle_until_a_card_is_played(
    club: Path,
) -> None:
    """Dan's laundry claim is checked and false: the check shows his old hand, which he
    no longer holds. It lies in the middle from the first card shown to the first card
    played; the new hand he shows under face-up is in his hand, face up."""
    from kroeg.dashboard.table import table_html

    (record,) = Dataset(club).read_games()
    states = hand_states(record, 2, reveal_all=False)
    shown = [s for s in states if s.kind == "reveal"]
    old = shown[3]  # the fourth card of the old hand
    assert old.aside == ((3, "Ah"), (3, "Kh"), (3, "8s"), (3, "Jd"))
    assert table_html(old, record.players).count('class="kroeg-played aside"') == 4
    assert shown[-1].aside == old.aside and all(c != "??" for c in shown[-1].hands[3])
    first_play = next(s for s in states if s.kind == "play")
    assert first_play.aside == () and "aside" not in table_html(first_play, record.players)
    assert all(s.aside == () for s in states[: states.index(shown[0])])


def test_a_fold_and_a_check_are_each_paid_once_in_the_steps(club: Path) -> None:
    (record,) = Dataset(club).read_games()
    texts = [s.text for s in hand_states(record, 2, reveal_all=False)]
    assert "Carla folds" in texts and "Anna checks Dan: it was a bluff" in texts
    assert texts.count("Carla pays 1") == 1 and texts.count("Dan pays 1") == 1
    assert not [t for t in texts if "folds and pays" in t or "bluff; Dan pays" in t]


def test_a_players_view_shows_their_cards_and_nothing_still_to_come(club: Path) -> None:
    """ "As Ben saw it": Ben's cards face up from the deal, the others' face down until
    shown; the moves and their marks only up to the step shown; the view in the address,
    and a link with it opens in it."""
    game_id, knock, fold = hand_two(club)
    enrich(Dataset(club))  # the verdicts the summary line tells
    record = Dataset(club).read_game(game_id)
    states = hand_states(record, 2, reveal_all=False, seat=1)
    everything = hand_states(record, 2, reveal_all=True)
    assert states[0].hands[1] == everything[0].hands[1]  # his own cards, from the deal
    assert all(c == "??" for seat in (0, 2, 3) for c in states[0].hands[seat])
    table = hand_states(record, 2, reveal_all=False)
    assert all(c == "??" for c in table[0].hands[1])  # the table does not see them
    at = replay_at(0)
    at.selectbox(key="replay_view").set_value("2").run()
    assert not at.exception
    assert at.query_params["view"] == "2"
    shown = page_html(at)
    assert shown.count("<li data-kroeg-step=") == 1  # only the deal so far
    assert html.escape(knock.text) not in shown
    at.slider(key="replay_step").set_value(fold.step).run()
    shown = page_html(at)
    assert html.escape(knock.text) in shown and "Verdicts:" not in shown
    at.slider(key="replay_step").set_value(len(states) - 1).run()
    assert "Verdicts:" in page_html(at)  # the hand's verdicts once it is over
    linked = app()
    linked.query_params.update({"game": game_id, "hand": "2", "view": "2"})
    linked.run()
    linked.switch_page("views/replay.py").run()
    assert linked.selectbox(key="replay_view").value == "2"
    odd = app()
    odd.query_params.update({"game": game_id, "hand": "2", "view": "9"})
    odd.run()
    odd.switch_page("views/replay.py").run()
    assert odd.selectbox(key="replay_view").value == "table"
    assert "There is no view 9" in odd.warning[0].value


def test_a_players_view_judges_the_others_once_the_hand_is_over(club: Path) -> None:
    """A verdict reads cards the view does not show (Ben's knock: a bluff, his
    strength): "As Carla saw it" tells it once the hand is over, and judges Carla's own
    fold at her fold. The table's view judges each decision at its step."""
    game_id, knock, fold = hand_two(club)
    enrich(Dataset(club))
    last = len(hand_states(Dataset(club).read_game(game_id), 2, reveal_all=False)) - 1

    def verdict(at: AppTest) -> str:
        found = re.search(r'<p class="kroeg-verdict[^"]*">([^<]*)</p>', page_html(at))
        return found[1] if found else ""

    table = replay_at(knock.step)
    knock_said = verdict(table)
    mark = '<span class="kroeg-mark bluff">'  # the knock's mark on the move in the list
    assert "strength" in knock_said and mark in page_html(table)
    at = replay_at(knock.step)
    at.selectbox(key="replay_view").set_value("3").run()  # Carla's
    assert not at.exception
    assert verdict(at) == "" and mark not in page_html(at)
    at.slider(key="replay_step").set_value(fold.step).run()
    assert "Fold" in verdict(at)  # her own fold, judged at once
    at.slider(key="replay_step").set_value(last).run()
    assert mark in page_html(at)  # the knock's, once the hand is over


def test_the_address_follows_the_hand_and_step_and_a_link_opens_there(club: Path) -> None:
    (game_id,) = Dataset(club).game_ids()
    at = app().run()
    at.switch_page("views/replay.py").run()
    assert at.slider(key="replay_step").value == 0  # a hand opens at its start
    at.selectbox(key="replay_hand").select(2).run()
    at.button(key="replay_knock").click().run()
    knock = at.slider(key="replay_step").value
    assert knock > 0
    # The address names the move by its event number in the hand (a link from the
    # analysis' facts does the same).
    seq = hand_states(Dataset(club).read_game(game_id), 2, reveal_all=False)[knock].seq
    assert seq > knock  # the deal's 16 cards are one step
    assert dict(at.query_params) == {
        "game": game_id, "hand": "2", "step": str(seq), "view": "table",
    }  # fmt: skip
    shared = app()  # someone opens the address
    shared.query_params.update(at.query_params)
    shared.run()
    shared.switch_page("views/replay.py").run()
    assert shared.slider(key="replay_step").value == knock
    assert "Ben knocks: the stake is now 2" in page_html(shared)
    wrong = app()
    wrong.query_params.update({"game": game_id, "hand": "2", "step": "999"})
    wrong.run()
    wrong.switch_page("views/replay.py").run()
    assert wrong.slider(key="replay_step").value == 0
    assert "not 999: showing its start" in wrong.warning[0].value
    dealt = app()  # a link to a card dealt opens at the deal
    dealt.query_params.update({"game": game_id, "hand": "2", "step": "5"})
    dealt.run()
    dealt.switch_page("views/replay.py").run()
    assert dealt.slider(key="replay_step").value == 0 and not dealt.warning


def test_trick_cards_carry_their_players_and_the_winner_is_marked(club: Path) -> None:
    from kroeg.dashboard.table import table_html

    (record,) = Dataset(club).read_games()
    states = hand_states(record, 2, reveal_all=False)
    won = next(s for s in states if s.kind == "trick")
    taker = record.players[won.trick_winner] if won.trick_winner is not None else None
    assert taker is not None and won.table_trick == 1
    shown = table_html(won, record.players)
    assert f"<div>trick 1: {taker} takes it</div>" in shown
    assert shown.count('class="kroeg-played') == len(won.trick) > 1
    assert f'<span class="kroeg-who">★ {taker}</span>' in shown
    assert shown.count("★") == 1
    lead = next(s for s in states if s.step > won.step and s.kind == "play")
    assert len(lead.trick) == 1 and lead.trick_winner is None and lead.table_trick == 2
    assert "<div>trick 2</div>" in table_html(lead, record.players)


def test_the_table_marks_whose_move_is_next(club: Path) -> None:
    from kroeg.dashboard.table import table_html

    (record,) = Dataset(club).read_games()
    states = hand_states(record, 2, reveal_all=False)
    knock = next(s for s in states if s.text.startswith("Ben knocks"))
    assert knock.to_act_how == "answer" and knock.to_act and 1 not in knock.to_act
    shown = table_html(knock, record.players)
    assert shown.count('<span class="kroeg-turn">to answer</span>') == len(knock.to_act)
    played = next(s for s in states if s.kind == "play" and s.trick_winner is None)
    assert played.to_act_how == "play" and len(played.to_act) == 1
    assert played.to_act != (played.actor,)  # the next player, not the one who just played
    assert states[-1].to_act == () and "kroeg-turn" not in table_html(states[-1], record.players)


def test_the_move_list_groups_the_hand_and_marks_the_current_move(club: Path) -> None:
    from kroeg.dashboard.table import moves_html

    (record,) = Dataset(club).read_games()
    states = hand_states(record, 2, reveal_all=False)
    knock = next(s for s in states if s.kind == "knock")
    shown = moves_html(states, knock.step, {knock.step: "bluff"})
    groups = re.findall(r'<p class="kroeg-group">([^<]*)</p><ol start="(\d+)">', shown)
    assert [g for g, _ in groups][:2] == ["The deal", "Trick 1"] and groups[-1][0] == "The end"
    assert [int(n) for _, n in groups] == sorted(int(n) for _, n in groups)  # in step order
    assert int(groups[1][1]) == next(s.step for s in states if s.kind == "play")
    steps = [int(n) for n in re.findall(r'<li data-kroeg-step="(\d+)"', shown)]
    assert steps == list(range(len(states)))  # every move, each clickable by its step
    assert shown.count('class="now"') == 1
    assert (
        f'<li data-kroeg-step="{knock.step}" class="now">▶ {knock.text}'
        ' <span class="kroeg-mark bluff">● bluff</span></li>'
    ) in shown


def test_the_verdict_shows_at_the_knock_and_the_fold(club: Path) -> None:
    enrich(Dataset(club))
    _, knock_state, fold_state = hand_two(club)
    knock, fold = knock_state.step, fold_state.step
    at = replay_at(knock)
    shown = page_html(at)
    # The table's view judges the knock without telling how the hand came out: first as
    # a choice (from what Ben could see, knocking against playing on), then its strength.
    assert re.search(
        r'<p class="kroeg-verdict bluff">Ben knocked: expected to cost \d\.\d; playing on '
        r"without a knock, \d\.\d \(from what Ben could see\)\. [^<]*Also a bluff: "
        r"strength 0\.\d\d, below the fair share 0\.\d\d\.</p>",
        shown,
    )
    assert '<span class="kroeg-mark bluff">● bluff</span>' in shown  # on the move in the list
    # The hand in one line, above the table: with every card shown (the table's view
    # tells it once the hand is over), and the knock's verdict with the outcome.
    assert "Verdicts:" not in shown
    at.selectbox(key="replay_view").set_value("all").run()
    shown = page_html(at)
    assert re.search(r"below the fair share 0\.\d\d; the knocker lost the hand\.</p>", shown)
    assert re.search(
        # and the decisions graded from what each player could see
        r"<b>Verdicts:</b> Ben: 1 knock, 1 bluff; Carla: 1 fold(, 1 regrettable "
        r"\(cost 1\))?; Dan: 1 blunder; Anna: 1 mistake</p>",
        shown,
    )
    at.slider(key="replay_step").set_value(fold).run()
    shown = page_html(at)
    # The fold: judged on what Carla could see first, then in hindsight (every card).
    assert re.search(
        r'<p class="kroeg-verdict sound">Folded: cost 1\.0; staying in was expected to cost '
        r"\d\.\d .*The better answer\. In hindsight: no regret\. The fold cost 1",
        shown,
    )
    at.slider(key="replay_step").set_value(0).run()  # the deal
    assert '<p class="kroeg-verdict' not in page_html(at)
    # A stay: judged on what the player could see (the expected cost of each answer),
    # then what staying in came to, from what the log says was paid after it (Dan paid 1
    # for his caught swap before the knock, and nothing after; Anna paid 2).
    (record,) = Dataset(club).read_games()
    stays = {s.text: s.step for s in hand_states(record, 2, reveal_all=False) if s.kind == "stay"}
    assert set(stays) == {"Dan stays in", "Anna stays in"}
    for text, expected in (
        ("Dan stays in", "Staying in cost Dan nothing: nothing paid after it."),
        ("Anna stays in", "Staying in cost Anna 2 by the end of the hand."),
    ):
        at.slider(key="replay_step").set_value(stays[text]).run()
        assert re.search(
            r'">Stayed in: expected to cost \d\.\d; folding would have cost 1\.0 \('
            + text.split()[0]
            + r"(?:'|&#x27;)s chance of winning the hand by staying in was \d+%, from what they "
            r"could "
            r"see\)\. [^<]*\. " + re.escape(expected) + "</p>",
            page_html(at),
        ), text
    # Anna's stay lost most of the stake in expectation: Ben's cards were hidden from her,
    # Dan's lay face up. A mistake, marked as a chess move is.
    assert '<span class="kroeg-mark mistake">? mistake</span>' in page_html(at)


def test_the_verdict_shows_at_a_laundry_swap(club: Path) -> None:
    """Each swap judged against keeping the hand, from what the swapper could see (the
    stored swap facts): Carla's real laundry in hand 1, Dan's false claim in hand 2."""
    enrich(Dataset(club))
    (game_id,) = Dataset(club).game_ids()
    con = connect(club)
    stored = {
        hand: (grade, cost_swap, cost_keep, ev_lost)
        for hand, grade, cost_swap, cost_keep, ev_lost in con.sql(
            "SELECT hand, grade, cost_swap, cost_keep, ev_lost FROM swap_facts ORDER BY hand"
        ).fetchall()
    }
    assert sorted(stored) == [1, 2]
    en = words("en")
    at = app().run()
    at.switch_page("views/replay.py").run()
    for hand, who, claim in ((1, "Carla", ""), (2, "Dan", " on a false claim")):
        grade, cost_swap, cost_keep, ev_lost = stored[hand]
        at.selectbox(key="replay_hand").select(hand).run()
        states = hand_states(Dataset(club).read_game(game_id), hand, reveal_all=False)
        laundry = next(s for s in states if s.kind == "laundry")
        at.slider(key="replay_step").set_value(laundry.step).run()
        assert not at.exception
        shown = page_html(at)
        # The sentence of the stored facts (its figures made to add up: test_figures.py).
        _, sentence = swap_verdict(en, who, "laundry", not claim, 1, cost_swap,
                                   cost_keep, ev_lost, grade)  # fmt: skip
        assert f'<p class="kroeg-verdict {grade or "sound"}">{sentence}</p>' in shown, shown
        assert f"{who} swapped the laundry{claim}: expected to cost " in sentence
        if grade is None:
            assert ev_lost == 0.0 and sentence.endswith("The better choice.")
        else:
            assert f"Lost {ev_lost:.1f} of a stake of 1 in expectation: a {grade} (" in sentence
            assert f'<span class="kroeg-mark {grade}">' in shown  # on the move in the list
    assert stored[1][0] is None and stored[2][0] is not None  # the false claim lost


def test_team_toepen_pages_name_the_rules_and_the_side_and_the_result_is_the_engines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hand 1 of the team toepen sample: Anna takes the last trick and her side loses.
    The Replay page's last step and its banner say Ben & Dan won (the `win` rows) and who
    paid (the `pay` rows); both pages name the rule set with its variant."""
    (game,) = notation.load(SAMPLES / "team-toepen-evening.txt")
    Dataset(tmp_path / "teams").write([game])
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "teams"))
    states = hand_states(game, 1, reveal_all=False)
    at = app().run()
    at.switch_page("views/replay.py").run()
    # The game by its evening and its sides, then its rules, as both pickers name it.
    title = "6 Nov, 20:30 — Anna & Carla v Ben & Dan · lives + team-toepen"
    assert at.selectbox(key="replay_game").options == [title]
    at.slider(key="replay_step").set_value(len(states) - 1).run()
    assert not at.exception
    shown = page_html(at)
    verdict = (
        "Anna took the last trick: Anna &amp; Carla lose the hand; Ben &amp; Dan win (stake 1)"
    )
    assert f"Step {len(states) - 1}/{len(states) - 1}:</b> {verdict}</p>" in shown
    assert f'<li data-kroeg-step="{len(states) - 1}" class="now">▶ {verdict}</li>' in shown
    assert (
        f'<p class="kroeg-result"><b>Result:</b> {verdict}. Paid: Anna 1. '
        "Scores after the hand: Anna &amp; Carla 9 lives, Ben &amp; Dan 10 lives.</p>"
    ) in shown
    at.switch_page("views/games.py").run()
    assert not at.exception
    assert at.selectbox(key="games_game").options == [title]
    assert (
        f"[hand 1](replay?game={game.game_id}&hand=1) — Ben \\& Dan won (stake 1); paid: Anna 1"
    ) in page_html(at)
    # The chart: a side's one pool of lives, falling with every member's pay (Anna's 1 in
    # hand 1; Ben's 2 and Carla's 1 in hand 2), as the engine's scores say.
    assert chart_rows(at) == [
        {"hand": 1, "player": "Anna & Carla", "lives": 9},
        {"hand": 1, "player": "Ben & Dan", "lives": 10},
        {"hand": 2, "player": "Anna & Carla", "lives": 8},
        {"hand": 2, "player": "Ben & Dan", "lives": 8},
    ]


def test_a_team_fold_says_the_partners_play_on_from_the_stored_fact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carla folds to Ben's knock while her partner Anna is still in: her answer's sentence
    says the side may pay again. Anna folds last, with no partner left in: hers does not.
    The page reads the analysis's `partners_play_on`, not a guess from the cost."""
    (game,) = notation.load(SAMPLES / "team-side-folds.txt")
    Dataset(tmp_path / "teams").write([game])
    enrich(Dataset(tmp_path / "teams"))
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "teams"))
    states = hand_states(game, 1, reveal_all=False)
    at = app().run()
    at.switch_page("views/replay.py").run()
    said = {}
    for who in ("Carla", "Anna"):
        step = next(s.step for s in states if s.text.startswith(f"{who} folds"))
        at.slider(key="replay_step").set_value(step).run()
        assert not at.exception
        found = re.search(r'<p class="kroeg-verdict [a-z]+">(Folded: [^<]*)</p>', page_html(at))
        assert found, who
        said[who] = found.group(1)
    again = "the side pays the stake again if the partners lose"
    assert again in said["Carla"] and said["Carla"].startswith("Folded: expected to cost")
    assert again not in said["Anna"] and said["Anna"].startswith("Folded: cost 1.0")


def chart_rows(at: AppTest) -> list[dict[str, object]]:
    """The rows the page's one chart draws."""
    import pyarrow as pa

    (chart,) = at.get("vega_lite_chart")
    rows: list[dict[str, object]] = pa.ipc.open_stream(chart.proto.data.data).read_all().to_pylist()
    return rows


def test_the_next_and_previous_hand_and_game_buttons(club: Path, tmp_path: Path) -> None:
    """Hand › and ‹ Hand move the hand picker (at the first and last hand, disabled);
    Game › and ‹ Game move to the game played after or before, at its first hand."""
    dataset = Dataset(club)
    dataset.write(notation.load(SAMPLES / "classic-short-night.txt"))
    by_time = sorted(dataset.read_games(), key=lambda g: (g.started_at, g.game_id))
    at = app().run()
    at.switch_page("views/replay.py").run()
    newest = at.selectbox(key="replay_game").value
    assert at.button(key="replay_game_on").disabled  # the most recent game: none after
    assert at.button(key="replay_hand_back").disabled  # its first hand
    at.button(key="replay_hand_on").click().run()
    assert not at.exception
    assert at.selectbox(key="replay_hand").value == 2
    assert at.slider(key="replay_step").value == 0  # a new hand opens at its start
    assert at.query_params["hand"] == "2"
    at.button(key="replay_hand_back").click().run()
    assert at.selectbox(key="replay_hand").value == 1
    at.button(key="replay_hand_on").click().run()
    at.button(key="replay_game_back").click().run()
    earlier = at.selectbox(key="replay_game").value
    ids = [g.game_id for g in by_time]
    assert ids.index(earlier) == ids.index(newest) - 1  # the game played before
    assert at.selectbox(key="replay_hand").value == 1
    assert at.query_params["game"] == earlier
    at.button(key="replay_game_on").click().run()
    assert at.selectbox(key="replay_game").value == newest


def test_the_replay_graphs_the_expected_result_as_each_player_saw_it(club: Path) -> None:
    """Every player's line with every card shown, one player's as they saw it (up to the
    step shown), none in the table's view: it would tell what each one held."""
    import json

    enrich(Dataset(club))
    _, knock_state, _ = hand_two(club)

    def lines(at: AppTest) -> list[dict[str, object]]:
        charts = at.get("vega_lite_chart")
        if not charts:
            return []
        (chart,) = charts
        rows: list[dict[str, object]] = json.loads(chart.proto.spec)["layer"][0]["data"]["values"]
        return rows

    at = replay_at(knock_state.step)
    assert lines(at) == []  # the table's view
    at.selectbox(key="replay_view").set_value("all").run()
    shown = lines(at)
    assert {r["player"] for r in shown} == {"Anna", "Ben", "Carla", "Dan"}
    assert max(int(r["step"]) for r in shown) > knock_state.step  # all cards: the whole hand
    at.selectbox(key="replay_view").set_value("2").run()  # as Ben saw it
    shown = lines(at)
    assert {r["player"] for r in shown} == {"Ben"}
    assert max(int(r["step"]) for r in shown) == knock_state.step


def test_the_replay_shows_each_players_figures_before_the_hand(club: Path) -> None:
    """The evening's second game: at its first hand the heads-up display counts the
    games played before it, as analytics.pages.before_hand and the registry's cells
    write them; a later hand adds this game's own earlier hands."""
    from kroeg.analytics.pages import BEFORE_HAND, before_hand, counts_before_game, game_hand_counts
    from kroeg.analytics.stats import STAT_BY_NAME
    from kroeg.analytics.views import connect

    dataset = Dataset(club)
    dataset.write(notation.load(SAMPLES / "classic-evening.txt"))
    enrich(dataset)
    second = max(dataset.read_games(), key=lambda g: g.started_at)  # type: ignore[arg-type, return-value]
    con = connect(club)
    stats = [STAT_BY_NAME[name] for name in BEFORE_HAND]
    at = app()
    at.query_params["game"] = second.game_id
    at.query_params["hand"] = "1"
    at.run()
    at.switch_page("views/replay.py").run()
    assert at.selectbox(key="replay_game").value == second.game_id
    seen = []
    for hand in (1, 2):
        if hand == 2:
            at.selectbox(key="replay_hand").select(2).run()
        expected = before_hand(
            second.players, counts_before_game(con, second.game_id, None),
            game_hand_counts(con, second.game_id), hand,
        )  # fmt: skip
        assert sum(r[s.opportunities] for r in expected.iter_rows(named=True) for s in stats)
        shown = page_html(at)
        assert "<b>Before this hand</b>" in shown
        for row in expected.iter_rows(named=True):
            cells = "".join(f"<td>{html.escape(s.cell(row[s.done], row[s.opportunities]))}</td>"
                            for s in stats)  # fmt: skip
            assert f"<tr><td>{html.escape(row['player'])}</td>{cells}</tr>" in shown, hand
        seen.append(expected)
    assert not seen[0].equals(seen[1])  # hand 1's knock and fold count at hand 2


def test_replay_judges_the_choice_at_seven_in_a_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Troefcall hand whose side took the first seven tricks: the replay marks the kap
    and says what each choice was worth from the chooser's cards."""
    from kroeg.recorder.rules import Ruleset
    from kroeg.recorder.simulate import simulate_into

    dataset = Dataset(tmp_path / "troef").create()
    simulate_into(dataset, Ruleset.preset("troefcall"), 4, 30, 4, ("sharp", "random"))
    enrich(dataset)
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "troef"))
    ((game_id, hand, seq, seat),) = (
        connect(dataset)
        .sql("SELECT game_id, hand, seq, seat FROM announce_facts ORDER BY ALL LIMIT 1")
        .fetchall()
    )
    record = dataset.read_game(game_id)
    at = app()  # a link names the step by its event number
    at.query_params.update({"game": game_id, "hand": str(hand), "step": str(seq)})
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception
    shown = plain(page_html(at))
    player = record.players[seat]
    # The sides named by their players (Troefcall: partners sit across, seats 0 & 2).
    side = " & ".join(record.players[s] for s in range(4) if s % 2 == seat % 2)
    others = " & ".join(record.players[s] for s in range(4) if s % 2 != seat % 2)
    assert (
        f"{player} announced kap, the best choice from {player}'s cards: expected 5.0 points "
        f"for {side}, less {others}'s"
    ) in html.unescape(shown)
    assert f"of the deals {player} could not rule out" in shown
    # The kap keeps its mark; its own line ("Kap: … took the first seven tricks in a row"),
    # which says again what the move says, is not added to the verdict.
    assert '<span class="kroeg-mark kap">● kap</span>' in shown
    assert "the first seven tricks in a row" not in shown


def test_a_hand_passed_over_on_import_opens_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game imported leniently with its hand 2 passed over (`hand_skipped`): the Replay
    page opens that hand, says why nothing of it is shown, and the next hand plays."""
    from kroeg.analytics.derived import enrich
    from kroeg.parsers.reading import collect
    from kroeg.parsers.render import skipped_text
    from tests.parsers.test_resync import FIRST_GAME

    broken = FIRST_GAME.replace("Da kc, Be toep, Da s, Ben Ts", "Da kc, Be toep, Da s, Ben Qs")
    (game,) = notation.parse(broken, on_error=collect).games
    dataset = Dataset(tmp_path / "ds")
    dataset.write([game])
    enrich(dataset, workers=1)
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    for hand in ("2", "3"):
        at = app()
        at.query_params.update({"game": game.game_id, "hand": hand})
        at.run()
        at.switch_page("views/replay.py").run()
        assert not at.exception, at.exception
        assert at.selectbox(key="replay_hand").value == int(hand)
        shown = plain(page_html(at))
        assert (skipped_text() in shown) == (hand == "2"), shown[:2000]
        if hand == "2":  # nothing of hand 1's result, and no course of one step
            assert "wins the hand" not in shown and "hand over" not in shown
            at.selectbox(key="replay_view").set_value("all").run()
            assert not at.exception and not at.get("vega_lite_chart")
    # The Games and Evenings pages list it in its place, saying so, linked to the replay.
    from kroeg.dashboard.evenings import hand_lines

    lines = hand_lines(dataset.path, game.game_id, "toepen")
    assert len(lines) == 4 and "hand=2)" in lines[1]
    assert lines[1].endswith("— not read when its log was imported")
    assert all("not read" not in line for line in lines[:1] + lines[2:])
