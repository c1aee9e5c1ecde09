"""The recogniser (numpy + OpenCV, no model weights): the camera over the discard pile tells what was played.

The API (docs/vision.md):

- a camera: ``hal.camera.open_camera(settings)`` (picamera2, opencv) or ``sim.camera.SimCamera(pile, rng,
  settings)`` for ``--sim``; :func:`camera_from_config` picks one from ``[camera]``; each has ``capture()``.
- :class:`PileWatcher` ``(deck, region, settings)``: ``feed(frame, now) -> Read | None``, a :class:`Read` on the
  frame in which a new card settled; pure (no thread, no clock of its own: ``now`` is passed in), its thresholds
  the fields of :class:`WatchSettings` (:mod:`shooter.vision.settings`); what it straightened is matched to the
  deck by :func:`classify` (:mod:`shooter.vision.match`). :func:`read_still` reads the top card of one photo.
- learning: :func:`learn` (features of each face shown -> a :class:`Deck`), :func:`learn_sim` (from the rendered
  learning set); the templates file: :func:`load_templates` / :func:`save_templates` (``card-templates.json`` in
  the state directory, through ``Store.load_or_set_aside``), :class:`Templates` ``.deck(edition_key)``.
- the owner's photos (``cards learn DIR``, ``cards test DIR``): :mod:`shooter.vision.photos` (``learn_photos``,
  ``test_photos``, the naming rule), :mod:`shooter.vision.report` (the contact sheet), :mod:`shooter.vision.phone`
  (phone photos rendered by the simulated camera, to measure them on).
- rendered sets from the edition records, in one call each: :func:`learning_set`, :func:`held_out_set`
  (:func:`faces_of` lists an edition's faces).

Importing this package loads numpy and OpenCV (the ``vision`` extra); nothing else of the shooter imports it
unless a camera is configured or a ``cards`` command runs.
"""

from ..camera.reads import Read
from .card import Features, features
from .learn import learn, learn_sim
from .live import camera_from_config, region_of
from .match import classify
from .settings import WatchSettings
from .synthetic import FaceSpec, Shot, Truth, faces_of, held_out_set, learning_set
from .templates import Deck, Face, Templates, load as load_templates, save as save_templates
from .watcher import PileWatcher, read_still

__all__ = ["Deck", "Face", "FaceSpec", "Features", "PileWatcher", "Read", "Shot", "Templates", "Truth",
           "WatchSettings", "camera_from_config", "classify", "faces_of", "features", "held_out_set", "learn",
           "learn_sim", "learning_set", "load_templates", "read_still", "region_of", "save_templates"]
