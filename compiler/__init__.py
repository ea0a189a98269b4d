"""The 着色 compiler: checker, validation, lowering, back ends and the caches
that let a command or the editor skip work (ARCHITECTURE.md maps the modules)."""

#: the cyclic collector's thresholds where nearly everything the compiler
#: allocates stays alive: a command that translates once and exits keeps its
#: modules, the builtin snapshot and the checked IR to the end, and the editor
#: keeps an open file's checked state (frozen) while an edit's new parse and
#: check live beside the old ones until they replace them.  Python's default
#: (a youngest-generation pass every 700 new objects) then runs over objects
#: that are all alive (a twentieth of a cold 译, about ten passes an edit);
#: rarer passes still free a large input's cycles.
LIVE_HEAP_COLLECTOR = (20_000, 20, 20)
