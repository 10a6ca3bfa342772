"""YAML that keeps text exact, both ways.

Reading: every scalar is a string. YAML's implicit types would turn ``in: 03`` into the number
3 and ``in: no`` into ``False``; a transcript means the characters it shows, so the loader has
no implicit resolvers and the model converts the few numeric keys itself. (``in:`` with no
value is therefore the empty line.)

Writing: a string with two or more non-empty lines is a literal block (``|``) when that block
reads back exactly; anything a block cannot hold exactly (trailing spaces or tabs, ``\\r``,
other control characters) is double-quoted with escapes; a one-line string is plain when plain
YAML reads it back as the same string, else double-quoted. Lines are never folded.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import yaml

_STR_TAG = "tag:yaml.org,2002:str"
_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class TextLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """A safe loader that reads every scalar as the string it shows."""

    yaml_implicit_resolvers: ClassVar[dict[Any, Any]] = {}


def load_text(text: str) -> Any:
    """Parse one YAML document with :class:`TextLoader` (``yaml.YAMLError`` if malformed)."""
    return yaml.load(text, Loader=TextLoader)  # a safe loader: no objects


class _Dumper(yaml.SafeDumper):
    """Block style, sequences indented under their key, strings in their exact style."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _multi_line(text: str) -> bool:
    return sum(1 for line in text.split("\n") if line) >= 2


@functools.lru_cache(maxsize=4096)
def _literal_is_exact(text: str) -> bool:
    """Whether ``text`` as a literal block reads back as exactly ``text``."""
    probe = yaml.dump([text], Dumper=_LiteralProbe, allow_unicode=True, width=1 << 30)
    return probe.startswith("- |") and load_text(probe) == [text]


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


class _LiteralProbe(yaml.SafeDumper):
    """Dumps one string as a literal block, if PyYAML allows one at all."""


_LiteralProbe.add_representer(str, lambda d, s: d.represent_scalar(_STR_TAG, s, style="|"))
_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(FlowList, _represent_flow)


def dump_text(data: Any) -> str:
    """``data`` (dicts, lists, strings, ints, floats) as YAML, keys in the order given."""
    result: str = yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1 << 30,
    )
    return result
