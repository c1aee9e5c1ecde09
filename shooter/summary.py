"""What ``uno-shooter simulate`` tells a builder at a glance: how a profile behaves over many games.

From every press of the simulated games (the cards the scheduler planned and the cards that came out): the fire
rate, how big the bursts are and how long the blank runs get (histograms, as text bars or an SVG picture), cards
per press and presses per round. Beside the measured fire rate stands the one the profile expects.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from html import escape


@dataclass
class Summary:
    profile: str
    expected_fire_rate: float
    games: int
    rounds: int
    presses: int
    fired: int
    cards: int
    bursts: Counter            # burst size -> how many presses fired that many
    blank_runs: Counter        # run length -> how many runs of that many presses in a row shot nothing

    @property
    def fire_rate(self) -> float:
        return self.fired / self.presses if self.presses else 0.0

    @property
    def cards_per_press(self) -> float:
        return self.cards / self.presses if self.presses else 0.0

    @property
    def presses_per_round(self) -> float:
        return self.presses / self.rounds if self.rounds else 0.0


def summarise(results, profile) -> Summary:
    """A :class:`Summary` of :class:`~shooter.simulate.GameResult`\\ s played with ``profile``."""
    bursts, blank_runs = Counter(), Counter()
    presses = fired = cards = rounds = 0
    for result in results:
        rounds += result.rounds
        run = 0
        for planned, ejected in zip(result.planned, result.ejected):
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


def _bars(counts: Counter, width: int = 40) -> list[tuple[int, int, str]]:
    top = max(counts.values(), default=0)
    return [(k, counts[k], "#" * max(1, round(width * counts[k] / top))) for k in sorted(counts)]


def text(summary: Summary) -> str:
    """The summary as text with bars, for a terminal."""
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


def svg(summary: Summary) -> str:
    """The same as an SVG picture: the figures, then the two histograms side by side."""
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


class Progress:
    """``12/100 games, 8.3 games/s, 11 s left`` on one terminal line, rewritten as games end."""

    def __init__(self, total: int, stream, clock):
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
