"""Runs the steps of the repository's `action.yml` as a GitHub runner would, on this machine.

Each `run:` step is a bash script (`bash --noprofile --norc -eo pipefail`, the runner's own
command line); the `${{ inputs.* }}`, `${{ github.action_path }}` and `${{ steps.*.outputs.* }}`
expressions in its script and `env:` are replaced by their values, and each step gets its own
`GITHUB_OUTPUT` file, read back into `steps.<id>.outputs`. A fresh venv stands in for
`actions/setup-python`, the only `uses:` step; any other expression or `uses:` fails the run,
so the action cannot grow a step this runner would silently skip.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
ACTION = REPO / "action.yml"
_EXPRESSION = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")


@dataclass
class ActionRun:
    """What running the action gave: each step's name and result, the action's outputs."""

    steps: list[tuple[str, subprocess.CompletedProcess[str]]] = field(default_factory=list)
    outputs: dict[str, str] = field(default_factory=dict)

    @property
    def failed(self) -> str | None:
        """The name of the step that failed, or None when every step passed."""
        return next((name for name, done in self.steps if done.returncode != 0), None)


def action() -> dict[str, Any]:
    """The parsed action.yml."""
    loaded: dict[str, Any] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    return loaded


def run_action(inputs: dict[str, str], workspace: Path, venv_bin: Path,
               action_path: Path = REPO) -> ActionRun:
    """Run the action with `inputs` (the rest take their defaults) in `workspace`, with the
    venv whose scripts are in `venv_bin` first on PATH; stops at the first failing step."""
    spec = action()
    unknown = set(inputs) - set(spec["inputs"])
    assert not unknown, f"not inputs of the action: {unknown}"
    values = {f"inputs.{name}": str(inputs.get(name, row.get("default", "")))
              for name, row in spec["inputs"].items()}
    values["github.action_path"] = str(action_path)
    result = ActionRun()
    for number, step in enumerate(spec["runs"]["steps"]):
        if "uses" in step:
            assert step["uses"].startswith("actions/setup-python@"), step["uses"]
            continue
        done, outputs = _run_step(step, values, workspace, venv_bin, number)
        result.steps.append((step.get("name", step["run"]), done))
        if done.returncode != 0:
            return result
        values.update({f"steps.{step.get('id')}.outputs.{key}": value
                       for key, value in outputs.items()})
    result.outputs = {name: _substitute(row["value"], values)
                      for name, row in spec.get("outputs", {}).items()}
    return result


def _run_step(step: dict[str, Any], values: dict[str, str], workspace: Path, venv_bin: Path,
              number: int) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """One `run:` step's result and the outputs it wrote to its GITHUB_OUTPUT file."""
    assert step.get("shell") == "bash", "a composite action's run step must name its shell"
    output_file = workspace.parent / f"github-output-{number}"
    output_file.write_text("", encoding="utf-8")
    env = {**os.environ, "PATH": f"{venv_bin}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(venv_bin.parent), "GITHUB_OUTPUT": str(output_file)}
    env.update({key: _substitute(str(value), values)
                for key, value in step.get("env", {}).items()})
    script = workspace.parent / f"step-{number}.sh"
    script.write_text(_substitute(step["run"], values), encoding="utf-8")
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=workspace, env=env, capture_output=True, text=True, check=False,
                          timeout=600)
    lines = output_file.read_text(encoding="utf-8").splitlines()
    return done, dict(line.split("=", 1) for line in lines if "=" in line)


def _substitute(text: str, values: dict[str, str]) -> str:
    """`text` with each `${{ name }}` replaced by its value; fails on a name it cannot give."""
    def value(match: re.Match[str]) -> str:
        assert match.group(1) in values, f"no value for ${{{{ {match.group(1)} }}}}"
        return values[match.group(1)]
    return _EXPRESSION.sub(value, text)
