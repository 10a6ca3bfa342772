"""``-g``: the machine in a tkinter window, on the same rules objects as the shells.

The window shows the credit, a bet selector (1-5), the five cards (click a card, or press
1-5, to hold it), one Deal/Draw button (Enter), Advice (``a``: marks the cards the advisor
keeps and says so in the course's words), the last result, and the statistics table.
A new game with another starting credit can be started at any time between hands.
"""

from __future__ import annotations

import contextlib
import random
import tkinter as tk
from collections.abc import Callable
from tkinter import font as tkfont
from typing import Any, Literal, TextIO

from casino.cards import Card, Suit
from casino.errors import CasinoError
from casino.videopoker.advisors import seed_advisor
from casino.videopoker.commands import Advisor, advice_message, hand_message, outcome_message
from casino.videopoker.game import HAND_SIZE, Machine, Outcome, ShuffledCards
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, MAX_BET, PayTable
from casino.videopoker.stats import render_table

DEFAULT_CREDIT = 1000
CARD_WIDTH, CARD_HEIGHT = 90, 126
_FELT = "#0b5d2a"
_RED_SUITS = {Suit.HEARTS, Suit.DIAMONDS}


class CardView:
    """One card place: a canvas showing the card's face (or its back) and a HELD mark."""

    def __init__(self, parent: tk.Widget, index: int, on_click: Callable[[int], None]) -> None:
        self.index = index
        self.canvas = tk.Canvas(
            parent, width=CARD_WIDTH, height=CARD_HEIGHT + 24, bg=_FELT, highlightthickness=0
        )
        self.canvas.bind("<Button-1>", lambda _event: on_click(index))
        self.card: Card | None = None
        self.held = False

    def show(self, card: Card | None, held: bool) -> None:
        """Draw ``card`` (None: the back of a card), marked HELD when ``held``."""
        self.card, self.held = card, held
        c = self.canvas
        c.delete("all")
        outline = "#ffd700" if held else "#333333"
        c.create_rectangle(
            2,
            2,
            CARD_WIDTH - 2,
            CARD_HEIGHT - 2,
            fill="white",
            outline=outline,
            width=4 if held else 1,
        )
        if card is None:
            c.create_rectangle(10, 10, CARD_WIDTH - 10, CARD_HEIGHT - 10, fill="#8b1a1a")
        else:
            color = "#c00000" if card.suit in _RED_SUITS else "black"
            c.create_text(
                10, 8, text=card.rank.stud, anchor="nw", fill=color, font=("Helvetica", 16, "bold")
            )
            c.create_text(
                CARD_WIDTH / 2,
                CARD_HEIGHT / 2 + 6,
                text=card.suit.symbol,
                fill=color,
                font=("Helvetica", 40),
            )
        if held:
            c.create_text(
                CARD_WIDTH / 2,
                CARD_HEIGHT + 12,
                text="HELD",
                fill="#ffd700",
                font=("Helvetica", 12, "bold"),
            )


