"""The camera over the discard pile, wired in: its frames through the pile watcher (vision/), its
reads to the table, the words of its settings and the ``cards`` command."""
