"""The state of a hand at every step, as the dashboard's replayer shows it.

Every state is rebuilt by replaying the game's events through the engine (the
referee), one event per step. Three ways to look: `reveal_all=False` shows what
the table saw (a player's cards stay face down until played or shown); with
`seat` as well, what that player saw (their own cards face up from the deal);
`reveal_all=True` shows every card the log knows.
"""

from __future__ import annotations

from dataclasses import dataclass

from kroeg.parsers.render import PLAIN_ENGLISH, Speaker, describe_events, pretty, say_score
from kroeg.recorder.cards import Card
from kroeg.recorder.events import VERDICT_KINDS, Event
from kroeg.recorder.records import GameRecord
from kroeg.recorder.referee import Game, Replay
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.troefcall import Troefcall

__all__ = ["HIDDEN", "TableState", "hand_numbers", "hand_states"]

#: A card that is in a hand but not shown (or not known).
HIDDEN = "??"


@dataclass(frozen=True)
class TableState:
    """One step of a hand: what happened, and the table after it."""

    #: The step's number, from 0: the deal is one step (see `hand_states`).
    step: int
    text: str
    kind: str
    stake: int
    dealer: int
    trick_no: int
    in_hand: tuple[bool, ...]
    folded: tuple[bool, ...]
    hands: tuple[tuple[str, ...], ...]
    trick: tuple[tuple[int, str], ...]
    scores: tuple[str, ...]
    actor: int | None
    #: Troefcall: the trump suit letter (once called), the caller, and the tricks each side
    #: has taken; None in Toepen.
    trump: str | None = None
    caller: int | None = None
    side_tricks: tuple[int, int] | None = None
    #: Each seat's side where the game is played in partnerships (Troefcall, team toepen).
    teams: tuple[int, ...] | None = None
    #: Whether the game is Troefcall (else Toepen).
    troefcall: bool = False
    #: Whether the hand is over at this step (the engine says: between hands).
    over: bool = False
    #: The number of the trick whose cards lie in the middle, and who took it once it is
    #: complete (it stays there until the next lead).
    table_trick: int = 0
    trick_winner: int | None = None
    #: Whose move is next: the seats that must answer a knock, else the one to play a card.
    to_act: tuple[int, ...] = ()
    #: What they must do: "answer" (a knock) or "play".
    to_act_how: str = ""
    #: The event's amount column (a payment, a stake, a trick's number).
    amount: int | None = None
    #: Cards shown that no hand holds (seat, card): a swapper's old hand, shown by the
    #: check that caught a false claim; they lie in the middle until a card is played.
    aside: tuple[tuple[int, str], ...] = ()
    #: The number in the hand of the event the step shows (its `seq` in the log, from 0;
    #: links and the analysis' facts name moves by it). A step that deals cards shows the
    #: state after the last of them.
    seq: int = 0


def hand_numbers(record: GameRecord) -> list[int]:
    """The hand numbers of a game: 1 to the number of hands."""
    return list(range(1, record.hands + 1))


