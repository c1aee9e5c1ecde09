"""Whole games played by bots at the simulated table (``uno-shooter simulate``), what they leave and
what a builder reads from them."""
