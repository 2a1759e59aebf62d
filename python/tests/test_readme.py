"""The README's "From PyTorch" code: parsed always, run where there is a GPU."""

import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def snippets():
    text = README.read_text()
    section = text.split("## From PyTorch", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "no ```python block in README's From PyTorch section"
    return blocks


def test_readme_python_parses():
    for code in snippets():
        compile(code, "README.md", "exec")


def test_readme_python_runs():
    torch = pytest.importorskip("torch")
    import cute_rs

    if not torch.cuda.is_available():
        pytest.skip("no GPU")
    try:
        cute_rs.device()
    except RuntimeError as e:
        pytest.skip(f"no GPU: {e}")
    for code in snippets():
        exec(compile(code, "README.md", "exec"), {})
