"""lark's side of parsing, imported only when it is needed: building the LALR
tables (then kept in the user cache, by lark and as `parser._Tables`' plain
copy) and reparsing an item with a syntax error, whose message lark's
exception and interactive parser give.  A clean file never imports lark."""

from __future__ import annotations

import io

import lark

from .. import cache


class ItemLexer(lark.lexer.Lexer):
    """Feeds the tokens of one item (already lexed) to lark.  Module level:
    lark's saved tables name this class."""

    __future_interface__ = 2

    def __init__(self, conf):
        pass

    def lex(self, state, parser_state):
        return iter(state.text)


def lark_parser(grammar: bytes, transformer) -> lark.Lark:
    """The LALR parser; its tables come from the user cache when the grammar
    and lark are unchanged, since building them is slow."""
    return cache.load(
        cache.key("lark", grammar, lark.__version__.encode()),
        lambda data: lark.Lark.__new__(lark.Lark)._load(io.BytesIO(data), transformer=transformer),
        lambda: lark.Lark(grammar.decode("utf-8"), parser="lalr", lexer=ItemLexer, transformer=transformer,
                          maybe_placeholders=True),
        _saved)


def _saved(parser: lark.Lark) -> bytes:
    """The tables as `Lark._load` reads them back (the transformer is given again there)."""
    out = io.BytesIO()
    parser.save(out, exclude_options=["transformer"])
    return out.getvalue()


def parse_or_error(parser: lark.Lark, stream: list) -> tuple:
    """lark's parse of one item's tokens (anything with lark.Token's fields):
    (tree, None), or (None, the exception that says what is wrong)."""
    tokens = [lark.Token(t.type, str(t), start_pos=t.start_pos, end_pos=t.end_pos) for t in stream]
    try:
        return parser.parse(tokens), None
    except lark.exceptions.UnexpectedInput as err:
        return None, err


def plain_tables(parser: lark.Lark, builder: type) -> tuple:
    """lark's LALR table and tree shaping as plain data (ints, strings,
    tuples, dicts) that marshal stores: (start state, end state, per state
    token or rule name → next state (shift) or (size, rule name, rule index)
    (reduce), per rule its shape (`rule_shape`))."""
    inner = parser.parser.parser.parser     # frontend → LALR_Parser → its table-driven _Parser
    table = inner.parse_table
    (start,) = parser.options.start
    shapes = {id(rule): rule_shape(rule, chain, builder) for rule, chain in parser._parse_tree_builder.rule_builders}
    rules: list[tuple] = []
    index: dict[int, int] = {}    # by the rule object: a lark Rule hashes its whole expansion

    def reduction(rule) -> tuple:
        if id(rule) not in index:
            index[id(rule)] = len(rules)
            rules.append(shapes[id(rule)])
        return len(rule.expansion), str(rule.origin.name), index[id(rule)]

    states = {state: {str(symbol): arg if action.name == "Shift" else reduction(arg)
                      for symbol, (action, arg) in actions.items()}
              for state, actions in table.states.items()}
    return table.start_states[start], table.end_states[start], states, tuple(rules)


def rule_shape(rule, chain, builder: type) -> tuple:
    """What lark's tree builder does with a rule's children, read from its
    wrapper chain for LALR (ExpandSingleChild, then a ChildFilter that keeps
    some children, expands `_` rules into their parent and adds
    placeholders): (builder method or None, expand a single child?, kept
    children as (index, expand?, Nones before) or None for all, Nones after)."""
    name = str(rule.alias or rule.options.template_source or rule.origin.name)
    method = name if callable(getattr(builder, name, None)) else None
    expand1, keep, append_none = False, None, 0
    for wrapper in chain:
        kind = getattr(wrapper, "func", wrapper).__name__
        if kind == "ExpandSingleChild":
            expand1 = True
        elif kind == "ChildFilterLALR_NoPlaceholders":
            keep = tuple((i, expand, 0) for i, expand in wrapper.args[0])
        elif kind == "ChildFilterLALR":
            keep, append_none = tuple(wrapper.args[0]), wrapper.args[1]
        else:
            raise ValueError(f"lark's tree builder has a step the table loop does not know: {kind}")
    if method is None and not expand1 and not name.startswith("_"):
        raise ValueError(f"the grammar's rule {name} has no method in the tree builder")
    return method, expand1, keep, append_none
