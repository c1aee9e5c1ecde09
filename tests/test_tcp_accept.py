"""The TCP console's accept loop when the descriptors run out (issue 15, item 3): it backs off and writes one line
per kind of problem a minute, with a count, not a line (or a traceback) per failed accept.

The accept and the back-off's wait are the console's seams: 1,000 failures take no time and no sleep.
"""

import errno

from tests.test_tcp_console import Served


def test_a_thousand_failed_accepts_back_off_and_write_one_line():
    pauses = []
    served = Served(wait=lambda s: pauses.append(s) or False)
    try:
        real_accept = served.console.accept
        failures = [OSError(errno.EMFILE, "Too many open files") for _ in range(1000)]

        def accept():
            if failures:
                raise failures.pop()
            return real_accept()
        served.console.accept = accept
        assert served.ask("version")["ok"]   # accepted by the accept already waiting, or after the failures
        assert served.ask("version")["ok"]   # accepted after the failures
        assert served.console.accept_errors == 1000
        assert max(pauses) == 1.0 and pauses[:3] == [0.05, 0.1, 0.2]   # backed off, to a second at most
        assert len(served.logged) == 1 and "Too many open files" in served.logged[0]
        # (the count follows with the next line of the kind a minute later: shooter/lograte.py's examples)
    finally:
        served.close()
