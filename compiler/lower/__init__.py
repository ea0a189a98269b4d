"""The middle between checking and the writers: decisions every target shares,
taken once on the checked IR (compiler/ir.py) instead of once per writer.

What the three writers (wgsl/writer.py, msl/writer.py, ptx/writer.py) decide
alike, and where they disagreed before this package:

* Resolved types.  Every writer resolved unification variables itself
  (`deep_resolve`), PTX also computed type families; each keyed its scalar
  table by the checker's ("定长小数", 32) tuples.  Now: `types.concrete`
  (variables followed, families reduced) and the `types.Scalar` enum that
  every writer's scalar table is keyed by.
* What an expression does besides its value (`effects.Effects`).  WGSL took
  its facts from its own builtin table, counted every local call as an
  effect and every user call as a memory read; MSL had a second table
  (atomic loads were effects there, reads in WGSL; derivatives, texture
  sampling and subgroup calls "uniform" in MSL but pure or effects in WGSL;
  「新格」 missing, so everything) and looked through local calls into their
  bodies; PTX asked whether a builtin is in the checker's RUNTIME_BUILTINS.
  The shared decision: each builtin's facts (effect, reads, neighbours,
  pure) come from its registry record (compiler/valid/registry.py: the
  kind's `effect` and `reads` columns, `uniform` for neighbours, the
  constant kinds for pure), followed through top-level and local calls
  alike, so a local call is an effect exactly when its body is.  An atomic
  load reads and does not write.  Derivatives and subgroup calls need their
  neighbours.
* When each effect runs (`statements.py`).  Each writer used to decide it
  while printing: WGSL printed the statements of an operand before the
  whole operation (so a write on the right of 「且」 ran for every
  invocation), MSL captured and reordered lines, PTX substituted a known
  constant for a sequence that wrote, and each chose speculation (select,
  ?:, eager &) by a rule of its own.  Now the statement-level form fixes it
  once: operands are plain (no effect, no statement form), what they need
  is bound before the operation left to right, 「且」/「或」 whose right side
  needs statements and every 「若」 that is no plain choice are statements,
  and a 「若」 is a plain choice only when `Statements.speculatable`.  The
  writers print operands as expressions in order; the target's own order
  of operands (C++ leaves it unspecified) cannot matter, since no two plain
  operands touch memory where one writes.  PTX still computes the right
  side of 且/或 without a branch when it is `Effects.eager` (value nodes and
  pure builtins), and WGSL prints `&` for a right side that needs its
  neighbours (uniform, since the analysis demands a uniform left side):
  printing choices over plain operands.
* Value placement.  WGSL and MSL each had Return/Discard/LoopExit
  destinations and their own walk placing a body's value in them; they
  agreed on all but the text of a discarded value, whether a 若 may stay an
  expression (WGSL select) and MSL's `return;` inside a loop.  Now one walk,
  `backends/text.py` `StatementWriter`, with those three as hooks.  PTX
  places values in registers and keeps its own walk.
* Which function an entry runs: its own module's, else the nearest
  import's — `ir.function_key`, read by all three writers, the stage rules
  (valid/stages.py), the wgpu runtime and the reference interpreter.
* Local functions (`loops.py`).  Each writer decided at every call whether
  to inline it, start a loop or continue the enclosing one (WGSL by the loops
  it had open, MSL by the destination, PTX by closures in its environment).
  Now one pass, `Lowering`, rewrites each body once per validated module:
  `ir.Inline`, `ir.Loop` and `ir.Next` replace the local calls and an
  `ir.Block` the 令 of a local function; then `statements.py` makes the
  statement-level form; the writers print those nodes and the reference
  interpreter (compiler/interp/) executes them.
* Uniform workgroup reads.  WGSL, MSL and PTX each looked up the
  uniformity analysis's load proof while printing a call; the interpreter
  ran no barrier where MSL and PTX wait.  Now `loops.py` marks the read an
  `ir.UniformLoad` once; each writer prints it, the interpreter runs it.
* Clearing workgroup memory.  WGSL zero-fills it when a workgroup starts;
  lavapipe under wgpu-native, Metal and PTX do not, so each writer used to
  clear it its own way: WGSL the variables the entry uses, MSL those passed
  to the kernel, PTX those it had met while printing, each at its own place
  in the text.  Now `Lowering.entry` starts the body of every compute entry
  that uses workgroup variables with one `ir.ZeroWorkgroup` (which
  variables: `ModuleInfo.workgroup`; then a barrier); the writers print it
  and the interpreter waits at its barrier.
* Still in each writer (printing decisions that would change golden text if
  unified): how a loop is written — WGSL `loop {}` with every changed
  variable staged through a `let` when more than one changes, MSL `while
  (true)` with the assignments ordered so that only a cycle needs a
  temporary, PTX labels with only variable registers staged; cells and
  resources passed to a loop are references, never loop variables, in WGSL;
  MSL treats only cells so; PTX refuses both.  Which struct a record type is:
  WGSL looks up (module, name) then the shape, MSL the bare name then the
  shape.
"""
