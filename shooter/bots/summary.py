"""What ``uno-shooter simulate`` tells a builder at a glance: how a profile behaves over many games.

From every press of the simulated games (the cards the scheduler planned and the cards that came out): the fire
rate, how big the bursts are and how long the blank runs get (histograms, as text bars or an SVG picture), cards
per press and presses per round. Beside the measured fire rate stands the one the profile expects.

The exact variants (classic, all-wild, flip) shoot no random profile: every shot's size is fixed by the rules and
counted by the exit sensor. Their summary (:class:`ExactSummary`) says how many cards were dealt and shot, the
shots by reason with their mean size, short shots and surplus, and that the bots' checks after every line (no card
lost or doubled, the controller's hand counts equal to the real hands) found nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Protocol, TextIO, TypeGuard

from ..editions.records import lookup
from ..scheduler import Profile

Shot = tuple[str, int, int | None, str | None]  # a `shot` event: reason, planned, ejected, interrupted or None


class Played(Protocol):
    """A game as the profile's summary reads it (:class:`~shooter.bots.simulate.GameResult`)."""

    @property
    def rounds(self) -> int: ...
    @property
    def planned(self) -> Sequence[int]: ...  # per press: the cards the scheduler planned
    @property
    def ejected(self) -> Sequence[int]: ...  # and the cards that came out


class PlayedExact(Played, Protocol):
    """A game of an exact variant as its summary reads it (:class:`~shooter.bots.simulate_exact.ExactGameResult`)."""

    @property
    def variant(self) -> str: ...
    @property
    def lines(self) -> int: ...
    @property
    def stats(self) -> Mapping[str, int]: ...  # the bots' counts
    @property
    def shots(self) -> Sequence[Shot]: ...


@dataclass
class Summary:
    profile: str
    expected_fire_rate: float
    games: int
    rounds: int
    presses: int
    fired: int
    cards: int
    bursts: Counter[int]       # burst size -> how many presses fired that many
    blank_runs: Counter[int]   # run length -> how many runs of that many presses in a row shot nothing

    @property
    def fire_rate(self) -> float:
        return self.fired / self.presses if self.presses else 0.0

    @property
    def cards_per_press(self) -> float:
        return self.cards / self.presses if self.presses else 0.0

    @property
    def presses_per_round(self) -> float:
        return self.presses / self.rounds if self.rounds else 0.0


def summarise(results: Sequence[Played], profile: Profile) -> Summary | ExactSummary:
    """A :class:`Summary` of :class:`~shooter.bots.results.GameResult`\\ s played with ``profile``; games of an exact
    variant (:class:`~shooter.bots.results.ExactGameResult`, whose shots the profile does not choose) get an
    :class:`ExactSummary`."""
    if _all_exact(results):
        return summarise_exact(results)
    bursts: Counter[int] = Counter()
    blank_runs: Counter[int] = Counter()
    presses = fired = cards = rounds = 0
    for result in results:
        rounds += result.rounds
        run = 0
        for planned, ejected in zip(result.planned, result.ejected, strict=True):
            presses += 1
            cards += ejected
            if planned:
                fired += 1
                bursts[planned] += 1
                if run:
                    blank_runs[run] += 1
                run = 0
            else:
                run += 1
        if run:
            blank_runs[run] += 1
    return Summary(profile.name, profile.expected_fire_rate, len(results), rounds, presses, fired, cards,
                   bursts, blank_runs)


def _all_exact(results: Sequence[Played]) -> TypeGuard[Sequence[PlayedExact]]:
    """Whether every game is of an exact variant (one of the counting family, whose shots the profile does not
    choose)."""
    return bool(results) and all((variant := getattr(r, "variant", None)) is not None and lookup(variant).counting
                                 for r in results)


def _bars(counts: Counter[int], width: int = 40) -> list[tuple[int, int, str]]:
    top = max(counts.values(), default=0)
    return [(k, counts[k], "#" * max(1, round(width * counts[k] / top))) for k in sorted(counts)]


def text(summary: Summary | ExactSummary) -> str:
    """The summary as text with bars, for a terminal."""
    if isinstance(summary, ExactSummary):
        return exact_text(summary)
    s = summary
    lines = [f"profile {s.profile}: {s.presses} presses in {s.games} games, {s.rounds} rounds",
             f"  fire rate      {s.fire_rate:6.1%} of presses fire (the profile expects {s.expected_fire_rate:.1%})",
             f"  cards/press    {s.cards_per_press:6.2f}",
             f"  presses/round  {s.presses_per_round:6.1f}"]
    for title, counts in (("burst sizes (cards per press that fired)", s.bursts),
                          ("blank runs (presses in a row that shot nothing)", s.blank_runs)):
        total = sum(counts.values())
        lines.append(f"  {title}:")
        for key, count, bar in _bars(counts):
            lines.append(f"    {key:3d} | {bar} {count} ({count / total:.0%})")
        if not counts:
            lines.append("    (none)")
    return "\n".join(lines) + "\n"


