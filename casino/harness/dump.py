"""Transcripts back to YAML: keys in the documented order, text kept exact.

What :mod:`casino.harness.load` read and :mod:`casino.harness.parse` validated is written back
as it was: keys that were absent (``None``) are left out, numbers are plain (``3``, not
``3.0``), and :mod:`casino.harness.yamltext` keeps every string exact.
"""

from __future__ import annotations

from typing import Any

from casino.harness.model import (
    Fixture,
    Inline,
    OutAny,
    OutRe,
    Run,
    Step,
    Transcript,
    plain_number,
    step_key,
)
from casino.harness.playspec import Play
from casino.harness.rubric import facts_data, rubric_data
from casino.harness.yamltext import FlowList, dump_text


def dump_transcript(transcript: Transcript) -> str:
    """The transcript as YAML, keys in the documented order, text kept exact."""
    data: dict[str, Any] = {"name": transcript.name}
    if transcript.program is not None:
        data["program"] = transcript.program
    _put(data, "reference", transcript.reference)
    run_data = [_run_data(run) for run in transcript.runs]
    if transcript.single:
        first = run_data[0]
        if "args" in first:
            data["args"] = first.pop("args")
    _put(data, "seed", transcript.seed)
    if transcript.files is not None:
        data["files"] = {name: _content_data(content) for name, content in transcript.files}
    if transcript.play is not None:
        data["play"] = _play_data(transcript.play)
    elif transcript.single:
        data.update(run_data[0])
    else:
        data["runs"] = run_data
    _put(data, "timeout", plain_number(transcript.timeout))
    _put(data, "points", plain_number(transcript.points))
    _put(data, "match", None if transcript.match is None else list(transcript.match))
    _put(data, "visibility", transcript.visibility)
    _put(data, "rubric", None if transcript.rubric is None else rubric_data(transcript.rubric))
    _put(data, "facts", None if transcript.facts is None else facts_data(transcript.facts))
    return dump_text(data)


def _play_data(play: Play) -> dict[str, Any]:
    data = play.to_data()
    if isinstance(data["stones"], list):
        flow: list[Any] = FlowList()  # on one line: stones: [3, 5, 7]
        flow.extend(data["stones"])
        data["stones"] = flow
    return data


def _run_data(run: Run) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if run.args is not None:
        data["args"] = FlowList(run.args)
    data["steps"] = [{step_key(step): _value(step)} for step in run.steps]
    _put(data, "exit", run.exit)
    _put(data, "stderr", run.stderr)
    _put(data, "points", plain_number(run.points))
    return data


def _value(step: Step) -> str | list[str]:
    if isinstance(step, OutAny):
        return list(step.texts)
    return step.pattern if isinstance(step, OutRe) else step.text


def _content_data(content: Inline | Fixture) -> str | dict[str, str]:
    return content.text if isinstance(content, Inline) else {"fixture": content.path}


def _put(data: dict[str, Any], key: str, value: object) -> None:
    if value is not None:
        data[key] = value
