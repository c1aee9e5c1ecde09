"""Put on a controller's PYTHONPATH (with UNO_SHOOTER_HOUSE_DECKS=1) to start it with tests/house_decks.py's
editions registered, as a house deck would be: the browser check of tests/test_editions_fifth.py."""

import os

if os.environ.get("UNO_SHOOTER_HOUSE_DECKS") == "1":
    from tests import house_decks

    house_decks.register_all()