def svg(summary: Summary | ExactSummary) -> str:
    """The same as an SVG picture: the figures, then the two histograms side by side."""
    if isinstance(summary, ExactSummary):
        return exact_svg(summary)
    s = summary
    width, height, chart_top, chart_h = 820, 380, 120, 200
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="20" y="30" font-size="18" font-weight="bold">profile {escape(s.profile)}: {s.presses} presses '
           f'in {s.games} games</text>',
           f'<text x="20" y="56" font-size="13">fire rate {s.fire_rate:.1%} (expected {s.expected_fire_rate:.1%}); '
           f'{s.cards_per_press:.2f} cards per press; {s.presses_per_round:.1f} presses per round</text>']
    for i, (title, counts, colour) in enumerate((("burst sizes", s.bursts, "#1565c0"),
                                                 ("blank runs", s.blank_runs, "#9e9e9e"))):
        x0 = 40 + i * 400
        out.append(f'<text x="{x0}" y="{chart_top - 20}" font-size="14" font-weight="bold">{title}</text>')
        out.append(f'<line x1="{x0}" y1="{chart_top + chart_h}" x2="{x0 + 340}" y2="{chart_top + chart_h}" '
                   f'stroke="#333"/>')
        keys = sorted(counts)
        top = max(counts.values(), default=1)
        step = 340 / max(1, len(keys))
        for j, key in enumerate(keys):
            h = chart_h * counts[key] / top
            x = x0 + j * step
            out.append(f'<rect x="{x + 2:.1f}" y="{chart_top + chart_h - h:.1f}" width="{step - 4:.1f}" '
                       f'height="{h:.1f}" fill="{colour}"><title>{key}: {counts[key]}</title></rect>')
            out.append(f'<text x="{x + step / 2:.1f}" y="{chart_top + chart_h + 16}" font-size="11" '
                       f'text-anchor="middle">{key}</text>')
            out.append(f'<text x="{x + step / 2:.1f}" y="{chart_top + chart_h - h - 4:.1f}" font-size="10" '
                       f'text-anchor="middle">{counts[key]}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---- the exact variants ----
BOT_MOVES = ("plays", "draws", "passes", "challenges", "colour draws", "swaps", "shuffles", "uno calls", "catches",
             "void first cards", "refills")  # the bots' stats worth a glance, in this order


@dataclass
class ExactSummary:
    variant: str
    games: int
    rounds: int
    lines: int                 # console lines; after each the bots checked the cards and the hand counts
    shots: Counter[str]        # reason -> shot events
    cards: Counter[str]        # reason -> cards counted out by the exit sensor
    planned: int
    short: Counter[str]        # why shots were cut short (lid, jam, empty) -> how many: the rest stayed owed
    moves: Counter[str]        # the bots' moves (BOT_MOVES)

    @property
    def cards_shot(self) -> int:
        return sum(self.cards.values())

    @property
    def surplus(self) -> int:
        return self.moves["surplus"]

    @property
    def cards_per_shot(self) -> float:
        n = sum(self.shots.values())
        return self.cards_shot / n if n else 0.0

    @property
    def cards_per_play_shot(self) -> float:
        """Mean size of the shots of the play (everything but the deal and the first cards)."""
        n = sum(v for k, v in self.shots.items() if k not in ("deal", "first"))
        return sum(v for k, v in self.cards.items() if k not in ("deal", "first")) / n if n else 0.0


def summarise_exact(results: Sequence[PlayedExact]) -> ExactSummary:
    """An :class:`ExactSummary` of games of one exact variant (their `shot` events and the bots' stats)."""
    shots: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    moves: Counter[str] = Counter()
    short: Counter[str] = Counter()
    planned = 0
    for result in results:
        for reason, plan, ejected, interrupted in result.shots:
            shots[reason] += 1
            cards[reason] += ejected or 0
            planned += plan
            if interrupted is not None:
                short[interrupted] += 1
        moves.update({k: v for k, v in result.stats.items() if k in (*BOT_MOVES, "surplus")})
    variants = sorted({r.variant for r in results})
    return ExactSummary("+".join(variants), len(results), sum(r.rounds for r in results),
                        sum(r.lines for r in results), shots, cards, planned, short, moves)


def _kinds(counts: Counter[str]) -> str:
    return f" ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))})" if counts else ""


def exact_text(summary: ExactSummary, width: int = 30) -> str:
    """The exact summary as text: totals, then one bar per reason (cards), then the checks and the bots."""
    s = summary
    lines = [f"variant {s.variant}: {s.games} games, {s.rounds} rounds, every shot counted by the exit sensor",
             f"  cards shot     {s.cards_shot} (dealt {s.cards['deal']}, first cards {s.cards['first']}, "
             f"in play {s.cards_shot - s.cards['deal'] - s.cards['first']})",
             f"  shots          {sum(s.shots.values())}: {s.cards_per_shot:.2f} cards per shot, "
             f"{s.cards_per_play_shot:.2f} in play",
             f"  short shots    {sum(s.short.values())}{_kinds(s.short)}, the rest served by the next press; "
             f"surplus laid aside {s.surplus}",
             "  shots by reason (shots, cards, cards per shot):"]
    top = max(s.cards.values(), default=0)
    for reason in sorted(s.shots, key=lambda r: (-s.cards[r], r)):
        bar = "#" * max(1, round(width * s.cards[reason] / top)) if top and s.cards[reason] else ""
        lines.append(f"    {reason:18s} {s.shots[reason]:6d} {s.cards[reason]:7d} "
                     f"{s.cards[reason] / s.shots[reason]:6.2f} | {bar}")
    if not s.shots:
        lines.append("    (none)")
    # sim.exact_bots stops the game with a BotError naming the line at the first violation: games that ended
    # are games without one
    lines.append(f"  violations     0 cards lost or doubled, 0 hand counts wrong: checked after each of {s.lines} "
                 f"lines (the first violation stops the run)")
    lines.append("  the bots: " + ", ".join(f"{s.moves[k]} {k}" for k in BOT_MOVES))
    return "\n".join(lines) + "\n"


def exact_svg(summary: ExactSummary) -> str:
    """The exact summary as an SVG picture: the figures, then the cards shot by reason."""
    s = summary
    reasons = sorted(s.shots, key=lambda r: (-s.cards[r], r))
    width, row = 820, 24
    height = 110 + row * max(1, len(reasons))
    top = max(s.cards.values(), default=1) or 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="20" y="30" font-size="18" font-weight="bold">variant {escape(s.variant)}: {s.cards_shot} cards '
           f'in {sum(s.shots.values())} shots, {s.games} games</text>',
           f'<text x="20" y="56" font-size="13">dealt {s.cards["deal"]}; {s.cards_per_shot:.2f} cards per shot '
           f'({s.cards_per_play_shot:.2f} in play); {sum(s.short.values())} short shots; 0 violations in {s.lines} '
           f'lines checked</text>']
    for i, reason in enumerate(reasons):
        y = 80 + i * row
        w = 500 * s.cards[reason] / top
        out.append(f'<text x="20" y="{y + 15}" font-size="13">{escape(reason)}</text>')
        out.append(f'<rect x="180" y="{y}" width="{w:.1f}" height="{row - 6}" fill="#1565c0">'
                   f'<title>{reason}: {s.cards[reason]} cards in {s.shots[reason]} shots</title></rect>')
        out.append(f'<text x="{186 + w:.1f}" y="{y + 15}" font-size="12">{s.cards[reason]} cards, '
                   f'{s.shots[reason]} shots</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


class Progress:
    """``12/100 games, 8.3 games/s, 11 s left`` on one terminal line, rewritten as games end."""

    def __init__(self, total: int, stream: TextIO, clock: Callable[[], float]):
        self.total, self.stream, self.clock = total, stream, clock
        self.start = clock()
        self.done = 0

    def step(self) -> None:
        self.done += 1
        elapsed = max(1e-9, self.clock() - self.start)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate
        self.stream.write(f"\r{self.done}/{self.total} games, {rate:.1f} games/s, {left:.0f} s left ")
        self.stream.flush()

    def end(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


class Watched(Protocol):
    """A game of ``simulate --vision`` as its line reads it (:class:`~shooter.bots.results.GameResult`)."""

    @property
    def vision(self) -> Mapping[str, int] | None: ...
    @property
    def error(self) -> str | None: ...


def vision_text(results: Sequence[Watched]) -> str:
    """``simulate --vision``'s line: games in step with the cards played, and the camera's reads by outcome."""
    totals: Counter[str] = Counter()
    for result in results:
        totals.update(result.vision or {})
    in_step = sum(1 for r in results if r.error is None)
    return (f"vision: {in_step} of {len(results)} games in step with the cards played; {totals['reads']} reads: "
            f"{totals['correct']} correct, {totals['wrong']} wrong, {totals['unsure']} unsure (asked), "
            f"{totals['missed']} cards missed")
