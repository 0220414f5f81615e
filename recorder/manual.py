"""Guided entry at the table: a game typed hand by hand, refereed and journaled.

`ManualGame` wraps the engine (cards come from outside; a hand may stay
unknown) and a journal: every accepted input is appended to the journal and
flushed to disk before the call returns, so killing the process loses nothing
typed, and `ManualGame.resume(journal)` continues exactly where it stopped.
`undo()` takes back the last input. `land()` stores the game in a dataset with
`source = manual`.

The journal is JSON Lines: a header, then one line per input event
(`{"event": [kind, seat, card, amount, target]}`), `{"undo": true}` for an
undo, and `{"landed": game_id}` once the game is stored.

This API is what `kroeg record` and the dashboard's Record page drive; it
knows nothing of text commands or widgets.
"""

from __future__ import annotations

import json
import os
import stat
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kroeg.recorder.atomic import write_text_atomic
from kroeg.recorder.cards import Card, Rank, Suit
from kroeg.recorder.errors import IllegalActionError, JournalError, UsageError
from kroeg.recorder.events import Event, HandStart, event_from_row
from kroeg.recorder.hill import KING_OF_THE_HILL, HillReferee, evening_problem, next_table, outcome
from kroeg.recorder.records import GameRecord, content_id
from kroeg.recorder.referee import Game, new_game
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.store import Dataset, WriteReport
from kroeg.recorder.text import names_problem, venue_problem
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.troefcall import Troefcall

__all__ = ["SKIP", "JournalError", "ManualGame", "Prompt"]

#: The word that leaves the cards of a deal unknown: the cards prompt offers it, `kroeg
#: record` reads it, and the Record page's button says it.
SKIP = "skip"


@dataclass(frozen=True)
class Prompt:
    """What the table is waiting for.

    `kind` is one of start, cut, cards, answer, play, over; and for Troefcall, trump
    (the caller names it) and announce (kap, baunie, stop, or the next lead).

    `text` says it in `kroeg record`'s words; the fields after it say the same in parts,
    for a page to say it in its own language (the dashboard's Record page).
    """

    kind: str
    seats: tuple[int, ...]
    stake: int
    text: str
    #: The hand the table is at (at a start, the hand it starts); 0 once the game is over.
    hand: int = 0
    #: play: the trick being played, and whether the card awaited leads it.
    trick: int = 0
    leads: bool = False
    #: A seat that may be checked first: its laundry (cards), its armoede (play: else the
    #: dealer, `seats[0]`, redeals).
    check: int | None = None
    #: Troefcall: trump once called; at a start, the seat that calls it this hand.
    trump: Suit | None = None
    caller: int | None = None
    #: Troefcall cards: the caller's first five (before trump is called).
    first_five: bool = False
    #: Troefcall announce: the calls the side may make (kap, baunie, stop; after a kap,
    #: stop), the next lead being the other choice.
    calls: tuple[str, ...] = ()


