"""Fail loud: no broad ``except`` anywhere in the product swallows an error without a word."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SOURCES = sorted(p for d in ("hal", "sim", "shooter") for p in (ROOT / d).rglob("*.py"))
BROAD = {"Exception", "BaseException"}


def silent_broad_handlers(path: Path) -> list[int]:
    """Line numbers of ``except [Base]Exception`` (or bare ``except``) whose body does nothing."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ExceptHandler):
            continue
        names = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)} if node.type else BROAD
        silent = all(isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
                     for s in node.body)
        if names & BROAD and silent:
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_broad_except_passes_silently(path):
    assert silent_broad_handlers(path) == []
