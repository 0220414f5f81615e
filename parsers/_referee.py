"""The notation's referee: a lexed game's statements become engine actions.

Every rule is the engine's: a statement is turned into an action (or a dealt card)
and the engine accepts or refuses it; a refusal becomes a located NotationRuleError.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from kroeg.parsers._lexer import GameText, HandText, Stmt
from kroeg.parsers.names import NameIndex
from kroeg.parsers.reading import ErrorHook, Header, raise_error, read_header
from kroeg.recorder.cards import Card, Rank, Suit
from kroeg.recorder.errors import (
    CardError,
    IllegalActionError,
    KroegError,
    NotationError,
    NotationRuleError,
    UnknownName,
)
from kroeg.recorder.events import (
    Kap,
    Pay,
    Score,
)
from kroeg.recorder.records import GameRecord, content_id, log_rows
from kroeg.recorder.referee import Game, new_game
from kroeg.recorder.text import quoted, too_many_digits
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.troefcall import CALLER_PACKET, TEAMS, Troefcall

__all__ = ["VERBS", "Referee"]

VERBS = {
    "knock": "knock", "knocks": "knock", "k": "knock", "toep": "knock",
    "stay": "stay", "stays": "stay", "s": "stay", "in": "stay",
    "fold": "fold", "folds": "fold", "f": "fold", "out": "fold",
    "laundry": "laundry", "swap": "laundry", "swaps": "laundry",
    "armoede": "armoede",
    "check": "check", "checks": "check",
    "redeal": "redeal", "redeals": "redeal",
    "whistle": "whistle", "whistles": "whistle", "stand": "whistle", "stands": "whistle",
    # Troefcall
    "trump": "trump", "trumps": "trump", "troef": "trump", "calls": "trump",
    "kap": "kap", "kaps": "kap",
    "baunie": "baunie",
    "stop": "stop", "stops": "stop",
}  # fmt: skip
_TROEFCALL_VERBS = ("trump", "kap", "baunie", "stop")
# Compiled once: `re.match(pattern, …)` looks its pattern up in re's cache on every call.
_WORD = re.compile(r"[^\s:]+")
_TOKEN = re.compile(r"[^\s|]+")
_WHISTLE = re.compile(r"[34].+")
_AMOUNT = re.compile(r"(.+?)\s+(-?\d+)")
#: Cards by the token that spelled them (Card.parse's answer, without its call).
_CARDS: dict[str, Card] = {}


class _Read:
    """What is already read of statements with a set of players' names: each text whose
    name and card (or name and amount) read without an error maps to one reading
    wherever it stands (the engine still judges each play in its place), and every game
    of a log with the same players writes them alike. Bounded: texts of at most
    `_READ_LONGEST` characters, `_READ_MOST` of each kind, emptied when full."""

    def __init__(self) -> None:
        #: A card played (`Anna Jh`), as (seat, card): most of a hand's lines. Read once,
        #: a play skips the name, the verbs and the card.
        self.plays: dict[str, tuple[int, Card]] = {}
        #: A part of a result or a score (` Anna 2 `), as (seat, amount).
        self.amounts: dict[str, tuple[int, int]] = {}


_READ: dict[tuple[str, ...], _Read] = {}
_READ_MOST = 4096
#: A play or a result's part is a name and a few characters: a longer text (a line may
#: be long) is read each time, so what is kept stays small.
_READ_LONGEST = 64
#: Sets of names kept in `_READ` (emptied when full).
_NAME_SETS_MOST = 64


def _read_with(players: tuple[str, ...]) -> _Read:
    read = _READ.get(players)
    if read is None:
        if len(_READ) >= _NAME_SETS_MOST:
            _READ.clear()
        read = _READ[players] = _Read()
    return read


# -- refereeing -----------------------------------------------------------------------------


class Referee:
    """Turns one lexed game into engine actions."""

    def __init__(self, lexed: GameText, source: str | None, on_error: ErrorHook) -> None:
        self.lexed = lexed
        self.source = source
        self.on_error = on_error
        self.errors: list[NotationError] = []
        self.names = NameIndex(())
        #: What is already read of statements with these names (`_Read`).
        self.read = _Read()
        #: The dealer of the hand being read, where the text does not say and a lenient
        #: reading had to find it (`find_dealer`).
        self.dealer_override: int | None = None
        #: Troefcall: where a holding marks the caller's first five cards (`|`), by seat:
        #: how many cards come before the mark, and the statement.
        self.first_five: dict[int, tuple[int, Stmt]] = {}

    def fail(self, message: str, where: Stmt | HandText | tuple[int, int]) -> NotationError:
        line, column = where if isinstance(where, tuple) else (where.line, where.column)
        return NotationError(message, line, column, self.source)

    def rule_error(self, exc: IllegalActionError, where: Stmt | HandText) -> NotationError:
        return NotationRuleError(str(exc), where.line, where.column, self.source)

    # -- the header -------------------------------------------------------------------------

    def header(self) -> Header:
        return read_header(self.lexed.header, (self.lexed.line, 1), self.source)

    # -- names, cards -----------------------------------------------------------------------

    def seat(self, game: Game, word: str, where: Stmt) -> int:
        """The seat a word names (a name or a unique beginning of one)."""
        try:
            return self.names.resolve(word)
        except UnknownName as exc:
            raise self.fail(str(exc), where) from None

    def split_name(self, game: Game, stmt: Stmt) -> tuple[int, str, int]:
        """The statement's player, the rest of its text, and the column where the rest starts."""
        text = stmt.text
        if not self.names.multiword:
            end = len(text)
            for mark in (" ", ":"):
                at = text.find(mark)
                if 0 <= at < end:
                    end = at
            seat = self.names.get(text[:end])
            if seat is not None:
                rest = text[end:]
                stripped = rest.lstrip()
                return seat, stripped, stmt.column + len(text) - len(stripped)
        lowered = text.lower()
        for seat, name in sorted(enumerate(game.players), key=lambda p: -len(p[1])):
            n = name.lower()
            if lowered.startswith(n) and (len(text) == len(n) or not text[len(n)].isalnum()):
                rest = text[len(n) :]
                return seat, rest.strip(), stmt.column + len(text) - len(rest.lstrip())
        word = _WORD.match(text)
        first = word.group(0) if word else text
        seat = self.seat(game, first, stmt)
        rest = text[len(first) :]
        return seat, rest.strip(), stmt.column + len(text) - len(rest.lstrip())

    def card(self, token: str, where: tuple[int, int]) -> Card:
        known = _CARDS.get(token)
        if known is not None:
            return known
        try:
            card = Card.parse(token)
            if len(_CARDS) < 4096:  # the spellings of 52 cards; a flood is not kept
                _CARDS[token] = card
            return card
        except CardError as exc:
            if len(token) > 3 and token.isalpha():  # a word, not a card: an action mistyped?
                near = difflib.get_close_matches(token.lower(), list(VERBS), n=1, cutoff=0.6)
                guess = f"did you mean {quoted(near[0])}? " if near else ""
                raise self.fail(
                    f"{quoted(token)} is neither a card nor an action: {guess}"
                    "(a card like Th, 10h or 10♥, or an action: knocks, stays, folds, swaps, "
                    "checks, redeals, whistles; in Troefcall trumps, kap, baunie, stop)",
                    where,
                ) from None
            raise self.fail(
                f"expected a card like Th, 10h or 10♥, found {quoted(token)}: {exc.reason}", where
            ) from None

    def holding(self, game: Game, stmt: Stmt) -> tuple[int, list[Card | None]] | None:
        """`Anna: Jh Jc Td 9s` as (seat, cards); None if the statement is not a holding."""
        if stmt.sums or ":" not in stmt.text:
            return None
        seat, rest, col = self.split_name(game, stmt)
        if not rest.startswith(":"):
            return None
        body = rest[1:]
        col += 1
        size = game.rules.hand_size
        if "|" not in body:  # the usual line: known cards, or `?`; split() cuts as _TOKEN
            words = body.split()
            if len(words) == size:
                known: list[Card | None] = []
                for word in words:
                    card = _CARDS.get(word)
                    if card is None and word != "?":
                        break  # a card not read yet, or not one: the full reading below
                    known.append(card)
                else:
                    return seat, known
        tokens = [(m.group(0), col + m.start()) for m in _TOKEN.finditer(body)]
        if "|" in body:  # `Anna: As Ks Qs Js Ts | 9s …`: the caller's first five cards
            bar = col + body.index("|")
            if not isinstance(game, Troefcall):
                raise self.fail("the mark | sets off a Troefcall caller's first five cards", stmt)
            if body.count("|") > 1:
                raise self.fail("one mark | per line, after the caller's first five cards", stmt)
            self.first_five[seat] = (sum(1 for _, c in tokens if c < bar), stmt)
        if [t for t, _ in tokens] == ["?"]:
            return seat, [None] * size
        if len(tokens) != size:
            raise self.fail(
                f"expected {size} cards for {game.players[seat]} (or '?'), found {len(tokens)}",
                stmt,
            )
        cards = [None if t == "?" else self.card(t, (stmt.line, c)) for t, c in tokens]
        return seat, cards

    # -- playing it out ---------------------------------------------------------------------

    def report(self, error: NotationError) -> None:
        """Hand an error to the error hook: it raises (strict) or the error is kept."""
        self.on_error(error)
        self.errors.append(error)

    def run(self) -> GameRecord | None:
        """The game as the engine referees it, or None if no hand of it could be read.

        A hook that may carry on needs, before every hand, a copy of the position to come
        back to if the hand fails (a copy of the game and its whole log). Most games have
        no error: they are read strictly first, without copies, and only a game that
        raises is read again the lenient way. Nothing of the first reading is kept, and
        the hook sees the second reading's errors only, so what it sees is the same."""
        hook = self.on_error
        if hook is raise_error:
            return self._run()
        self.on_error = raise_error
        try:
            return self._run()
        except NotationError:
            pass
        finally:
            self.on_error = hook
        self.errors, self.first_five, self.dealer_override = [], {}, None
        return self._run()

    def _run(self) -> GameRecord | None:
        head = self.header()
        rules, names = head.rules, head.players
        self.names = NameIndex(names)
        self.read = _read_with(names)
        game = new_game(rules, names)
        for stmt in self.lexed.cut:
            seat, rest, col = self.split_name(game, stmt)
            draw = game.draw_for_caller if isinstance(game, Troefcall) else game.cut
            self.apply(stmt, draw, seat, self.card(rest, (stmt.line, col)))
        expected_number = 1
        unsure = False  # a hand was skipped: who deals next may have to be found
        for hand in self.lexed.hands:
            if hand.number != expected_number:
                self.report(
                    self.fail(f"expected hand {expected_number}, found hand {hand.number}", hand)
                )
            expected_number = hand.number + 1
            if game.over:
                self.report(self.fail(f"hand {hand.number} follows the end of the game", hand))
                break
            # Only a hook that may carry on needs the position to carry on from.
            before = None if self.on_error is raise_error else game.clone()
            self.dealer_override = None
            try:
                if isinstance(game, Toepen) and unsure and hand.dealer is None:
                    self.dealer_override = self.find_dealer(game, hand)
                if isinstance(game, Troefcall):
                    self.play_troefcall_hand(game, hand)
                else:
                    self.play_hand(game, hand)
                unsure = False
            except NotationError as error:
                unsure = True
                self.report(error)
                assert before is not None
                game = before
                try:
                    named = None if hand.dealer is None else self.names.resolve(hand.dealer)
                except UnknownName:
                    named = None
                game.skip_hand(named)  # the engine says who deals after a hand it never saw
        if not any(e.kind == "hand_start" for e in game.log):
            return None
        events = tuple(game.log)
        # A game declared part of an evening is told apart; every other keeps its id.
        evening = () if head.evening is None else (head.evening,)
        game_id = head.game_id or content_id(
            "g", rules.to_json(), names, head.started_at, head.venue, log_rows(events), *evening
        )
        return GameRecord(
            game_id=game_id,
            rules=rules,
            players=names,
            events=events,
            source=head.source or "text",
            started_at=head.started_at,
            venue=head.venue,
            seed=head.seed,
            evening=head.evening,
        )

    def apply(self, where: Stmt | HandText, action: Callable[..., object], *args: object) -> None:
        """Call an engine action; a rule it refuses becomes a located NotationRuleError."""
        try:
            action(*args)
        except IllegalActionError as exc:
            raise self.rule_error(exc, where) from None

    def find_dealer(self, game: Toepen, hand: HandText) -> int | None:
        """Who dealt `hand`, which does not say, after a hand that could not be read (so the
        rules cannot tell): the one dealer with whom the hand reads without an error (the
        cards tell who led). None where the rules know it after all."""
        if game.expected_dealer() is not None:
            return None
        fits = []
        hook, kept = self.on_error, list(self.errors)
        self.on_error = raise_error  # a trial: any error rules the dealer out
        try:
            for seat in range(game.n):
                if not game.alive[seat]:
                    continue
                self.dealer_override = seat
                try:
                    self.play_hand(game.clone(), hand)
                except NotationError:
                    continue
                fits.append(seat)
        finally:
            self.on_error, self.errors, self.dealer_override = hook, kept, None
        if len(fits) == 1:
            return fits[0]
        told = (
            f"{' or '.join(game.players[s] for s in fits)} could have dealt it"
            if fits
            else "no dealer makes it read without an error"
        )
        raise self.fail(
            f"hand {hand.number}: the hand before could not be read, so who deals is not "
            f"known, and {told}: write 'hand {hand.number}, dealer NAME'",
            hand,
        )

    def start_hand(self, game: Game, hand: HandText) -> int:
        """Start the hand with the dealer it names (or the rules'); its position in the log."""
        dealer = self.dealer_override
        if hand.dealer is not None:
            dealer = self.seat(game, hand.dealer, Stmt(hand.dealer, hand.line, hand.column))
        self.apply(hand, game.start_hand, dealer)
        return len(game.log) - 1

    def play_hand(self, game: Toepen, hand: HandText) -> None:
        start = self.start_hand(game, hand)
        statements = hand.statements
        i = self.deal(game, statements, 0, hand)
        while i < len(statements):
            stmt = statements[i]
            i += 1
            if stmt.sums:
                self.check_result(game, stmt, start)
                continue
            if game.answer_queue:
                after = self.answers(game, statements, i - 1)
                if after is not None:
                    i = after
                    continue
            play = self.read.plays.get(stmt.text)
            if play is not None:  # what `card_or_verb` does with it, read before
                self.check_label(game, stmt)
                try:
                    game.play(play[0], play[1])
                except IllegalActionError as exc:
                    raise self.rule_error(exc, stmt) from None
                continue
            seat, rest, col = self.split_name(game, stmt)
            if rest.startswith(":"):
                raise self.fail(
                    "cards can be written only at the deal, after a laundry or after a redeal",
                    stmt,
                )
            said = self.card_or_verb(
                game, stmt, seat, rest, col, "knocks, stays, folds, laundry, checks, armoede, "
                "redeals, whistles",
            )  # fmt: skip
            if said is None:
                continue
            verb, words = said
            args = words[1:]
            if verb == "check":
                if not args or len(args) > 2:
                    raise self.fail("expected 'checks NAME' (then genuine or bluff)", stmt)
                target = self.seat(game, args[0], stmt)
                genuine = None
                if len(args) == 2:
                    flag = args[1].lower()
                    if flag not in ("genuine", "bluff"):
                        raise self.fail(f"expected genuine or bluff, found {quoted(args[1])}", stmt)
                    genuine = int(flag == "genuine")
                self.apply(stmt, game.check, seat, target, genuine)
                if game.deal_queue:  # checked before the swap, and genuine: the new cards
                    i = self.deal(game, statements, i, stmt)
            elif verb == "whistle":
                if len(args) != 1 or not _WHISTLE.fullmatch(args[0]):
                    raise self.fail("expected a count and a rank, like 'whistles 3T'", stmt)
                try:
                    rank = Rank.parse(args[0][1:])
                except KroegError as exc:
                    raise self.fail(str(exc), stmt) from None
                count = int(args[0][0])
                self.apply(stmt, game.whistle, seat, rank, count)
            else:
                if args:
                    raise self.fail(
                        f"{words[0]} takes nothing after it, found {quoted(' '.join(args))}", stmt
                    )
                method = getattr(game, verb)
                self.apply(stmt, method, seat)
                if verb == "laundry" and self.checked_first(game, statements, i, seat):
                    continue  # check-before-swap: the check comes before the new cards
                if verb in ("laundry", "redeal"):
                    i = self.deal(game, statements, i, stmt)
        if game.phase not in ("idle", "over"):
            mover = game.to_move
            waiting = game.answerers() or ([] if mover is None else [mover])
            who = ", ".join(game.name(s) for s in waiting)
            raise self.fail(f"hand {hand.number} is not finished ({who} to act)", hand)

    def checked_first(self, game: Toepen, statements: list[Stmt], i: int, swapper: int) -> bool:
        """Under `check_before_swap`: whether the statement after `swapper`'s laundry is a
        check of it (`Carla laundry, Ben checks Carla`), so no new cards are dealt before
        it; they follow the check if it finds the laundry genuine."""
        if not game.rules.check_before_swap or i >= len(statements):
            return False
        try:
            _, rest, _ = self.split_name(game, statements[i])
        except NotationError:
            return False
        words = rest.split()
        if len(words) < 2 or VERBS.get(words[0].lower()) != "check":
            return False
        try:
            return self.seat(game, words[1], statements[i]) == swapper
        except KroegError:
            return False

    def _answer(self, game: Game, stmt: Stmt) -> tuple[int, str] | None:
        """The seat and verb of a statement that answers or raises (`Dan folds`, `Ben
        stays`, `Ans knocks`), or None for anything else (never an error)."""
        try:
            seat, rest, _ = self.split_name(game, stmt)
        except NotationError:
            return None
        words = rest.split()
        verb = VERBS.get(words[0].lower()) if len(words) == 1 else None
        return (seat, verb) if verb in ("stay", "fold", "knock") else None

    def answers(self, game: Toepen, statements: list[Stmt], start: int) -> int | None:
        """Answers to a knock as people tell them; the index after those taken, or None to
        read statement `start` the usual way.

        `Ans stays, Ans knocks` is a counter-knock told as seed 000 tells it ("un joueur
        qui reste peut immédiatement répondre par un contre-toep"). Answers written out of
        turn (`Anna knocks, Dan folds, Ben stays`) are taken clockwise, as the rules have
        them, when all those before are written with them and no counter-knock is among
        them: then their order cannot change what anyone pays."""
        first = self._answer(game, statements[start])
        if first is None:
            return None
        seat, verb = first
        if (
            verb == "stay"
            and start + 1 < len(statements)
            and seat in game.answerers()
            and game.answer_queue != [seat]  # the last to answer may simply stay, then knock
        ):
            raised = self._answer(game, statements[start + 1])
            if raised == (seat, "knock") and game.rules.counter_knock:
                self.apply(statements[start + 1], game.knock, seat)
                return start + 2
        if verb == "knock" or seat in game.answerers() or seat not in game.answer_queue:
            return None  # in turn, or not an answer: the usual reading and its messages
        queue = list(game.answer_queue)
        told: dict[int, tuple[str, Stmt]] = {}
        end = start
        while end < len(statements):
            said = self._answer(game, statements[end])
            if said is None or said[0] in told or said[0] not in queue:
                break
            if said[1] == "knock":
                who = ", ".join(game.name(s) for s in queue)
                raise self.fail(
                    f"{game.name(seat)} {verb}s before {game.name(queue[0])}, and "
                    f"{game.name(said[0])} raises among the answers: then the order changes "
                    f"what is paid, so write the answers clockwise ({who})",
                    statements[start],
                )
            told[said[0]] = (said[1], statements[end])
            end += 1
        for answerer in queue:
            if answerer not in told:
                break
            done, stmt = told.pop(answerer)
            self.apply(stmt, getattr(game, done), answerer)
        if told:
            missing = next(s for s in queue if s in game.answer_queue)
            raise self.fail(
                f"{game.name(seat)} {verb}s, but {game.name(missing)} answers first, and "
                f"{game.name(missing)}'s answer is not written with the others",
                statements[start],
            )
        return end

    def play_troefcall_hand(self, game: Troefcall, hand: HandText) -> None:
        """A Troefcall hand: holdings (the caller's first five first), trump, cards, calls."""
        start = self.start_hand(game, hand)
        given: dict[int, list[Card | None]] = {}
        written: dict[int, Stmt] = {}
        rest_of_hand: list[Stmt] = []
        self.first_five = {}
        played = False  # holdings may come before or after the trump call, not after a card
        for stmt in hand.statements:
            held = self.holding(game, stmt)
            if held is None:
                rest_of_hand.append(stmt)
                played = played or self.is_play(game, stmt)
                continue
            if played:
                raise self.fail("cards can be written only before the first card is played", stmt)
            seat, cards = held
            if seat in given:
                raise self.fail(f"{game.players[seat]}'s cards are written twice", stmt)
            given[seat], written[seat] = cards, stmt
        for seat, (before, stmt) in self.first_five.items():
            if seat != game.caller:
                raise self.fail(
                    f"the mark | sets off the caller's first five cards, and "
                    f"{game.name(game.caller)} calls trump in this hand, not {game.name(seat)}",
                    stmt,
                )
            if before != CALLER_PACKET:
                raise self.fail(
                    f"the caller gets {CALLER_PACKET} cards first: the mark | comes after "
                    f"{CALLER_PACKET} cards, found after {before}",
                    stmt,
                )
        self.feed_deal(game, given, written, hand)
        for stmt in rest_of_hand:
            if stmt.sums:
                self.check_result(game, stmt, start)
                continue
            seat, rest, col = self.split_name(game, stmt)
            said = self.card_or_verb(game, stmt, seat, rest, col, "trumps, kap, baunie, stops")
            if said is None:
                continue
            verb, words = said
            if verb not in _TROEFCALL_VERBS:
                raise self.fail(f"{quoted(words[0])} is not a Troefcall action", stmt)
            args = words[1:]
            if verb == "trump":
                if len(args) != 1:
                    raise self.fail(
                        "expected 'trumps SUIT', like 'trumps spades' or 'trumps ♠'", stmt
                    )
                try:
                    suit = Suit.parse(args[0])
                except KroegError as exc:
                    raise self.fail(str(exc), stmt) from None
                self.apply(stmt, game.call_trump, seat, suit)
                self.feed_deal(game, given, written, stmt)
                continue
            if verb == "kap" and [a.lower() for a in args] == ["partij"]:
                args = []  # `Carla kap partij`: the announcement's full name
            if args:
                raise self.fail(
                    f"{words[0]} takes nothing after it, found {quoted(' '.join(args))}", stmt
                )
            self.apply(stmt, getattr(game, verb), seat)
        if game.phase not in ("idle", "over"):
            if game.phase == "call":
                waiting = f"{game.name(game.caller)} to call trump"
            elif game.phase in ("announce", "after_kap"):
                waiting = f"{game.name(game.leader)} to lead, or an announcement"
            else:
                waiting = f"{game.name(game.to_move)} to play"
            raise self.fail(f"hand {hand.number} is not finished ({waiting})", hand)

    def card_or_verb(
        self, game: Game, stmt: Stmt, seat: int, rest: str, col: int, verbs: str
    ) -> tuple[str, list[str]] | None:
        """Play `Anna Jh` at once (None), or return the verb and words of `Anna knocks`."""
        words = rest.split()
        verb = VERBS.get(words[0].lower()) if words else None
        if verb is None:
            if len(words) != 1:
                raise self.fail(
                    f"expected a card or one of {verbs} after {game.players[seat]}, "
                    f"found {quoted(rest)}"
                    if rest
                    else f"expected a card or an action after {game.players[seat]}",
                    stmt,
                )
            card = self.card(words[0], (stmt.line, col))
            if len(stmt.text) <= _READ_LONGEST:
                plays = self.read.plays
                if len(plays) >= _READ_MOST:
                    plays.clear()
                plays[stmt.text] = (seat, card)
            self.check_label(game, stmt)
            try:  # `apply`, without a bound method and its arguments for every card
                game.play(seat, card)
            except IllegalActionError as exc:
                raise self.rule_error(exc, stmt) from None
            return None
        if stmt.trick is not None:
            raise self.fail(
                f"a trick number must stand before a card played, found {quoted(rest)}", stmt
            )
        return verb, words

    def is_play(self, game: Game, stmt: Stmt) -> bool:
        """Whether a statement plays a card (`Anna Jh`)."""
        try:
            _, rest, _ = self.split_name(game, stmt)
        except NotationError:
            return False
        words = rest.split()
        return len(words) == 1 and words[0].lower() not in VERBS

    def feed_deal(
        self,
        game: Game,
        given: dict[int, list[Card | None]],
        written: dict[int, Stmt],
        where: Stmt | HandText,
    ) -> None:
        """Deal what the engine waits for from the written holdings (unknown where missing)."""
        while game.deal_queue:
            seat = game.deal_queue[0]
            pending = given.get(seat)
            card = pending.pop(0) if pending else None
            try:  # `apply`, without a bound method and its arguments for every card
                game.deal(seat, card)
            except IllegalActionError as exc:
                raise self.rule_error(exc, written.get(seat, where)) from None

    def deal(self, game: Toepen, statements: list[Stmt], i: int, where: Stmt | HandText) -> int:
        """Feed the cards the engine is waiting for from the holdings at `i`; return the next i."""
        given: dict[int, list[Card | None]] = {}
        written: dict[int, Stmt] = {}
        while i < len(statements):
            held = self.holding(game, statements[i])
            if held is None:
                break
            seat, cards = held
            if seat in given or seat not in game.deal_queue:
                raise self.fail(f"{game.players[seat]} gets no cards here", statements[i])
            given[seat] = cards
            written[seat] = statements[i]
            i += 1
        self.feed_deal(game, given, written, where)
        return i

    def check_label(self, game: Game, stmt: Stmt) -> None:
        if stmt.trick is None:
            return
        opens = 1 if game.phase == "preplay" else game.trick_no
        if (game.phase == "play" and game.trick_plays) or stmt.trick != opens:
            now = (
                f"the card continues trick {game.trick_no}"
                if game.phase == "play" and game.trick_plays
                else f"the card opens trick {opens}"
            )
            raise self.fail(f"the line is marked trick {stmt.trick}, but {now}", stmt)

    def check_result(self, game: Game, stmt: Stmt, start: int) -> None:
        key, _, body = stmt.text.partition(":")
        if isinstance(game, Troefcall) and game.phase == "after_kap":
            # After a partner's kap, a result means the hand ended there: nobody wrote the
            # stop, so it is taken as said by the player who announced the kap.
            kapper = next(e.seat for e in reversed(game.log) if isinstance(e, Kap))
            self.apply(stmt, game.stop, kapper)
        # The statement splitter cut the line at commas: gather the rest of this line back.
        if game.phase not in ("idle", "over") or game.hand_no == 0:
            raise self.fail(f"the {key.strip().lower()} is given before the hand is over", stmt)
        kind = key.strip().lower()
        if isinstance(game, Troefcall):
            self.check_troefcall_result(game, stmt, start, kind, body)
            return
        if kind == "result":
            actual = [0] * game.n
            for event in game.log[start:]:
                if isinstance(event, Pay):
                    actual[event.seat] += event.amount
            label = "paid"
        else:
            actual = [
                game.points(s) if game.rules.score_display == "points" else game.lives[s]
                for s in range(game.n)
            ]
            label = "has"
        for seat, amount in self.typed_amounts(game, body, stmt, kind == "result").items():
            if actual[seat] != amount:
                # The hand was played as the rules say; only the typed sum is wrong: say so
                # and keep the hand, so that the next hand's sums are checked as typed.
                self.report(
                    self.fail(
                        f"hand {game.hand_no}: the {kind} says {game.players[seat]} {label} "
                        f"{amount}, but the rules give {actual[seat]}",
                        stmt,
                    )
                )
                return

    def check_troefcall_result(
        self, game: Troefcall, stmt: Stmt, start: int, kind: str, body: str
    ) -> None:
        """`result: Anna 5` (what a side scored in the hand), `score: Anna 7, Ben 2` (so far)."""
        if kind == "result":
            actual = [0, 0]
            for event in game.log[start:]:
                if isinstance(event, Score):
                    actual[TEAMS[event.seat]] += event.amount
        else:
            actual = list(game.scores)
        typed = {
            TEAMS[seat]: (seat, n)
            for seat, n in self.typed_amounts(game, body, stmt, False).items()
        }
        if kind == "result":  # a side not named scored nothing
            for side in (0, 1):
                typed.setdefault(side, (side, 0))
        for side, (seat, amount) in sorted(typed.items()):
            if actual[side] != amount:
                self.report(
                    self.fail(
                        f"hand {game.hand_no}: the {kind} says {game.players[seat]}'s side "
                        f"{'scored' if kind == 'result' else 'has'} {amount}, "
                        f"but the rules give {actual[side]}",
                        stmt,
                    )
                )
                return

    def typed_amounts(self, game: Game, body: str, stmt: Stmt, zeros: bool) -> dict[int, int]:
        body = body.strip()
        if body.lower() in ("nobody pays", "-"):
            return dict.fromkeys(range(game.n), 0)
        typed: dict[int, int] = dict.fromkeys(range(game.n), 0) if zeros else {}
        amounts = self.read.amounts
        for written in body.split("&"):
            known = amounts.get(written)
            if known is not None:
                typed[known[0]] = known[1]
                continue
            part = written.strip()
            if not part:
                continue
            # `Anna 2`: the name, a space, ASCII digits (what `_AMOUNT` takes, read
            # without it); anything else goes through the pattern.
            name, space, number = part.rpartition(" ")
            digits = number[1:] if number.startswith("-") else number
            name = name.rstrip()
            if not (space and name and digits.isascii() and digits.isdigit()):
                match = _AMOUNT.fullmatch(part)
                if match is None:
                    raise self.fail(f"expected NAME NUMBER, found {quoted(part)}", stmt)
                name, number = match.group(1), match.group(2)
            problem = too_many_digits(number, "an amount")
            if problem is not None:
                raise self.fail(problem, stmt)
            seat, amount = self.seat(game, name, stmt), int(number)
            if len(written) <= _READ_LONGEST:
                if len(amounts) >= _READ_MOST:
                    amounts.clear()
                amounts[written] = (seat, amount)
            typed[seat] = amount
        return typed