class VideoPokerWindow:
    """The window's widgets and what its buttons do to the :class:`Machine`."""

    def __init__(
        self,
        root: tk.Tk,
        *,
        rng: random.Random,
        table: PayTable = DOUBLE_BONUS_10_7,
        advisor: Advisor = seed_advisor,
        credit: int = DEFAULT_CREDIT,
    ) -> None:
        self.root = root
        self.rng = rng
        self.table = table
        self.advisor = advisor
        self.machine = Machine(credit, ShuffledCards(rng), table)
        self.held: set[int] = set()
        self.last_outcome: Outcome | None = None
        root.title(f"Video poker - {table.title}")
        root.configure(bg=_FELT)
        self.credit_text = tk.StringVar(root)
        self.message = tk.StringVar(root, "Choose a bet and press Deal.")
        self.bet = tk.IntVar(root, self.machine.bet)
        self.start_credit = tk.StringVar(root, str(credit))
        self._build()
        self.refresh()

    def _build(self) -> None:
        root = self.root
        top = tk.Frame(root, bg=_FELT)
        top.pack(fill="x", padx=10, pady=6)
        tk.Label(
            top, textvariable=self.credit_text, bg=_FELT, fg="white", font=("Helvetica", 14, "bold")
        ).pack(side="left")
        self.new_game_button = tk.Button(top, text="New game", command=self.new_game)
        self.new_game_button.pack(side="right")
        tk.Entry(top, textvariable=self.start_credit, width=8).pack(side="right", padx=4)
        tk.Label(top, text="starting credit", bg=_FELT, fg="white").pack(side="right")
        cards = tk.Frame(root, bg=_FELT)
        cards.pack(padx=10, pady=4)
        self.cards = [CardView(cards, index, self.toggle) for index in range(HAND_SIZE)]
        for view in self.cards:
            view.canvas.pack(side="left", padx=4)
        controls = tk.Frame(root, bg=_FELT)
        controls.pack(pady=4)
        tk.Label(controls, text="Bet", bg=_FELT, fg="white").pack(side="left")
        self.bet_buttons = [
            tk.Radiobutton(
                controls,
                text=str(amount),
                variable=self.bet,
                value=amount,
                indicatoron=False,
                width=3,
            )
            for amount in range(1, MAX_BET + 1)
        ]
        for button in self.bet_buttons:
            button.pack(side="left", padx=1)
        self.deal_button = tk.Button(controls, text="Deal", width=8, command=self.deal_or_draw)
        self.deal_button.pack(side="left", padx=10)
        self.advice_button = tk.Button(controls, text="Advice", command=self.advise)
        self.advice_button.pack(side="left")
        tk.Label(
            root, textvariable=self.message, bg=_FELT, fg="white", font=("Helvetica", 12)
        ).pack(pady=4)
        mono = tkfont.nametofont("TkFixedFont")
        self.stats_view = tk.Label(
            root, justify="left", font=mono, bg="#073d1c", fg="white", anchor="w", padx=8, pady=6
        )
        self.stats_view.pack(padx=10, pady=(0, 10), fill="x")
        root.bind("<Return>", lambda _event: self.deal_or_draw())
        root.bind("a", lambda _event: self.advise())
        for index in range(HAND_SIZE):
            root.bind(str(index + 1), self._toggle_on_key(index))

    def _toggle_on_key(self, index: int) -> Callable[[tk.Event[tk.Misc]], None]:
        return lambda _event: self.toggle(index)

    def refresh(self) -> None:
        """Show the machine's state."""
        machine = self.machine
        self.credit_text.set(f"Credit {machine.credit}")
        hand = machine.hand
        for index, view in enumerate(self.cards):
            card = hand[index] if hand else None
            view.show(card, machine.in_hand and index in self.held)
        self.deal_button.configure(text="Draw" if machine.in_hand else "Deal")
        state: Literal["normal", "disabled"] = "disabled" if machine.in_hand else "normal"
        for button in self.bet_buttons:
            button.configure(state=state)
        self.new_game_button.configure(state=state)
        self.advice_button.configure(state="normal" if machine.in_hand else "disabled")
        self.stats_view.configure(text="\n".join(render_table(machine.stats, machine.credit)))

    def toggle(self, index: int) -> None:
        """Hold or release card ``index`` (only while a hand is dealt)."""
        if self.machine.in_hand:
            self.held ^= {index}
            self.refresh()

    def deal_or_draw(self) -> None:
        """Deal a new hand at the chosen bet, or draw and pay the current one."""
        machine = self.machine
        try:
            if machine.in_hand:
                self.last_outcome = machine.hold(sorted(self.held))
                self.message.set(outcome_message(self.last_outcome))
            else:
                machine.place_bet(self.bet.get())
                self.held = set()
                self.message.set(hand_message(machine.deal()))
        except CasinoError:
            self.message.set(f"A bet of {self.bet.get()} needs more credit than you have.")
        self.refresh()

    def advise(self) -> None:
        """Mark the advised cards as held, and say which they are."""
        machine = self.machine
        if machine.in_hand:
            held = self.advisor(machine.hand, machine.table, machine.bet)
            self.held = set(held)
            self.message.set(advice_message(held))
            self.refresh()

    def new_game(self) -> None:
        """Start again with the starting credit typed in the window."""
        if self.machine.in_hand:
            return
        try:
            credit = int(self.start_credit.get())
            if credit < 1:
                raise ValueError
        except ValueError:
            self.message.set("The starting credit must be a whole number of at least 1.")
            return
        self.machine = Machine(credit, ShuffledCards(self.rng), self.table)
        self.held = set()
        self.message.set("Choose a bet and press Deal.")
        self.refresh()


SIGNAL_TICK_MS = 100
"""How often (milliseconds) the window hands control to Python while it waits for X events,
so that Ctrl-C, SIGTERM and SIGHUP are handled then (Tk's wait is C code, where Python's
signal handlers cannot run) rather than at the next X event."""


def run_gui(*, seed: int | None, table: PayTable, advisor: Advisor, stderr: TextIO) -> int:
    """Open the window and run it until it is closed, or until Ctrl-C or a stop signal ends
    it: that interruption is raised once the window is gone (the program-entry contract
    turns it into its one line and status)."""
    try:
        root = tk.Tk()
    except tk.TclError as error:
        stderr.write(f"videopoker: cannot open a window ({error})\n")
        return 1
    VideoPokerWindow(root, rng=random.Random(seed), table=table, advisor=advisor)
    stopped = _answer_signals(root)
    try:
        root.mainloop()
    finally:
        with contextlib.suppress(tk.TclError):
            root.destroy()
    if stopped:
        raise stopped[0]
    return 0


def _answer_signals(root: tk.Tk) -> list[KeyboardInterrupt]:
    """Tick every :data:`SIGNAL_TICK_MS` so that signals are handled while the window waits;
    an interruption raised in any callback (Tk would print it and go on) ends the main loop
    and is kept in the returned list. Other errors in callbacks are reported as Tk does."""
    stopped: list[KeyboardInterrupt] = []
    report = root.report_callback_exception

    def reported(kind: type[BaseException], error: BaseException, trace: Any) -> None:
        if isinstance(error, KeyboardInterrupt):
            stopped.append(error)
            root.quit()
            return
        report(kind, error, trace)

    def tick() -> None:
        root.after(SIGNAL_TICK_MS, tick)

    root.report_callback_exception = reported
    root.after(SIGNAL_TICK_MS, tick)
    return stopped
