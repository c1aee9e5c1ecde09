"""Ejection scheduler: what one press of the button does (H-RANDOM).

Per press the scheduler answers ``0`` (nothing comes out) or ``n`` (a burst of
``n`` cards). It is pure: no clock, no I/O and no global :mod:`random`; all
chance comes from the :class:`random.Random` it is given, and only through its
``random()`` method, whose sequence Python guarantees to stay the same across
versions for the same seed. So a game is replayed exactly by the same seed,
the same profile and the same calls (presses and restarts) in the same order.

One call of :meth:`Scheduler.next_press` is one press (T-EXACT): the caller
asks exactly as many times as the rules owe and never "until something comes
out".

The pattern is a small state machine over runs. The state is the length of the
current run: ``blank_run`` (presses in a row that gave nothing) or
``shot_run`` (presses in a row that fired), counted since the last restart;
at most one of them is non-zero, and ``(0, 0)`` is the fresh state. A
:class:`Profile` gives the chance to fire in each state and the burst sizes;
the scheduler enforces the profile's hard run limits itself, *before* asking
for a chance: at the blank limit the press fires, at the shot limit it does
not, with no random draw. The limits therefore hold by construction, whatever
the chances and whatever the random stream.

:meth:`Scheduler.restart` (the lid was cycled, or the controller started)
resets the run counters, as the original launcher restarts its pattern: after
a restart the limits count from zero again, so "3 blanks, lid cycled, 3
blanks" is possible, exactly as on the original. The random stream is *not*
rewound: a reload does not replay the opening of the previous magazine.
"""

from .checks import BURST_MAX, BURST_MIN
from .config import profile_from_config
from .pattern import Scheduler
from .profiles import PROFILES, CustomProfile, OriginalProfile, Profile, UniformProfile

__all__ = [
    "BURST_MIN",
    "BURST_MAX",
    "Profile",
    "OriginalProfile",
    "CustomProfile",
    "UniformProfile",
    "Scheduler",
    "profile_from_config",
    "PROFILES",
]
