"""The typed notation of docs/NOTATION.md: text <-> refereed games.

Like `json`: `loads`/`load` read, `dumps`/`dump` write, and
`loads(dumps(games)) == games`. Reading is strict by default; `parse(text,
on_error=collect)` keeps every good hand and collects the errors (parsers/reading.py).

Every rule is the engine's: this module only turns statements into engine
actions and feeds the cards. Errors are `NotationError`s carrying line and
column; a rule broken is a `NotationRuleError` whose message is the engine's.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from parsers._io import read_text
from parsers._writer import dump, dumps
from parsers.names import NameIndex
from parsers.reading import HEADER_KEYS, ErrorHook, Header, Parsed, raise_error, read_header
from recorder.cards import Card, Rank, Suit
from recorder.errors import (
    CardError,
    IllegalActionError,
    KroegError,
    NotationError,
    NotationRuleError,
    UnknownName,
)
from recorder.events import (
    Score,
)
from recorder.records import GameRecord, content_id, log_rows
from recorder.referee import Game, new_game
from recorder.toepen import Toepen
from recorder.troefcall import TEAMS, Troefcall

__all__ = ["VERBS", "NotationRuleError", "Parsed", "dump", "dumps", "load", "loads", "parse"]

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
_HAND = re.compile(r"hand\s+(\d+)\s*(?:[,(]?\s*dealer\s*:?\s*(.+?)\s*\)?)?\s*$", re.IGNORECASE)
_TRICK_LABEL = re.compile(r"(\d+)\.\s*")


# -- lexing ---------------------------------------------------------------------------------


@dataclass
class _Stmt:
    """One statement with where it starts (1-based line and column)."""

    text: str
    line: int
    column: int
    trick: int | None = None  # a `3.` label in front of it


@dataclass
class _Hand:
    number: int
    dealer: str | None
    line: int
    column: int
    statements: list[_Stmt] = field(default_factory=list)


@dataclass
class _Game:
    header: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    cut: list[_Stmt] = field(default_factory=list)
    hands: list[_Hand] = field(default_factory=list)
    line: int = 1


def _strip_comment(raw: str) -> str:
    cut = raw.find("#")
    return raw if cut < 0 else raw[:cut]


def _split_statements(body: str, line: int, start_col: int) -> Iterator[_Stmt]:
    """Split a line's text on commas and semicolons, keeping each piece's column."""
    pos = 0
    for piece in body.replace(";", ",").split(","):  # same length: columns stay right
        stripped = piece.strip()
        if stripped:
            yield _Stmt(stripped, line, start_col + pos + len(piece) - len(piece.lstrip()))
        pos += len(piece) + 1


def _lex(text: str, source: str | None) -> list[_Game]:
    games: list[_Game] = []
    game: _Game | None = None
    if text.startswith("\ufeff"):
        text = text[1:]
    for number, raw in enumerate(text.splitlines(), start=1):
        body = _strip_comment(raw).rstrip()
        stripped = body.lstrip()
        if not stripped:
            continue
        col = len(body) - len(stripped) + 1
        key, colon, value = stripped.partition(":")
        lowered = key.strip().lower()
        if colon and lowered in HEADER_KEYS:
            if game is None or game.hands or game.cut:
                game = _Game(line=number)
                games.append(game)
            if lowered in game.header:
                raise NotationError(
                    f"the header gives {lowered!r} twice (first on line {game.header[lowered][1]})",
                    number,
                    col,
                    source,
                )
            value_col = col + len(key) + 1 + (len(value) - len(value.lstrip()))
            game.header[lowered] = (value.strip(), number, value_col)
            continue
        if game is None:
            raise NotationError(
                f"expected a header line such as 'players: Anna, Ben, Carla', found {stripped!r}",
                number,
                col,
                source,
            )
        match = _HAND.match(stripped)
        if re.match(r"hand\b", stripped, re.IGNORECASE) and match is None:
            raise NotationError(
                f"expected 'hand N' or 'hand N, dealer NAME', found {stripped!r}",
                number,
                col,
                source,
            )
        if match is not None:
            game.hands.append(_Hand(int(match.group(1)), match.group(2), number, col))
            continue
        if colon and lowered in ("cut", "jacks"):
            if game.hands:
                what = "a cut for the first dealer" if lowered == "cut" else "the Jack deal"
                raise NotationError(f"{what} must come before hand 1", number, col, source)
            value_col = col + len(key) + 1
            game.cut.extend(_split_statements(value, number, value_col))
            continue
        if not game.hands:
            raise NotationError(
                f"expected 'hand 1' before the first statement, found {stripped!r}",
                number,
                col,
                source,
            )
        label = _TRICK_LABEL.match(stripped)
        trick = None
        if label is not None:
            trick = int(label.group(1))
            col += label.end()
            stripped = stripped[label.end() :]
        statements = list(_split_statements(stripped, number, col))
        if statements:
            statements[0].trick = trick
        elif trick is not None:
            raise NotationError(f"trick {trick}. is followed by nothing", number, col, source)
        game.hands[-1].statements.extend(statements)
    return games


# -- refereeing -----------------------------------------------------------------------------


class _Referee:
    """Turns one lexed game into engine actions."""

    def __init__(self, lexed: _Game, source: str | None, on_error: ErrorHook) -> None:
        self.lexed = lexed
        self.source = source
        self.on_error = on_error
        self.errors: list[NotationError] = []
        self.names = NameIndex(())

    def fail(self, message: str, where: _Stmt | _Hand | tuple[int, int]) -> NotationError:
        line, column = where if isinstance(where, tuple) else (where.line, where.column)
        return NotationError(message, line, column, self.source)

    def rule_error(self, exc: IllegalActionError, where: _Stmt | _Hand) -> NotationError:
        return NotationRuleError(str(exc), where.line, where.column, self.source)

    # -- the header -------------------------------------------------------------------------

    def header(self) -> Header:
        return read_header(self.lexed.header, (self.lexed.line, 1), self.source)

    # -- names, cards -----------------------------------------------------------------------

    def seat(self, game: Game, word: str, where: _Stmt) -> int:
        """The seat a word names (a name or a unique beginning of one)."""
        try:
            return self.names.resolve(word)
        except UnknownName as exc:
            raise self.fail(str(exc), where) from None

    def split_name(self, game: Game, stmt: _Stmt) -> tuple[int, str, int]:
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
        word = re.match(r"[^\s:]+", text)
        first = word.group(0) if word else text
        seat = self.seat(game, first, stmt)
        rest = text[len(first) :]
        return seat, rest.strip(), stmt.column + len(text) - len(rest.lstrip())

    def card(self, token: str, where: tuple[int, int]) -> Card:
        try:
            return Card.parse(token)
        except CardError as exc:
            raise self.fail(
                f"expected a card like Th, 10h or 10♥, found {token!r}: {exc.reason}", where
            ) from None

    def holding(self, game: Game, stmt: _Stmt) -> tuple[int, list[Card | None]] | None:
        """`Anna: Jh Jc Td 9s` as (seat, cards); None if the statement is not a holding."""
        if ":" not in stmt.text or stmt.text.lower().startswith(("result:", "score:")):
            return None
        seat, rest, col = self.split_name(game, stmt)
        if not rest.startswith(":"):
            return None
        body = rest[1:]
        col += 1
        tokens = [(m.group(0), col + m.start()) for m in re.finditer(r"\S+", body)]
        size = game.rules.hand_size
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
        head = self.header()
        rules, names = head.rules, head.players
        self.names = NameIndex(names)
        game = new_game(rules, names)
        for stmt in self.lexed.cut:
            seat, rest, col = self.split_name(game, stmt)
            draw = game.draw_for_caller if isinstance(game, Troefcall) else game.cut
            self.apply(stmt, draw, seat, self.card(rest, (stmt.line, col)))
        expected_number = 1
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
            before = None if self.on_error is raise_error else copy.deepcopy(game)
            try:
                if isinstance(game, Troefcall):
                    self.play_troefcall_hand(game, hand)
                else:
                    self.play_hand(game, hand)
            except NotationError as error:
                self.report(error)
                assert before is not None
                game = before
                try:
                    named = None if hand.dealer is None else self.names.resolve(hand.dealer)
                except UnknownName:
                    named = None
                game.skip_hand(named)  # the engine says who deals after a hand it never saw
        if game.hand_no == 0:
            return None
        events = tuple(game.log)
        game_id = head.game_id or content_id(
            "g", rules.to_json(), names, head.started_at, head.venue, log_rows(events)
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
        )

    def apply(self, where: _Stmt | _Hand, action: Callable[..., object], *args: object) -> None:
        """Call an engine action; a rule it refuses becomes a located NotationRuleError."""
        try:
            action(*args)
        except IllegalActionError as exc:
            raise self.rule_error(exc, where) from None

    def start_hand(self, game: Game, hand: _Hand) -> int:
        """Start the hand with the dealer it names (or the rules'); its position in the log."""
        dealer = None
        if hand.dealer is not None:
            dealer = self.seat(game, hand.dealer, _Stmt(hand.dealer, hand.line, hand.column))
        self.apply(hand, game.start_hand, dealer)
        return len(game.log) - 1

    def play_hand(self, game: Toepen, hand: _Hand) -> None:
        start = self.start_hand(game, hand)
        statements = hand.statements
        i = self.deal(game, statements, 0, hand)
        while i < len(statements):
            stmt = statements[i]
            i += 1
            if stmt.text[:7].lower().startswith(("result:", "score:")):
                self.check_result(game, stmt, start)
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
                        raise self.fail(f"expected genuine or bluff, found {args[1]!r}", stmt)
                    genuine = int(flag == "genuine")
                self.apply(stmt, game.check, seat, target, genuine)
            elif verb == "whistle":
                if len(args) != 1 or not re.fullmatch(r"[34].+", args[0]):
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
                        f"{words[0]} takes nothing after it, found {' '.join(args)!r}", stmt
                    )
                method = getattr(game, verb)
                self.apply(stmt, method, seat)
                if verb in ("laundry", "redeal"):
                    i = self.deal(game, statements, i, stmt)
        if game.phase not in ("idle", "over"):
            mover = game.to_move
            waiting = game.answerers() or ([] if mover is None else [mover])
            who = ", ".join(game.name(s) for s in waiting)
            raise self.fail(f"hand {hand.number} is not finished ({who} to act)", hand)

    def play_troefcall_hand(self, game: Troefcall, hand: _Hand) -> None:
        """A Troefcall hand: holdings (the caller's first five first), trump, cards, calls."""
        start = self.start_hand(game, hand)
        given: dict[int, list[Card | None]] = {}
        written: dict[int, _Stmt] = {}
        rest_of_hand: list[_Stmt] = []
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
        self.feed_deal(game, given, written, hand)
        for stmt in rest_of_hand:
            if stmt.text[:7].lower().startswith(("result:", "score:")):
                self.check_result(game, stmt, start)
                continue
            seat, rest, col = self.split_name(game, stmt)
            said = self.card_or_verb(game, stmt, seat, rest, col, "trumps, kap, baunie, stops")
            if said is None:
                continue
            verb, words = said
            if verb not in _TROEFCALL_VERBS:
                raise self.fail(f"{words[0]!r} is not a Troefcall action", stmt)
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
            if args:
                raise self.fail(
                    f"{words[0]} takes nothing after it, found {' '.join(args)!r}", stmt
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
        self, game: Game, stmt: _Stmt, seat: int, rest: str, col: int, verbs: str
    ) -> tuple[str, list[str]] | None:
        """Play `Anna Jh` at once (None), or return the verb and words of `Anna knocks`."""
        words = rest.split()
        verb = VERBS.get(words[0].lower()) if words else None
        if verb is None:
            if len(words) != 1:
                raise self.fail(
                    f"expected a card or one of {verbs} after {game.players[seat]}, found {rest!r}"
                    if rest
                    else f"expected a card or an action after {game.players[seat]}",
                    stmt,
                )
            card = self.card(words[0], (stmt.line, col))
            self.check_label(game, stmt)
            self.apply(stmt, game.play, seat, card)
            return None
        if stmt.trick is not None:
            raise self.fail(f"a trick number must stand before a card played, found {rest!r}", stmt)
        return verb, words

    def is_play(self, game: Game, stmt: _Stmt) -> bool:
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
        written: dict[int, _Stmt],
        where: _Stmt | _Hand,
    ) -> None:
        """Deal what the engine waits for from the written holdings (unknown where missing)."""
        while game.deal_queue:
            seat = game.deal_queue[0]
            pending = given.get(seat)
            card = pending.pop(0) if pending else None
            self.apply(written.get(seat, where), game.deal, seat, card)

    def deal(self, game: Toepen, statements: list[_Stmt], i: int, where: _Stmt | _Hand) -> int:
        """Feed the cards the engine is waiting for from the holdings at `i`; return the next i."""
        given: dict[int, list[Card | None]] = {}
        written: dict[int, _Stmt] = {}
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

    def check_label(self, game: Game, stmt: _Stmt) -> None:
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

    def check_result(self, game: Game, stmt: _Stmt, start: int) -> None:
        key, _, body = stmt.text.partition(":")
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
                row = event.to_row()
                if row[0] == "pay":
                    actual[row[1]] += row[3]  # type: ignore[index,operator]
            label = "paid"
        else:
            actual = [
                game.points(s) if game.rules.score_display == "points" else game.lives[s]
                for s in range(game.n)
            ]
            label = "has"
        for seat, amount in self.typed_amounts(game, body, stmt, kind == "result").items():
            if actual[seat] != amount:
                raise self.fail(
                    f"hand {game.hand_no}: the {kind} says {game.players[seat]} {label} {amount}, "
                    f"but the rules give {actual[seat]}",
                    stmt,
                )

    def check_troefcall_result(
        self, game: Troefcall, stmt: _Stmt, start: int, kind: str, body: str
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
                raise self.fail(
                    f"hand {game.hand_no}: the {kind} says {game.players[seat]}'s side "
                    f"{'scored' if kind == 'result' else 'has'} {amount}, "
                    f"but the rules give {actual[side]}",
                    stmt,
                )

    def typed_amounts(self, game: Game, body: str, stmt: _Stmt, zeros: bool) -> dict[int, int]:
        body = body.strip()
        if body.lower() in ("nobody pays", "-"):
            return dict.fromkeys(range(game.n), 0)
        typed: dict[int, int] = dict.fromkeys(range(game.n), 0) if zeros else {}
        for part in filter(None, (p.strip() for p in body.split("&"))):
            match = re.fullmatch(r"(.+?)\s+(-?\d+)", part)
            if match is None:
                raise self.fail(f"expected NAME NUMBER, found {part!r}", stmt)
            typed[self.seat(game, match.group(1), stmt)] = int(match.group(2))
        return typed


def _join_results(games: list[_Game]) -> None:
    """`result:` and `score:` lines were split at their commas: join them back."""
    for game in games:
        for hand in game.hands:
            joined: list[_Stmt] = []
            for stmt in hand.statements:
                lowered = stmt.text.lower()
                if (
                    joined
                    and joined[-1].text.lower().startswith(("result:", "score:"))
                    and (stmt.line == joined[-1].line)
                ):
                    joined[-1].text += " & " + stmt.text
                    continue
                if lowered.startswith(("result:", "score:")):
                    key, _, body = stmt.text.partition(":")
                    stmt = _Stmt(f"{key}:{body}", stmt.line, stmt.column, stmt.trick)
                joined.append(stmt)
            hand.statements = joined


# -- public API -----------------------------------------------------------------------------


def parse(text: str, *, on_error: ErrorHook = raise_error, source: str | None = None) -> Parsed:
    """Read every game in `text`, handing each error to `on_error`.

    The default raises the first error; `parsers.reading.collect` keeps every error
    in `Parsed.errors` and the good games (and good hands) in `Parsed.games`.
    """
    result = Parsed()
    try:
        lexed = _lex(text, source)
    except NotationError as error:
        on_error(error)
        result.errors.append(error)
        return result
    if not lexed:
        empty = NotationError(
            "no game found: expected a header such as 'players: Anna, Ben, Carla'", 1, 1, source
        )
        on_error(empty)
        result.errors.append(empty)
        return result
    _join_results(lexed)
    for game in lexed:
        referee = _Referee(game, source, on_error)
        try:
            record = referee.run()
        except NotationError as error:
            result.errors.extend(referee.errors)
            on_error(error)
            result.errors.append(error)
            continue
        result.errors.extend(referee.errors)
        if record is not None:
            result.games.append(record)
    return result


def loads(text: str, *, source: str | None = None) -> list[GameRecord]:
    """Read the games in `text`, strictly: the first error raises NotationError."""
    return parse(text, source=source).games


def load(file: str | Path | IO[str]) -> list[GameRecord]:
    """Read the games in a file (a path or an open text file), strictly."""
    text, source = read_text(file)
    return loads(text, source=source)
