"""The pile watcher's thresholds, one record (:class:`WatchSettings`): how motion and a change of the pile are told
(:mod:`shooter.vision.watcher`), how sure a read is (:mod:`shooter.vision.match`), when a card is looked at again
darker. Levels are shares of the view's white."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WatchSettings:
    """The watcher's thresholds (levels are shares of the view's white, the 99th percentile of its brightest
    channel, so that a dim room and a bright one are watched alike)."""

    shrink: int = 2                  # frames are compared at 1/shrink of their size
    motion_level: float = 0.06       # a pixel that changed this much (a share of the view's white) moved
    motion_share: float = 0.002      # this share of the region moving is motion (restarts the window)
    settle_s: float = 0.25           # a new card must lie still this long before it is read
    change_level: float = 0.1        # a pixel that changed this much (a share of white) since the last card
    floor: float = 9.0               # ... but never less than this many levels (the sensor's noise)
    min_card_share: float = 0.02     # a card covers at least this share of the region
    sure: float = 0.5                # reads below this confidence are unsure
    symbol_sure: float = 0.3         # the symbol's match (mean-less correlation) that is half sure
    symbol_gap: float = 0.2          # its lead over the next face (a share of the most it could be) half sure
    apart_floor: float = 0.1         # ... the most counted no less than this (a lead of noise is no lead)
    apart_cap: float = 0.3           # ... and no more (faces unlike each other: a lead of 0.06 is half sure)
    told_gap: float = 0.06           # ... or its lead where the two nearest faces' looks differ that is half sure
    ink_sure: float = 0.7            # the nearest ink's distance over the next one's that is half sure
    ink_noise: float = 0.05          # ... each distance counted this much larger (two inks both within the
                                     # sensor's noise of the read, 0.004 and 0.02 away, are not one sure)
    darker: float = 0.6              # a card whose white the sensor clipped is looked at again at this share of
                                     # the exposure it was seen at (a white past the top by up to 1.6 times comes
                                     # under it in one look; a lamp and a glare together take two or three)
    darkest: float = 0.15            # ... but never darker than this share of the camera's own exposure
    dim: float = 0.45                # a view whose white is under this share of the sensor's top, seen at less
                                     # than the camera's own exposure, is brightened by 1 / darker (a lamp turned
                                     # down; under 0.75 of the top then: a card it clipped before stays unclipped)
    darker_wait_s: float = 1.0       # a camera that has not taken a frame darker by then cannot: the card is read
                                     # from its first look