def hand_states(
    record: GameRecord,
    number: int,
    *,
    reveal_all: bool,
    seat: int | None = None,
    speaker: Speaker = PLAIN_ENGLISH,
) -> list[TableState]:
    """Every step of hand `number`, from its start to its end; `seat`: seen by that player
    (their own cards known to them, the others' only once shown). The steps' words and
    the scores are `speaker`'s."""
    viewer = seat
    begin, end = record.hand_bounds(number)
    rebuilt = Replay(record.rules, record.players)
    for event in record.events[:begin]:
        rebuilt.feed(event)
    shown: set[str] = set()
    table: list[tuple[int, str]] = []  # the cards on the table: a trick stays until the next lead
    trick_done = False
    table_trick = 0  # the number of the trick on the table
    winner: int | None = None  # who took it, once it is complete
    states: list[TableState] = []
    dealt: dict[int, int] = {}  # the cards each seat got in the run of deals going on
    said = ""  # the words of the step the deals go to
    aside: list[tuple[int, str]] = []  # cards shown that no hand holds (TableState.aside)
    for seq, event in enumerate(record.events[begin:end]):
        rebuilt.feed(event)
        game = rebuilt.game
        kind, seat, card, amount, _ = event.to_row()
        if card is not None and kind in ("play", "reveal"):
            shown.add(card)
        if kind == "play":
            aside = []
        elif (
            kind == "reveal"
            and seat is not None
            and card is not None
            and all(c is None or c.code != card for c in game.hands[seat])
        ):
            aside = [*aside, (seat, card)]
        if kind == "trick":
            trick_done, winner = True, seat
        elif kind == "play" and seat is not None and card is not None:
            if trick_done or not table:
                table, trick_done, winner = [], False, None  # a new trick was led
                table_trick = table_trick + 1
            table.append((seat, card))
        hands = tuple(
            tuple(
                HIDDEN
                if c is None or not (reveal_all or s == viewer or c.code in shown)
                else c.code
                for c in game.hands[s]
            )
            for s in range(game.n)
        )
        skipped = kind == "hand_skipped"  # nothing of the hand is known: an empty table
        if skipped:
            hands, table = ((),) * game.n, []
        troefcall = game if isinstance(game, Troefcall) else None
        toepen = game if isinstance(game, Toepen) else None
        text = _sentence(game, event, hide_cards=not reveal_all, viewer=viewer, speaker=speaker)
        opens = seq  # the event the step is named after
        if kind in VERDICT_KINDS and states:
            # The engine's verdict (who won the hand) is said by the hand's end next: no
            # step of its own.
            before = states.pop()
            opens, text, kind, seat, amount = (
                before.seq,
                before.text,
                before.kind,
                before.actor,
                before.amount,
            )
        elif kind == "deal" and states and seat is not None:
            # The deal is one step: the cards go to the step before (the hand's start, a
            # laundry, a trump call), whose words get the number of cards dealt.
            dealt[seat] = dealt.get(seat, 0) + 1
            before = states.pop()  # the step keeps its own event's kind, actor and amount
            opens, text = before.seq, f"{said} — {_dealt(dealt, game, speaker)}"
            kind, seat, amount = before.kind, before.actor, before.amount
        else:
            dealt, said = {}, text
        state = TableState(
            step=len(states),
            seq=opens,
            aside=tuple(aside),
            text=text,
            kind=kind,
            stake=toepen.stake if toepen and not skipped else 0,  # Troefcall has no stake
            dealer=(seat if seat is not None else -1) if skipped else (game.dealer or 0),
            trick_no=0 if skipped else game.trick_no,
            in_hand=(True,) * game.n if skipped else tuple(game.in_hand(s) for s in range(game.n)),
            folded=tuple(toepen.folded) if toepen and not skipped else (False,) * game.n,
            hands=hands,
            trick=tuple(table),
            # The pay and score rows so far: the facts.
            scores=tuple(
                say_score(speaker, t, troefcall is not None) for t in rebuilt.score_texts()
            ),
            actor=seat,
            over=game.between_hands() and not skipped,
            table_trick=table_trick,
            trick_winner=winner,
            to_act=(
                tuple(toepen.answerers())
                if toepen and toepen.answer_queue
                else (() if game.to_move is None or game.between_hands() else (game.to_move,))
            ),
            to_act_how="answer" if toepen and toepen.answer_queue else "play",
            amount=amount,
            trump=troefcall.trump.value if troefcall and troefcall.trump else None,
            caller=troefcall.caller if troefcall else None,
            teams=troefcall.teams if troefcall else (toepen.teams if toepen else None),
            side_tricks=troefcall.side_tricks if troefcall else None,
            troefcall=troefcall is not None,
        )
        states.append(state)
    return states


def _dealt(counts: dict[int, int], game: Game, speaker: Speaker = PLAIN_ENGLISH) -> str:
    """`4 cards to each`, or `13 cards to Anna, Ben and Carla, 8 cards to Dan`."""
    by_count: dict[int, list[str]] = {}
    for seat, n in counts.items():
        by_count.setdefault(n, []).append(game.players[seat])
    if len(counts) == game.n and len(by_count) == 1:
        n = next(iter(counts.values()))
        return speaker.say_n("step_dealt_each", "{n} card to each", "{n} cards to each", n)
    and_word = speaker.say("step_and", "and")
    parts: list[str] = []
    for n, names in by_count.items():
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {and_word} " + names[-1]
        parts.append(
            speaker.say_n(
                "step_dealt_to", "{n} card to {players}", "{n} cards to {players}", n, players=who
            )
        )
    return ", ".join(parts)


def _sentence(
    game: Game,
    event: Event,
    *,
    hide_cards: bool,
    viewer: int | None = None,
    speaker: Speaker = PLAIN_ENGLISH,
) -> str:
    kind, seat, card, _, _ = event.to_row()
    if kind == "deal" and seat is not None:
        # The table sees a card go to a player, not which card it is; the player does.
        player = game.players[seat]
        if (hide_cards and seat != viewer) or card is None:
            return speaker.say("step_card_to", "a card to {player}", player=player)
        return speaker.say(
            "step_card_to_seen",
            "a card to {player} ({card})",
            player=player,
            card=describe_card(card),
        )
    # Each event is its own step.
    lines = describe_events(game, [event], joined=False, speaker=speaker)
    return " ".join(line.strip() for line in lines) or event.kind


def describe_card(code: str) -> str:
    """`Th` as `10♥`."""
    return pretty(Card.parse(code))
