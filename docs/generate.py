"""Bring the generated parts of the docs up to date with the code, in place.

    python docs/generate.py

- every ```console block that starts with `$ uno-shooter run ...` is run again (its `> ` lines are the input)
  and its output replaced;
- the ```mermaid block after "## The state machine" in shooter.md is redrawn from the launcher's table,
  and the one after "## The table's state machine" in rules.md from the table's;
- the rows of the beep table in shooter.md are rewritten from shooter/beeps.py;
- docs/wiring.svg is drawn again from the default pin map (hal/settings.py; docs/wiring.py), and the README's
  picture of the box, docs/box.svg (docs/box.py).
tests/test_docs.py fails whenever one of these is stale.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).parent
sys.path.insert(0, str(DOCS.parent))
sys.path.insert(0, str(DOCS))


def run_session(args: str, inputs: list[str]) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "shooter", "run", *args.split()],
                         input=("\n".join(inputs) + "\n").encode(), capture_output=True, cwd=DOCS.parent)
    outs = out.stdout.decode().splitlines()
    lines, i = [], 0
    for text in inputs:
        lines.append("> " + text)
        if not text.strip() or text.startswith("#"):
            continue
        while i < len(outs):  # the reply ...
            lines.append(outs[i])
            i += 1
            if "reply" in json.loads(lines[-1]):
                break
        while i < len(outs) and "event" in json.loads(outs[i]):  # ... then its events
            lines.append(outs[i])
            i += 1
    return lines


def sessions(text: str) -> str:
    def redo(m):
        args, body = m.group(1), m.group(2)
        inputs = [line[2:] for line in body.splitlines() if line.startswith("> ")]
        return "```console\n$ uno-shooter run " + args + "\n" + "\n".join(run_session(args, inputs)) + "\n```"
    return re.sub(r"```console\n\$ uno-shooter run (.*?)\n(.*?)```", redo, text, flags=re.S)


def mermaid(text: str, heading: str, diagram: str) -> str:
    pattern = re.compile(re.escape(heading) + r"(.*?)```mermaid\n.*?```", re.S)
    return pattern.sub(lambda m: heading + m.group(1) + "```mermaid\n" + diagram.strip() + "\n```", text, count=1)


def beep_rows(text: str) -> str:
    from shooter import beeps
    head, _, tail = text.partition("## Beeps")
    for name, (pattern, meaning) in beeps.VOCABULARY.items():
        notes = " ".join(("rest" if f is None else f"{f:g} Hz") + f" {s:g} s" for f, s in pattern)
        tail = re.sub(rf"^\| `{re.escape(name)}` \|.*$", f"| `{name}` | {notes} | {meaning} |", tail, flags=re.M)
    return head + "## Beeps" + tail if _ else text


def wiring() -> None:
    from wiring import wiring_svg  # docs/wiring.py

    from hal.settings import PinMap
    path = DOCS / "wiring.svg"
    svg = wiring_svg(PinMap())
    if not path.exists() or path.read_text() != svg:
        path.write_text(svg)
        print(f"updated {path.relative_to(DOCS.parent)}")
    from box import box_svg  # docs/box.py
    path = DOCS / "box.svg"
    if not path.exists() or path.read_text() != box_svg():
        path.write_text(box_svg())
        print(f"updated {path.relative_to(DOCS.parent)}")


def main() -> None:
    wiring()
    from shooter.launcher import launcher_diagram
    for path in sorted(DOCS.glob("*.md")):
        text = original = path.read_text()
        text = sessions(text)
        if path.name == "shooter.md":
            text = mermaid(text, "## The state machine", launcher_diagram())
            text = beep_rows(text)
        if path.name == "rules.md":
            from shooter.editions import COUNTING
            from shooter.table import table_diagram
            text = mermaid(text, "## The table's state machine", table_diagram())
            text = mermaid(text, "## The counting family's state machine", table_diagram(COUNTING))
        if text != original:
            path.write_text(text)
            print(f"updated {path.relative_to(DOCS.parent)}")


if __name__ == "__main__":
    main()
