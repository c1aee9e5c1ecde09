"""The console's commands: the command table (:mod:`.table`), how a line runs through it
(:mod:`.dispatch`) and the parts the commands run on (the table's desk, the web console's
pairing, the simulator). The table names the controller's own commands, so it is imported
by the composition root, never by the controller."""
