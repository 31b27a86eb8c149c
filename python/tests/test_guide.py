"""The guide's examples (docs/python.md) run as written, with fewer games:
each ```python block in order, in one namespace, as a reader would paste
them. A block that plots runs only where matplotlib is installed; the
metrics it plots are checked either way."""

import importlib.util
import re
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def blocks():
    return re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.S)


def test_the_guide_s_examples_run_as_written_with_fewer_games(capsys):
    code = blocks()
    assert len(code) >= 3, "the guide's examples were not found"
    plots = importlib.util.find_spec("matplotlib") is not None
    scope = {}
    for block in code:
        if ".plot" in block and not plots:
            continue
        exec(re.sub(r"games=\d+", "games=10", block), scope)
    plotted = {"towers", "captures", "margin", "lead_changes"}
    assert plotted <= set(scope["run"].differences["metric"])
    assert '"event"' in capsys.readouterr().out, "the environment's log was printed"
