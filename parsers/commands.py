"""Text commands for entry at the table (`kroeg record`), turned into ManualGame calls.

The words are the notation's (docs/NOTATION.md): `Anna Jh`, `b k`, `c f`,
`Anna: Jh Jc Td 9s`, `Ben checks Carla`… A player is named by a unique
beginning of the name or by seat number (1 = first seat). Where the engine
already knows who acts, the name may be left out: `jh` plays for the player to
move, `s` and `f` answer for the player whose answer is due, `k` knocks for the
player to move.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kroeg.parsers.names import NameIndex
from kroeg.parsers.notation import VERBS
from kroeg.parsers.render import PLAIN_ENGLISH, Speaker, describe_events, say_score
from kroeg.recorder.cards import Card, Rank, Suit
from kroeg.recorder.errors import CardError, CommandError, KroegError
from kroeg.recorder.manual import SKIP, ManualGame
from kroeg.recorder.text import quoted
from kroeg.recorder.troefcall import Troefcall

__all__ = ["HELP", "Outcome", "Session", "loop"]

HELP = f"""\
At the start of a hand: Enter for the dealer the rules name, or a name / seat number.
Cards: 'Anna: Jh Jc Td 9s; Ben: ?' (leave anyone out: unknown), or '{SKIP}' for all unknown.
Play: 'jh' (the player to move), 'Anna Jh', 'k' / 'b k' (knock), 's' / 'f' (stay / fold),
      'Carla laundry', 'Ben checks Carla [genuine|bluff]', 'Carla armoede', 'Dan redeals',
      'Anna whistles 3T'. Several at once: 'b k, c f, d s'.
Troefcall: 'jacks: Anna 5h, Ben Jd' (before hand 1), the caller's five cards first, then
      'spades' (or '♠', 'trumps s'), then the rest of the cards; 'kap', 'c kap', 'baunie',
      'stop' after seven tricks in a row.
