"""The item under the cursor is found by bisection over the parse's item
starts (server/project.py); at every offset of a file, unclosed items and
comments included, it must be the item a walk over every item finds."""

from zhuose.server.project import Project

from support.frontend import PRELUDE, write

NAME = "模。着色器。豫"
TEXTS = [
    PRELUDE + "「甲」者「一」也。\n「：注释：」\n「乙」乃化「无三二」为「无三二」者也。\n「乙」者得「x」而「x」也。\n",
    PRELUDE + "「甲」者「一」也\n「乙」者「二」也。「丙」者",       # a missing 。 and an unclosed last item
    PRELUDE + "「甲」者「一」也。「乙」者「二」也。  \n\n",
    PRELUDE + "「甲」者「一」也「乙」者「二」也。\n",          # an unclosed item ends where the next starts
    "",
]


def walked_locate(checked, offset):
    """The first item holding `offset`: the linear walk the bisection replaced."""
    for item, _ in checked.items:
        end = item.start + len(item.text)
        if item.start <= offset < end or (offset == end and item.text and not item.text.endswith("。")):
            return item.start
    return None


def walked_being_typed(checked, offset):
    start, result = 0, None
    for item, res in checked.items:
        if item.start >= offset:
            break
        end = item.start + len(item.text)
        start, result = (end, None) if end <= offset and item.text.endswith("。") else (item.start, res)
    return start, result


def test_locating_by_bisection_equals_a_walk_at_every_offset(tmp_path):
    write(tmp_path, {NAME: ""})
    project = Project(tmp_path)
    path = str(tmp_path / NAME)
    for text in TEXTS:
        project.open((tmp_path / NAME).as_uri(), 1, text)
        checked = project.checked(path)
        for offset in range(len(text) + 2):
            found = project.locate(path, offset)
            assert (found.item.start if found else None) == walked_locate(checked, offset), (text, offset)
            if found:
                assert found.item.text == text[found.item.start:found.item.start + len(found.item.text)]
                assert found.offset == offset - found.item.start
            assert project.item_being_typed(checked, offset) == walked_being_typed(checked, offset), (text, offset)
