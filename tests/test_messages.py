"""The messages for typical user mistakes: one wrong program per mistake,
checked for position (行:列 of the mistake itself), the definition's name, a
Chinese message that says what was expected/found (with a fix where obvious),
exactly one message per mistake and no English text or traceback.

Each case states the CORRECT expectation; where the checker falls short today
the case is a strict xfail whose reason says what is missing."""

from __future__ import annotations

import re

import pytest

from support.frontend import messages
from support.mistakes import CASES, Expect

ENGLISH = re.compile(r"(?!UTF-8)[A-Za-z]{3,}")  # the encoding's name is not English prose



def without_names(message: str) -> str:
    """User names may be ASCII (「x」); only text outside 「」 must be Chinese."""
    return re.sub(r"「[^「」]*」", "", message)


def matches(line: str, expect: Expect) -> bool:
    position, _, rest = line.partition(": ")
    if position != expect.at:
        return False
    if expect.definition is not None and not rest.startswith(f"在「{expect.definition}」中："):
        return False
    return all(any(alt in rest for alt in fragment.split("|")) for fragment in expect.fragments)


@pytest.mark.parametrize("text, expected, prelude", CASES)
def test_one_clear_message_per_mistake(tmp_path, text, expected, prelude):
    """Chinese only, no internal type variable (「？甲」), one message per mistake, at the mistake."""
    lines = messages(tmp_path, text, prelude=prelude)
    for line in lines:
        assert "Traceback" not in line and not ENGLISH.search(without_names(line)), line
        assert not any(name.startswith("？") for name in re.findall(r"「([^「」]*)」", line)), line
    assert len(lines) == len(expected), lines
    for line, expect in zip(lines, expected):
        assert matches(line, expect), (line, expect)