Also: undo, score, help, pause (stop; resume later), quit (store the game and stop)."""


@dataclass
class Outcome:
    """What a command did: lines to show, and whether the session stops."""

    lines: list[str] = field(default_factory=list)
    stop: str | None = None  # "quit" (stored) or "pause" (kept in the journal)


class Session:
    """Reads one command line at a time and applies it to a ManualGame."""

    def __init__(self, manual: ManualGame, speaker: Speaker = PLAIN_ENGLISH) -> None:
        self.manual = manual
        #: Whose words the engine's lines are said in (the Record page's language).
        self.speaker = speaker
        self.names = NameIndex(manual.players, seat_numbers=True)

    def run(self, line: str) -> Outcome:
        """Apply one line; raise KroegError (with the rule or the syntax) if it is refused."""
        text = line.strip()
        word = text.lower()
        manual = self.manual
        if word in ("help", "?", "h"):
            return Outcome(HELP.splitlines())
        if word in ("score", "scores"):
            return Outcome([self.score_line()])
        if word == "undo":
            event = manual.undo()
            return Outcome([f"took back: {event.kind} by {manual.players[event.to_row()[1] or 0]}"])
        if word in ("pause", "exit"):
            return Outcome(
                ["paused: resume with kroeg record --resume " + str(manual.journal)], "pause"
            )
        if word == "quit":
            if manual.record().hands == 0:
                # Nothing to store yet: keep the game, do not lose what was typed.
                return Outcome(
                    [
                        "no hand is finished yet, so nothing is stored: the game is kept; "
                        f"carry on with kroeg record --resume {manual.journal}"
                    ],
                    "pause",
                )
            report = manual.land()
            stored = "stored" if report.added else "already stored"
            return Outcome([f"{stored} as game {manual.landed}"], "quit")
        before = len(manual.game.log)
        kind = manual.prompt().kind
        if kind == "over":
            raise CommandError("the game is over: type quit to store it")
        if kind == "start":
            self.start(text)
        elif kind == "trump":
            self.trump(text)
        elif kind == "cut":
            for statement in self.split(text):
                seat, rest = self.actor(statement, None)
                manual.cut(seat, Card.parse(rest))
        elif kind == "cards" and self.names_trump(text):
            manual.deal({})  # Troefcall: trump called on cards nobody wrote down
            self.trump(text)
        elif kind == "cards" and self.checks_before_swap(text):
            for statement in self.split(text):
                self.action(statement)  # check-before-swap: a check before the new cards
                if manual.prompt().kind == "cards":
                    break  # a genuine laundry: its new cards come next
        elif kind == "cards":
            self.cards(text)
        else:
            for statement in self.split(text):
                self.action(statement)
                if manual.prompt().kind == "cards":
                    break  # after a laundry or a redeal the cards come next
        return Outcome(self.after(before))

    # -- pieces -----------------------------------------------------------------------------

    def split(self, text: str) -> list[str]:
        parts = [p.strip() for p in re.split(r"[,;]", text) if p.strip()]
        if not parts:
            raise CommandError("type a card or an action ('help' lists them)")
        return parts

    def actor(self, statement: str, default: int | None) -> tuple[int, str]:
        """The player a statement names (or the default), and the rest of it."""
        first, _, rest = statement.partition(" ")
        first = first.rstrip(":")
        seat = self.names.get(first)
        if seat is not None:
            return seat, rest.strip()
        if default is None:
            self.names.resolve(first)  # raises: say who could be meant
        assert default is not None
        return default, statement

    def start(self, text: str) -> None:
        if text.lower().startswith(("jacks:", "jacks ")):  # Troefcall: the face-up deal
            for statement in self.split(text[6:]):
                seat, rest = self.actor(statement, None)
                self.manual.draw_for_caller(seat, Card.parse(rest))
            return
        words = [
            w
            for w in text.replace(",", " ").split()
            if w.lower() not in ("hand", "dealer", "ok", "deal")
        ]
        words = [w for w in words if not w.isdigit() or len(words) == 1]
        dealer = None if not words else self.names.resolve(words[-1])
        self.manual.start_hand(dealer)

    def names_trump(self, text: str) -> bool:
        """Whether a line calls trump (`b trumps hearts`, `spades`) while its caller's first
        five cards are being dealt."""
        game = self.manual.game
        first_five = (
            isinstance(game, Troefcall)
            and game.trump is None
            and set(game.deal_queue) == {game.caller}
        )
        if not first_five:
            return False
        words = text.split()
        if any(VERBS.get(w.lower()) == "trump" for w in words):
            return True
        try:
            Suit.parse(text)
        except KroegError:
            return False
        return True

    def checks_before_swap(self, text: str) -> bool:
        """Whether a line checks a laundry claim before its new cards (`b checks c`), under
        `check_before_swap`, while the engine waits for those cards."""
        game = self.manual.game
        if isinstance(game, Troefcall) or not game.rules.check_before_swap:
            return False
        window = game.window
        if window is None or window.kind != "laundry" or game.hands[window.seat]:
            return False
        return any(VERBS.get(w.lower()) == "check" for w in text.split())

    def trump(self, text: str) -> None:
        """`spades`, `♠`, `trumps s`, `Anna trumps hearts`: the caller names trump."""
        words = text.split()
        caller = self.manual.prompt().seats[0]
        if len(words) > 1 and VERBS.get(words[0].lower()) != "trump":
            caller = self.names.resolve(words[0])
            words = words[1:]
        if len(words) > 1 and VERBS.get(words[0].lower()) == "trump":
            words = words[1:]
        if len(words) != 1:
            raise CommandError("name the trump suit: 'spades', 's' or '♠'")
        self.manual.call_trump(caller, Suit.parse(words[0]))

    def cards(self, text: str) -> None:
        manual = self.manual
        if text.lower() in (SKIP, "-", "?", "none"):
            manual.deal({})
            return
        waiting = manual.prompt().seats
        hands: dict[int, list[Card | None]] = {}
        for part in (p.strip() for p in text.split(";") if p.strip()):
            if ":" in part:
                name, _, cards = part.partition(":")
                seat = self.names.resolve(name.strip())
            elif len(waiting) == 1:
                seat, cards = waiting[0], part
            else:
                raise CommandError("write whose cards: 'Anna: Jh Jc Td 9s; Ben: ?'")
            tokens = cards.split()
            if tokens == ["?"]:
                continue
            hands[seat] = [None if t == "?" else Card.parse(t) for t in tokens]
        manual.deal(hands)

    def action(self, statement: str) -> None:
        """One statement: `[player] card`, `[player] verb [args]`; the player may be implied."""
        manual = self.manual
        prompt = manual.prompt()
        default = prompt.seats[0] if prompt.seats else None
        tokens = statement.split()
        first = tokens[0]
        if len(tokens) > 1 and VERBS.get(first.lower()) is None:
            seat = self.names.resolve(first)  # a name or seat number leads the statement
            tokens = tokens[1:]
        else:
            seat = self.require(default, statement)  # a lone card or verb: who is implied
        word, args = tokens[0], tokens[1:]
        verb = VERBS.get(word.lower())
        if verb is None:
            if args:
                raise CommandError(
                    f"expected a card or an action, found {quoted(' '.join(tokens))}"
                )
            try:
                card = Card.parse(word)
            except CardError as exc:
                raise CommandError(
                    f"{quoted(word)} is neither a card nor an action ({exc.reason}); "
                    "'help' lists them"
                ) from None
            manual.play(seat, card)
        elif verb == "check":
            if not args or len(args) > 2:
                raise CommandError("whom? 'Ben checks Carla' (then genuine or bluff if unseen)")
            genuine = None
            if len(args) == 2:
                genuine = {"genuine": 1, "bluff": 0}.get(args[1].lower())
                if genuine is None:
                    raise CommandError(f"expected genuine or bluff, found {quoted(args[1])}")
            manual.check(seat, self.names.resolve(args[0]), genuine)
        elif verb == "trump":
            if len(args) != 1:
                raise CommandError("name the trump suit: 'trumps spades'")
            manual.call_trump(seat, Suit.parse(args[0]))
        elif verb == "whistle":
            if len(args) != 1 or not re.fullmatch(r"[34].+", args[0]):
                raise CommandError("expected a count and a rank, like 'whistles 3T'")
            manual.whistle(seat, Rank.parse(args[0][1:]), int(args[0][0]))
        else:
            if args:
                raise CommandError(f"{word} takes nothing after it, found {quoted(' '.join(args))}")
            getattr(manual, verb)(seat)

    def require(self, seat: int | None, statement: str) -> int:
        if seat is None:
            raise CommandError(f"say who: '{self.manual.players[0]} {statement}'")
        return seat

    def after(self, before: int) -> list[str]:
        """What the engine did since the log held `before` events, in the session's words
        (the Record page's language; `kroeg record` speaks English)."""
        speaker = self.speaker
        manual = self.manual
        game = manual.game
        new = game.log[before:]
        said = describe_events(game, new, speaker=speaker)
        lines = [line.rstrip() for line in said if line.strip()]
        if any(e.kind == "hand_end" for e in new):
            lines.append(self.score_line())
        return lines

    def score_line(self) -> str:
        speaker = self.speaker
        troefcall = isinstance(self.manual.game, Troefcall)
        scores = ", ".join(
            f"{name} {say_score(speaker, score, troefcall)}" for name, score in self.manual.scores()
        )
        return speaker.say("step_scores", "scores: {scores}", scores=scores)


def loop(session: Session, read: Callable[[str], str | None], write: Callable[[str], None]) -> int:
    """Prompt, read, apply, answer, until the game is stored or paused; return refused lines.

    `read(prompt)` returns a line, or None at the end of input (which pauses: the journal
    keeps everything). A refused line is answered with the reason and the same question
    is asked again. When the game ends it is stored at once.
    """
    manual = session.manual
    refused = 0
    seats = ", ".join(f"{i} {name}" for i, name in enumerate(manual.players, start=1))
    write(f"seats: {seats}   (help: the commands)")
    while True:
        if manual.over and manual.landed is None:
            report = manual.land()
            write(f"game over; {'stored' if report.added else 'already stored'} as {manual.landed}")
            return refused
        prompt = manual.prompt()
        # A hand whose dealer is known starts on Enter (or another dealer's name): say so.
        hint = " (Enter to start)" if prompt.kind == "start" and prompt.seats else ""
        line = read(f"[{prompt.text}{hint}] > ")
        if line is None:
            write(f"paused: resume with kroeg record --resume {manual.journal}")
            return refused
        if not line.strip() and prompt.kind not in ("start",):
            continue
        try:
            outcome = session.run(line)
        except KroegError as exc:
            refused += 1
            write(f"  refused: {exc}")
            continue
        for text in outcome.lines:
            write(f"  {text}")
        if outcome.stop is not None:
            return refused
