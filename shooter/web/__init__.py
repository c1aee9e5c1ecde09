"""The web console: the phone page, its WebSocket and pairing with the shooter's button.

``pairing`` runs on the control loop and needs nothing outside the standard
library; ``server`` needs aiohttp (the ``web`` extra) and is imported only when
the web console is enabled.
"""
