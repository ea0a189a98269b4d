"""Every target, recorded once: what the command line, the language server's
preview and hover, build-time generation and the renaming of names read
instead of keeping their own copies."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .names import MSL_WORDS, WGSL_WORDS


@dataclass(frozen=True)
class Target:
    """One target language and everything named after it."""

    name: str                  # translate()'s key, the preview request's target, the ASCII subcommand
    command: str               # the `着色器` subcommand that prints it
    title: str                 # how hover, previews and messages name the language
    suffix: str                # a golden output in samples/: 名 + suffix
    export: str                # the constant of the generated module 名。着色生成。豫 that holds the text
    package: str               # the back end, relative to zhuose.compiler.backends
    reserved: frozenset[str]   # the words renamed to 豫_… in this target's text (names.py)


WGSL = Target("wgsl", "译", "WGSL", ".wgsl", "着色源", ".wgsl", WGSL_WORDS)
MSL = Target("msl", "金属", "MSL", "。金属", "金属源", ".msl", MSL_WORDS)
#: PTX names are mangled to ASCII behind a prefix (ptx/mangle.py), so no source name clashes with PTX's words
PTX = Target("ptx", "千手", "PTX", "。千手", "并线汇编源", ".ptx", frozenset())

@dataclass(frozen=True)
class Options:
    """How a translation trades exactness and safety for speed (docs/后端.md〈翻译选项〉);
    the defaults keep WGSL's meaning on every target."""

    fast_math: bool = False   # --快速数学: a product feeding a sum becomes one fused multiply-add
    bounds: bool = True       # --不查界 turns it off: out-of-bounds reads give 0, writes are dropped

    def flags(self) -> str:
        """The command-line options that ask for these (the ledger's key, messages)."""
        return "".join(flag for flag, on in ((" --快速数学", self.fast_math), (" --不查界", not self.bounds)) if on)


DEFAULT_OPTIONS = Options()

#: the options a compute entry item may set for its module's translation (docs/扩展.md), as Options fields
ENTRY_OPTIONS = {"快速数学": ("fast_math", True), "不查界": ("bounds", False)}


def with_module_options(options: Options, entries) -> Options:
    """`options` with what the module's compute entry items ask for: 「快速数学」者「阳」
    turns fused multiply-add on, 「不查界」者「阳」 the bounds checks off, for the whole module."""
    changes = {ENTRY_OPTIONS[name][0]: ENTRY_OPTIONS[name][1] for e in entries for name in e.options}
    return dataclasses.replace(options, **changes) if changes else options

#: MSL's [[buffer(30)]]: the array lengths 「数组长度」 reads (here so the command line's help needs no back end)
LENGTHS_SLOT = 30

#: in the order the generated module's entry table is taken from: the first target that translates
TARGETS: tuple[Target, ...] = (WGSL, MSL, PTX)
BY_NAME: dict[str, Target] = {t.name: t for t in TARGETS}
