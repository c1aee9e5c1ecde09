"""Every refusal message written in shooter/, found in the source (an AST scan), not listed by hand.

A site is a message a refusal can carry: the message of ``CommandError(code, ...)``, of a named error of the tree
(``BadArgument(...)``, shooter.errors), of ``command_error(code, ...)``, of a ``(code, message)`` pair (the
launcher's refusals, the table's problems), the strings the ``*_problem`` functions return, the undo blockers and
the pairing's ``NOT_PAIRED``. Each site gives its code, a sample (every field of an f-string a sample number of its
own: tests/test_i18n.py checks each has a detail template that keeps its values) and a pattern (the text as
written, a field as any text) that a refused reply's message is matched against: the sweep of
tests/refusal_rig.py must give every one of them (tests/test_refusals_change_nothing.py).

A raise whose message the scan cannot read (a variable, a call) is listed in :func:`unread` with where it is:
such a site carries a message made elsewhere (``command_error(*refusal)``) and must be one the test knows, so a
new refusal cannot hide from the scan behind a variable.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import shooter


@dataclass(frozen=True)
class Site:
    code: str
    sample: str
    pattern: str     # a regular expression of the message (fullmatch)
    where: str       # path:line under shooter/


def _read(node: ast.expr, counter: list[int]) -> list[tuple[str, str]] | None:
    """(sample, pattern) of each message ``node`` can write, or None when it is not text the scan can read."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [(node.value, re.escape(node.value))]
    if isinstance(node, ast.JoinedStr):
        sample, pattern = "", ""
        for value in node.values:
            if isinstance(value, ast.Constant):
                sample, pattern = sample + str(value.value), pattern + re.escape(str(value.value))
            else:
                counter[0] += 1
                sample, pattern = sample + str(counter[0]), pattern + ".*?"
        return [(sample, pattern)]
    if isinstance(node, ast.IfExp):   # "no wild waits ..." if w is None else f"read {w.id} is no wild ..."
        both = [_read(node.body, counter), _read(node.orelse, counter)]
        return [one for side in both if side for one in side] or None
    if isinstance(node, ast.BoolOp):   # blocked or "There is nothing to undo." (blocked: UNDO_BLOCKED's, below)
        return [one for value in node.values for one in (_read(value, counter) or [])] or None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):   # "Seat N holds" + ("; ..." or ".")
        left = _read(node.left, counter)
        right = (node.right.body, node.right.orelse) if isinstance(node.right, ast.IfExp) else (node.right,)
        rights = [r for one in right for r in (_read(one, counter) or [])]
        if left and rights:
            return [(ls + rs, lp + rp) for ls, lp in left for rs, rp in rights]
    return None


def _code(written: ast.expr, codes: set[str]) -> str | None:
    if (isinstance(written, ast.Attribute) and isinstance(written.value, ast.Name)
            and written.value.id == "ErrorCode"):   # (ErrorCode.BUSY, "...") as the launcher writes them
        from shooter.errors import ErrorCode
        return ErrorCode[written.attr].value
    if isinstance(written, ast.Constant) and written.value in codes:
        return str(written.value)
    return None


@cache
def _scan() -> tuple[tuple[Site, ...], tuple[str, ...]]:
    from shooter.access import NOT_PAIRED
    from shooter.errors import NAMED, ErrorCode
    from shooter.table.base import UNDO_BLOCKED
    root = Path(shooter.__file__).parent
    codes = {code.value for code in ErrorCode}
    named = {cls.__name__: str(code) for code, cls in NAMED.items()}
    counter = [7000]
    sites: list[Site] = []
    unread: list[str] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            pairs: list[tuple[ast.expr, ast.expr]] = []
            raising = False   # a call that makes a refusal: its message must be readable, or it is listed
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                name = node.func.id
                if name in ("CommandError", "command_error"):
                    raising = True
                    if len(node.args) == 2:
                        pairs.append((node.args[0], node.args[1]))
                elif name in named:
                    raising = True
                    if len(node.args) == 1:
                        pairs.append((ast.Constant(named[name]), node.args[0]))
            if isinstance(node, ast.Tuple) and len(node.elts) == 2:
                pairs.append((node.elts[0], node.elts[1]))
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_problem"):
                code = "no-exit-sensor" if "sensor" in node.name else "too-late"
                pairs += [(ast.Constant(code), r.value) for r in ast.walk(node)
                          if isinstance(r, ast.Return) and isinstance(r.value, ast.JoinedStr | ast.Constant)]
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
            read = False
            for written, message in pairs:
                code = _code(written, codes)
                if code is None:
                    continue
                for sample, pattern in _read(message, counter) or []:
                    sites.append(Site(code, sample, pattern, where))
                    read = True
            if raising and not read:
                unread.append(f"{path.relative_to(root)}: {ast.unparse(node)}")
    sites += [Site("cannot-undo", text, re.escape(text), "table/base.py UNDO_BLOCKED")
              for text in UNDO_BLOCKED.values()]
    sites.append(Site("not-paired", NOT_PAIRED, re.escape(NOT_PAIRED), "access.py NOT_PAIRED"))
    return tuple(sites), tuple(unread)


def sites() -> tuple[Site, ...]:
    """Every refusal message site of shooter/ (see the module docstring)."""
    return _scan()[0]


def unread() -> tuple[str, ...]:
    """Each refusal made with a message the scan cannot read: ``path: call`` (``table/families.py:
    TooLate(problem)``), no line number, so that it stays the same as the code around it changes."""
    return _scan()[1]


def messages() -> dict[tuple[str, str], list[Site]]:
    """The refusal messages: the sites by (code, pattern); two sites that write the same text are one message
    (a reply cannot tell them apart)."""
    found: dict[tuple[str, str], list[Site]] = {}
    for site in sites():
        found.setdefault((site.code, site.pattern), []).append(site)
    return found


def reached(given: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The messages (code, pattern) some refusal of ``given`` ((code, message) pairs) was written from."""
    compiled = {key: re.compile(key[1], re.S) for key in messages()}
    by_code: dict[str, list[str]] = {}
    for code, message in given:
        by_code.setdefault(code, []).append(message)
    return {key for key, pattern in compiled.items()
            if any(pattern.fullmatch(m) for m in by_code.get(key[0], ()))}
