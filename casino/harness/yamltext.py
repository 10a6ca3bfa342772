"""YAML that keeps text exact, both ways.

Reading: every scalar is a string. YAML's implicit types would turn ``in: 03`` into the number
3 and ``in: no`` into ``False``; a transcript means the characters it shows, so the loader
resolves no types and the model converts the few numeric keys itself. (``in:`` with no
value is therefore the empty line.)

Writing: a string with two or more non-empty lines is a literal block (``|``) when that block
reads back exactly; anything a block cannot hold exactly (trailing spaces or tabs, ``\\r``,
other control characters) is double-quoted with escapes; a one-line string is plain when plain
YAML reads it back as the same string, else double-quoted. Lines are never folded.

A transcript is data, so reading is also strict where YAML is generous: no tags (``!!int``),
anchors (``&a``) or aliases (``*a``) — an alias bomb cannot grow a few kilobytes into
gigabytes —, collections nested at most :data:`MAX_DEPTH` deep, mapping keys that are text and
appear once, one document, and only the characters YAML allows in a stream (a NUL or ESC in
text is written as an escape in double quotes). The objects are built from PyYAML's event
stream, which is not recursive, so no nesting can overflow a C stack. Every refusal is a
:class:`TextError` saying where (line and column), the same whatever the PyYAML release and
whether or not it has its C loader (libyaml): a limit PyYAML enforces itself (libyaml 0.2.6
stops at 1000 levels) is reported as casino's own, where casino's check places it.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from casino.errors import ParseError

if TYPE_CHECKING:
    import yaml

# PyYAML is imported on the first load or dump, not with this module: a command that reads no
# transcript (``casino replay`` of an empty folder, every game) never pays for it.

_STR_TAG = "tag:yaml.org,2002:str"
_EventLoader: type[yaml.BaseLoader] | None = None
"""The loader that reads events (``None``: libyaml's when PyYAML has it, else its own)."""

MAX_DEPTH = 16
"""How deep collections may nest (a transcript needs 5: itself, runs, a run, steps, a step)."""


@functools.cache
def _not_yaml() -> re.Pattern[str]:
    """A character YAML does not allow in a stream (NUL, ESC and the other control characters,
    surrogates, U+FFFE and U+FFFF): the complement of YAML 1.1's printable set (tab, newline,
    return, ``\\x20``–``\\x7e``, ``\\x85``, ``\\xa0``–``\\ud7ff``, ``\\ue000``–``\\ufffd``,
    ``\\U00010000``–``\\U0010ffff``), written as the few ranges outside it, which compile in a
    tenth of the time the printable ranges' negation takes; compiled on first use."""
    return re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


class TextError(ParseError):
    """YAML that :func:`load_text` refuses; the message is one line starting with where."""

    def __init__(self, problem: str, line: int | None = None, column: int | None = None) -> None:
        where = f"line {line}, column {column}: " if line is not None else ""
        super().__init__(f"{where}{problem}")
        self.problem = problem
        self.line = line
        self.column = column


class MarkedMap(dict[str, Any]):
    """A mapping read by :func:`load_text`: it also knows where each key was written."""

    __slots__ = ("marks",)

    def __init__(self) -> None:
        super().__init__()
        self.marks: dict[str, Any] = {}


class MarkedList(list[Any]):
    """A sequence read by :func:`load_text`: it also knows where each item starts."""

    __slots__ = ("marks",)

    def __init__(self) -> None:
        super().__init__()
        self.marks: list[Any] = []


def position(container: Any, key: Any) -> tuple[int, int] | None:
    """The 1-based (line, column) of ``container[key]`` as written, if it was read from YAML:
    for a mapping where the key is, for a sequence where the item is."""
    mark = None
    if isinstance(container, MarkedMap):
        mark = container.marks.get(key)
    elif isinstance(container, MarkedList) and isinstance(key, int) and 0 <= key < len(container):
        mark = container.marks[key]
    return None if mark is None else (mark.line + 1, mark.column + 1)


def load_text(text: str) -> Any:
    """Parse one YAML document into strings, :class:`MarkedMap` and :class:`MarkedList` (an
    empty document is ``None``); :class:`TextError` if it is malformed or uses what a
    transcript needs not (see the module's docstring)."""
    _check_characters(text)
    try:
        return _load(text)
    except _LibraryLimit as limit:
        raise _too_deep(text, limit.mark) from None


_LIBRARY_DEPTH_LIMIT = "maximum nesting depth"
"""What PyYAML says when it stops nesting itself (libyaml 0.2.6 and later, bundled with PyYAML
6.0.2 and later: ``exceeded maximum nesting depth`` at 1000 levels)."""


class _LibraryLimit(Exception):
    """Control flow, not an error: PyYAML stopped at its own nesting limit, at ``mark``."""

    def __init__(self, mark: Any) -> None:
        super().__init__()
        self.mark = mark


def _load(text: str) -> Any:
    import yaml

    kind = _EventLoader
    if kind is None:
        kind = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    loader = kind(text)
    try:
        return _build(loader.get_event)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        if _LIBRARY_DEPTH_LIMIT in str(error.problem) and mark is not None:
            raise _LibraryLimit(mark) from None
        problem = f"not valid YAML: {error.problem or error.context or 'malformed'}"
        raise TextError(problem, *_place(mark)) from None
    except yaml.YAMLError as error:
        raise TextError(f"not valid YAML: {getattr(error, 'reason', None) or error}") from None
    finally:
        loader.dispose()


def _too_deep(text: str, mark: Any) -> TextError:
    """casino's own refusal of ``text``, which PyYAML refused as nested deeper than its own
    limit at ``mark``, the same whatever the release and with or without libyaml.

    libyaml scans ahead of the events casino checks, so it can stop at its limit (1000 levels)
    before casino's check (:data:`MAX_DEPTH`) sees the 17th. Everything before ``mark`` is read
    again: it is nested deeper than casino allows, and nothing in it is past a library limit,
    so the error is the one a PyYAML without that limit gives — casino's, saying where.
    """
    try:
        _load(text[: mark.index])
    except TextError as error:
        if error.line is not None and (error.line, error.column) < _place(mark):
            return error  # not where the text was cut: what a PyYAML without the limit says
    except _LibraryLimit:
        pass
    return TextError(f"nested more than {MAX_DEPTH} deep", *_place(mark))


def _check_characters(text: str) -> None:
    found = _not_yaml().search(text)
    if found is None:
        return
    at = found.start()
    line = text.count("\n", 0, at) + 1
    column = at - text.rfind("\n", 0, at)
    code = ord(found.group())
    escape = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    raise TextError(
        f"character U+{code:04X} is not allowed in YAML (write it as {escape} in double quotes)",
        line,
        column,
    )


def _place(mark: Any) -> tuple[int, int] | tuple[()]:
    return (mark.line + 1, mark.column + 1) if mark is not None else ()


_NO_KEY = object()


def _build(next_event: Any) -> Any:
    """The document's value, built from events with a stack instead of recursion.

    One loop with the innermost collection and its pending key in local variables: this is
    the load path of every transcript, so it is kept as fast as PyYAML's own composer.
    """
    from yaml import (
        AliasEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    starts, ends = (MappingStartEvent, SequenceStartEvent), (MappingEndEvent, SequenceEndEvent)
    root = MarkedList()
    container: Any = root
    key: Any = _NO_KEY
    stack: list[Any] = [root]
    keys: list[Any] = []
    documents = 0
    while True:
        event = next_event()
        kind = type(event)
        if kind is ScalarEvent:
            if event.tag is not None or event.anchor is not None:
                _refuse_decorations(event)
            value: Any = event.value
        elif kind in starts:
            _refuse_decorations(event)
            if len(stack) > MAX_DEPTH:
                raise _refused(f"nested more than {MAX_DEPTH} deep", event)
            value = MarkedMap() if kind is MappingStartEvent else MarkedList()
        elif kind in ends:
            stack.pop()
            container, key = stack[-1], keys.pop()
            continue
        elif kind is AliasEvent:
            raise _refused(f"an alias (*{event.anchor}): a transcript has none", event)
        elif kind is StreamEndEvent:
            return root[0] if root else None
        else:
            documents += kind is DocumentStartEvent
            if documents > 1:
                raise _refused("a second document: a transcript is one document", event)
            continue
        if type(container) is MarkedList:
            container.append(value)
            container.marks.append(event.start_mark)
        elif key is not _NO_KEY:
            container[key] = value
            key = _NO_KEY
        elif type(value) is not str:
            raise _refused("a mapping key must be text, not a list or mapping", event)
        elif value in container:
            raise _refused(f"key {value!r} appears twice in this mapping", event)
        else:
            container.marks[value] = event.start_mark
            key = value
        if kind is not ScalarEvent:
            stack.append(value)
            keys.append(key)
            container, key = value, _NO_KEY


def _refuse_decorations(event: Any) -> None:
    if event.anchor is not None:
        raise _refused(f"an anchor (&{event.anchor}): a transcript has none", event)
    if event.tag is not None:
        tag = event.tag.replace("tag:yaml.org,2002:", "!!", 1)
        raise _refused(f"a tag ({tag}): a transcript has none", event)


def _refused(problem: str, event: Any) -> TextError:
    return TextError(problem, *_place(event.start_mark))


def _multi_line(text: str) -> bool:
    return sum(1 for line in text.split("\n") if line) >= 2


@functools.lru_cache(maxsize=4096)
def _literal_is_exact(text: str) -> bool:
    """Whether ``text`` as a literal block reads back as exactly ``text``."""
    import yaml

    probe = yaml.dump([text], Dumper=_dumpers()[1], allow_unicode=True, width=1 << 30)
    if not probe.startswith("- |"):
        return False
    try:
        return bool(load_text(probe) == [text])
    except TextError:
        return False


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    if _multi_line(text) and _literal_is_exact(text):
        style = "|"
    elif _plain_is_exact(dumper, text):
        style = ""
    else:
        style = '"'
    return dumper.represent_scalar(_STR_TAG, text, style=style or None)


def _plain_is_exact(dumper: yaml.SafeDumper, text: str) -> bool:
    """Plain only if standard YAML would also read it as this string (not 7, not true)."""
    import yaml

    if "\n" in text:
        return False
    tag = dumper.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    return tag == _STR_TAG and bool(dumper.analyze_scalar(text).allow_block_plain)


class FlowList(list[str]):
    """A list written on one line (``args: [-d, "10000"]``)."""


def _represent_flow(dumper: yaml.SafeDumper, items: FlowList) -> yaml.SequenceNode:
    node = dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=True)
    for item in node.value:
        if item.style is None and not dumper.analyze_scalar(item.value).allow_flow_plain:
            item.style = '"'
    return node


@functools.cache
def _dumpers() -> tuple[type[yaml.SafeDumper], type[yaml.SafeDumper]]:
    """casino's dumper (block style, sequences indented under their key, strings in their
    exact style) and the probe that dumps one string as a literal block if PyYAML allows one
    at all; made on the first dump, so that importing this module does not import PyYAML."""
    import yaml

    class Dumper(yaml.SafeDumper):
        def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
            super().increase_indent(flow, False)

    class LiteralProbe(yaml.SafeDumper):
        pass

    LiteralProbe.add_representer(str, lambda d, s: d.represent_scalar(_STR_TAG, s, style="|"))
    Dumper.add_representer(str, _represent_str)
    Dumper.add_representer(FlowList, _represent_flow)
    return Dumper, LiteralProbe


def dump_text(data: Any) -> str:
    """``data`` (dicts, lists, strings, ints, floats) as YAML, keys in the order given."""
    import yaml

    result: str = yaml.dump(
        data,
        Dumper=_dumpers()[0],
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1 << 30,
    )
    return result