class ManualGame:
    """One game entered at the table; see the module docstring."""

    def __init__(self, header: dict[str, Any], journal: Path) -> None:
        self.header = header
        self.journal = journal
        self.rules = Ruleset.from_dict(header["rules"])
        self.players: tuple[str, ...] = tuple(header["players"])
        self.inputs: list[Event] = []
        self.landed: str | None = None
        self.game: Game = new_game(self.rules, self.players)

    # -- starting, resuming -----------------------------------------------------------------

    @classmethod
    def start(
        cls,
        players: Sequence[str],
        rules: Ruleset,
        journal: str | Path,
        *,
        dataset: str | Path | None = None,
        venue: str | None = None,
        started_at: datetime | None = None,
        evening: str | None = None,
    ) -> ManualGame:
        """Begin a new game and its journal (which must not exist yet).

        A game of a `king-of-the-hill` evening is checked first against the evening's
        games already in the dataset (recorder.hill): the last winners must sit as
        partners, the last losers make way (IllegalActionError names who)."""
        path = Path(journal)
        problem = (
            names_problem(players)
            or rules.table_problem(len(players))
            or (None if venue is None else venue_problem(venue))
            or (None if evening is None else evening_problem(evening, rules))
        )
        if problem is not None:
            raise UsageError(problem)
        if path.exists():
            raise JournalError(f"{path}: a journal is already there; resume it or choose another")
        started_at = started_at or datetime.now(UTC)
        if evening is not None:
            table = GameRecord("(this game)", rules, tuple(players), (), "manual", started_at,
                               venue, evening=evening)  # fmt: skip
            stored = Dataset(dataset).evening_games if dataset is not None else None
            HillReferee(stored).check(table)
        header = {
            "journal": 1,
            "session": uuid.uuid4().hex,
            "players": list(players),
            "rules": rules.to_dict(),
            "venue": venue,
            "started_at": started_at.isoformat(),
            "dataset": None if dataset is None else str(dataset),
        }
        if evening is not None:  # journals of games on their own stay as they were
            header["evening"] = evening
        path.parent.mkdir(parents=True, exist_ok=True)
        manual = cls(header, path)
        manual._append({"header": header})
        return manual

    @classmethod
    def resume(cls, journal: str | Path) -> ManualGame:
        """Continue a game from its journal, replaying every input through the engine."""
        path = Path(journal)
        try:
            if not stat.S_ISREG(path.stat().st_mode):
                raise JournalError(f"{path}: not a journal file (a FIFO, a folder or a device)")
            text = path.read_text(encoding="utf-8")
        except PermissionError:
            raise JournalError(f"{path}: permission denied: kroeg may not read it") from None
        except OSError as exc:
            raise JournalError(f"{path}: cannot read the journal ({exc.strerror})") from None
        lines = text.splitlines()
        entries = []
        torn = False
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                if number == len(lines):
                    torn = True  # a line cut short by a crash mid-write: never accepted
                    break
                raise JournalError(f"{path}:{number}: not a journal line") from None
        if not entries or "header" not in entries[0]:
            raise JournalError(f"{path}: not a kroeg journal (no header line)")
        if torn or (text and not text.endswith("\n")):
            # The last write was cut short: the journal ends after its last whole entry, so
            # the next one starts a line of its own (and the next resume reads it).
            body = text if text.endswith("\n") else text + "\n"
            if torn:
                body = body[: body.rfind("\n", 0, len(body) - 1) + 1]
            write_text_atomic(path, body)
        manual = cls(entries[0]["header"], path)
        for entry in entries[1:]:
            if "event" in entry:
                manual._apply(event_from_row(*entry["event"]))
            elif entry.get("undo"):
                manual._rebuild(manual.inputs[:-1])
            elif "landed" in entry:
                manual.landed = entry["landed"]
        return manual

    # -- the journal ------------------------------------------------------------------------

    def _append(self, entry: dict[str, Any]) -> None:
        with open(self.journal, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def _apply(self, event: Event) -> Event:
        recorded = self.game.apply(event)
        self.inputs.append(recorded)
        return recorded

    def _accept(self, action: Any, *args: Any) -> Event:
        """Run an engine action; journal it once the engine has accepted it."""
        if self.landed is not None:
            raise JournalError(f"this game was already stored as {self.landed}")
        recorded: Event = action(*args)
        self.inputs.append(recorded)
        self._append({"event": list(recorded.to_row())})
        return recorded

    def _rebuild(self, inputs: list[Event]) -> None:
        self.game = new_game(self.rules, self.players)
        self.inputs = []
        for event in inputs:
            self._apply(event)

    # -- what the table waits for -----------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.game.over

    def prompt(self) -> Prompt:
        """Whose turn it is, the stake, and what is expected, in words."""
        game, names = self.game, self.players
        if isinstance(game, Troefcall):
            return self._troefcall_prompt(game)
        stake = game.stake
        if game.over:
            return Prompt("over", (), stake, "the game is over")
        if game.phase == "idle":
            if game.cut_round and game.hand_no == 0:
                seat = next(s for s in game.cut_round if s not in game.cut_cards)
                return Prompt("cut", (seat,), stake, f"{names[seat]} cuts a card", hand=1)
            dealer = game.expected_dealer()
            who = "name the dealer" if dealer is None else f"{names[dealer]} deals"
            return Prompt(
                "start",
                () if dealer is None else (dealer,),
                stake,
                f"hand {game.hand_no + 1}: {who}",
                hand=game.hand_no + 1,
            )
        if game.deal_queue:
            seats = tuple(dict.fromkeys(game.deal_queue))
            listed = ", ".join(names[s] for s in seats)
            claim = game.claim_to_check()
            check = "" if claim is None else f", or a check of {names[claim]}'s laundry first"
            text = f"cards for {listed} (or {SKIP}){check}"
            return Prompt("cards", seats, stake, text, hand=game.hand_no, check=claim)
        answering = tuple(game.answerers())
        if answering:
            listed = " or ".join(names[s] for s in answering)
            text = f"{listed}: stay or fold (stake {stake})"
            return Prompt("answer", answering, stake, text, hand=game.hand_no)
        if game.window is not None and game.window.kind == "armoede":
            dealer = game.dealer
            assert dealer is not None
            return Prompt(
                "play",
                (dealer,),
                stake,
                f"check {names[game.window.seat]}'s armoede, or {names[dealer]} redeals",
                hand=game.hand_no,
                check=game.window.seat,
            )
        mover = game.to_move
        assert mover is not None
        where = "leads" if not game.trick_plays else "plays"
        trick = max(game.trick_no, 1)
        return Prompt(
            "play",
            (mover,),
            stake,
            f"hand {game.hand_no}, trick {trick}: {names[mover]} {where} (stake {stake})",
            hand=game.hand_no,
            trick=trick,
            leads=not game.trick_plays,
        )

    def _troefcall_prompt(self, game: Troefcall) -> Prompt:
        names = self.players
        if game.over:
            return Prompt("over", (), 0, "the game is over")
        if game.phase == "idle":
            dealer = game.expected_dealer()
            if dealer is None:
                return Prompt(
                    "start", (), 0,
                    "hand 1: name the dealer, or the face-up deal 'jacks: Anna 5h, Ben Jd'",
                    hand=1,
                )  # fmt: skip
            caller = (dealer + 1) % 4
            text = f"hand {game.hand_no + 1}: {names[dealer]} deals, {names[caller]} calls"
            return Prompt("start", (dealer,), 0, text, hand=game.hand_no + 1, caller=caller)
        if game.deal_queue:
            seats = tuple(dict.fromkeys(game.deal_queue))
            listed = ", ".join(names[s] for s in seats)
            first = " (the caller's first five)" if game.trump is None and len(seats) == 1 else ""
            text = f"cards for {listed}{first} (or {SKIP})"
            return Prompt("cards", seats, 0, text, hand=game.hand_no, first_five=bool(first))
        if game.phase == "call":
            assert game.caller is not None
            text = f"{names[game.caller]} calls trump"
            return Prompt("trump", (game.caller,), 0, text, hand=game.hand_no)
        trump = "" if game.trump is None else f", trump {game.trump.symbol}"
        leader = game.leader
        if game.phase == "announce":
            low, high = sorted((leader, game.partner(leader)))
            side = f"{names[low]} & {names[high]}"
            return Prompt(
                "announce", (leader, game.partner(leader)), 0,
                f"{side} took the first {game.rules.kap_tricks}{trump}: kap, baunie, stop, or "
                f"{names[leader]} leads",
                hand=game.hand_no, trump=game.trump, calls=("kap", "baunie", "stop"),
            )  # fmt: skip
        if game.phase == "after_kap":
            return Prompt(
                "announce", (leader,), 0, f"stop, or {names[leader]} leads{trump}",
                hand=game.hand_no, trump=game.trump, calls=("stop",),
            )  # fmt: skip
        mover = game.to_move
        assert mover is not None
        where = "leads" if not game.trick_plays else "plays"
        text = f"hand {game.hand_no}, trick {game.trick_no}: {names[mover]} {where}{trump}"
        return Prompt(
            "play", (mover,), 0, text, hand=game.hand_no, trick=game.trick_no,
            leads=not game.trick_plays, trump=game.trump,
        )  # fmt: skip

    def scores(self) -> list[tuple[str, str]]:
        """Each player's running score as the rules count it: points or lives."""
        return [(name, self.game.score_text(seat)) for seat, name in enumerate(self.players)]

    def last_hand_costs(self) -> dict[str, int]:
        """What each player paid in the hand that ended last (empty while none has)."""
        log = self.game.log
        starts = [i for i, e in enumerate(log) if isinstance(e, HandStart)]
        if not starts:
            return {}
        begin = (
            starts[-1]
            if self.game.phase in ("idle", "over")
            else (starts[-2] if len(starts) > 1 else None)
        )
        if begin is None:
            return {}
        end = starts[starts.index(begin) + 1] if begin != starts[-1] else len(log)
        paid: dict[str, int] = {}
        for event in log[begin:end]:
            kind, seat, _, amount, _ = event.to_row()
            if kind == "pay" and seat is not None and amount is not None:
                paid[self.players[seat]] = paid.get(self.players[seat], 0) + amount
        return paid

    # -- actions ----------------------------------------------------------------------------

    def start_hand(self, dealer: int | None = None) -> Event:
        """Start the next hand; the dealer defaults to the one the rules name."""
        return self._accept(self.game.start_hand, dealer)

    def cut(self, seat: int, card: Card) -> Event:
        """A card cut for the first deal (rules that cut for the dealer)."""
        return self._accept(self._toepen().cut, seat, card)

    def draw_for_caller(self, seat: int, card: Card) -> Event:
        """Troefcall: a card dealt face up to find the first caller (the first Jack)."""
        return self._accept(self._troefcall().draw_for_caller, seat, card)

    def call_trump(self, seat: int, suit: Suit) -> Event:
        """Troefcall: the caller names trump."""
        return self._accept(self._troefcall().call_trump, seat, suit)

    def kap(self, seat: int) -> Event:
        """Troefcall: kap partij."""
        return self._accept(self._troefcall().kap, seat)

    def baunie(self, seat: int) -> Event:
        """Troefcall: the side goes for all 13 tricks."""
        return self._accept(self._troefcall().baunie, seat)

    def stop(self, seat: int) -> Event:
        """Troefcall: end the hand (after a partner's kap)."""
        return self._accept(self._troefcall().stop, seat)

    def _toepen(self) -> Toepen:
        if not isinstance(self.game, Toepen):
            raise IllegalActionError(f"{self.rules.name} is not Toepen: there is no such action")
        return self.game

    def _troefcall(self) -> Troefcall:
        if not isinstance(self.game, Troefcall):
            raise IllegalActionError(f"{self.rules.name} is not Troefcall: there is no such action")
        return self.game

    def deal(self, hands: Mapping[int, Sequence[Card | None]]) -> list[Event]:
        """Deal the cards the engine waits for: the known ones given per seat, the rest unknown.

        All or nothing: if any card is refused, the deal is taken back before the error.
        """
        game = self.game
        pending = {seat: list(cards) for seat, cards in hands.items()}
        for seat, given in pending.items():
            wanted = list(game.deal_queue).count(seat)
            if seat not in game.deal_queue:
                raise IllegalActionError(f"{game.where()}: {self.players[seat]} gets no cards now")
            if len(given) != wanted:
                raise IllegalActionError(
                    f"{game.where()}: {self.players[seat]} gets {wanted} cards, found {len(given)}"
                )
        done = len(self.inputs)
        recorded = []
        try:
            while game.deal_queue:
                seat = game.deal_queue[0]
                cards = pending.get(seat)
                recorded.append(self._accept(game.deal, seat, cards.pop(0) if cards else None))
        except IllegalActionError:
            for _ in range(len(self.inputs) - done):
                self.undo()
            raise
        return recorded

    def play(self, seat: int, card: Card) -> Event:
        """A card played."""
        return self._accept(self.game.play, seat, card)

    def knock(self, seat: int) -> Event:
        """Toep."""
        return self._accept(self._toepen().knock, seat)

    def stay(self, seat: int) -> Event:
        """Answer a knock by staying in."""
        return self._accept(self._toepen().stay, seat)

    def fold(self, seat: int) -> Event:
        """Answer a knock by folding."""
        return self._accept(self._toepen().fold, seat)

    def laundry(self, seat: int) -> Event:
        """Swap the hand for four stock cards (deal them next, or leave them unknown)."""
        return self._accept(self._toepen().laundry, seat)

    def armoede(self, seat: int) -> Event:
        """Declare armoede."""
        return self._accept(self._toepen().armoede, seat)

    def check(self, seat: int, target: int, genuine: int | None = None) -> Event:
        """Check a swapped or armoede hand (say `genuine` when the hand is unknown)."""
        return self._accept(self._toepen().check, seat, target, genuine)

    def redeal(self, dealer: int) -> Event:
        """Redeal after armoede (deal the new cards next)."""
        return self._accept(self._toepen().redeal, dealer)

    def whistle(self, seat: int, rank: Rank, count: int) -> Event:
        """Announce three (whistle) or four (stand up) of a rank."""
        return self._accept(self._toepen().whistle, seat, rank, count)

    def undo(self) -> Event:
        """Take back the last input (and whatever the engine recorded after it)."""
        if not self.inputs:
            raise IllegalActionError("there is nothing to undo")
        if self.landed is not None:
            raise JournalError(f"this game was already stored as {self.landed}")
        last = self.inputs[-1]
        self._rebuild(self.inputs[:-1])
        self._append({"undo": True})
        return last

    # -- landing ----------------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game as stored: every finished hand (an unfinished last hand is left out)."""
        log = list(self.game.log)
        if self.game.phase not in ("idle", "over"):
            starts = [i for i, e in enumerate(log) if isinstance(e, HandStart)]
            log = log[: starts[-1]]
        started = self.header.get("started_at")
        return GameRecord(
            game_id=content_id("m", self.header["session"]),
            rules=self.rules,
            players=self.players,
            events=tuple(log),
            source="manual",
            started_at=None if started is None else datetime.fromisoformat(started),
            venue=self.header.get("venue"),
            evening=self.header.get("evening"),
        )

    # -- a king-of-the-hill evening ------------------------------------------------------

    def hill_holders(self) -> tuple[str, ...] | None:
        """The pair that stays on the hill after this game: its winners by seat, from the
        engine's `game_end`. None if the game is not of a king-of-the-hill evening, is not
        over, or was a draw (then the hill is open)."""
        if self.header.get("evening") != KING_OF_THE_HILL or not self.over:
            return None
        result = outcome(self.record())
        return None if result is None else result.winners

    def next_on_the_hill(
        self, challengers: Sequence[str], journal: str | Path, started_at: datetime | None = None
    ) -> ManualGame:
        """The next game of the evening: the winners keep their seats, the two challengers
        take the losers' (in the order named); same rules, venue and dataset."""
        players = next_table(self.record(), challengers) if self.over else None
        if players is None:
            raise IllegalActionError(
                "nobody holds the hill (no winner recorded): name all four players"
            )
        return ManualGame.start(
            players, self.rules, journal, dataset=self.header.get("dataset"),
            venue=self.header.get("venue"), started_at=started_at, evening=KING_OF_THE_HILL,
        )  # fmt: skip

    def land(self, dataset: str | Path | None = None) -> WriteReport:
        """Store the game (its finished hands) in the dataset, once; the journal says so."""
        if self.landed is not None:
            raise JournalError(f"this game was already stored as {self.landed}")
        target = dataset or self.header.get("dataset")
        if target is None:
            raise JournalError("no dataset to store the game in")
        record = self.record()
        if record.hands == 0:
            raise JournalError("no finished hand to store yet")
        report = Dataset(target).write([record])
        self.landed = record.game_id
        self._append({"landed": record.game_id})
        return report
