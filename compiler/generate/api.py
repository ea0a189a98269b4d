"""The Python API for build systems that run in-process (plugins), also what
the command line and the build service use.

    from zhuose.compiler.generate import Generator
    gen = Generator(".")                       # one per workspace, kept alive
    result = gen.write("应用/加倍。着色器。豫", "产物")
    result.generated.text, result.output, result.changed

A Generator keeps the incremental core warm, and answers a repeated request
whose inputs are unchanged from the previous module: that costs one stat of
each input, or when a file's stamp moved, reading and hashing the inputs
(a touched but unchanged file regenerates nothing).  Only a change of an
input's text is noticed this way; a failed generation is always retried, so
an import that was missing is found once it exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..packages import GENERATED_SUFFIX
from ..workspace import Workspace
from .lookup import Resolved, find_high_level_import
from .module import Generated, fingerprint, generate
from .output import write_if_changed


@dataclass
class WriteResult:
    generated: Generated
    output: Path | None      # where the module was written (None on errors)
    changed: bool            # whether the file was (re)written


class Generator:
    """Generated modules of one workspace, regenerated only when an input changed."""

    def __init__(self, workspace: Workspace | str | Path = ".") -> None:
        self.ws = workspace if isinstance(workspace, Workspace) else Workspace(workspace)
        self._keys: dict[str, str] = {}
        self._outputs: dict[tuple[str, str], Path] = {}
        #: per source: the last module and the stamps of the input texts it was made from
        self._last: dict[str, tuple[Generated, list]] = {}

    def generate(self, path: str | Path) -> Generated:
        """The generated module of a shader source (名。着色器。豫)."""
        key = self._keys.get(str(path)) or self._keys.setdefault(str(path), self.ws.key(path))
        last = self._last.get(key)
        if last is not None and self._still_current(*last):
            return last[0]
        result = generate(self.ws, key)
        self._remember(result)
        return result

    def _remember(self, generated: Generated) -> None:
        self._last[generated.source] = (generated, [self.ws.load(p).stamp for p in generated.inputs])

    def _still_current(self, last: Generated, stamps: list) -> bool:
        if last.text is None:
            return False
        # Workspace.load stats each input (an open document counts by its text) and
        # reads it again only when its stamp moved
        if all(self.ws.load(p).stamp == stamp for p, stamp in zip(last.inputs, stamps)):
            return True
        if fingerprint(self.ws, last.inputs, last.labels) != last.fingerprint:
            return False
        self._remember(last)
        return True

    def output_path(self, path: str | Path, out_dir: str | Path) -> Path:
        """<out_dir>/<module path in its package>。着色生成。豫 (甲/乙 for 甲/乙。着色器。豫)."""
        key = (str(path), str(out_dir))
        if key not in self._outputs:
            module = self.ws.packages.module_name(self.ws.key(path))
            self._outputs[key] = Path(out_dir) / (module + GENERATED_SUFFIX)
        return self._outputs[key]

    def write(self, path: str | Path, out_dir: str | Path) -> WriteResult:
        """Generate and write into `out_dir`, leaving an identical file untouched.
        Raises OSError when the output cannot be written."""
        generated = self.generate(path)
        if generated.text is None:
            return WriteResult(generated, None, False)
        output = self.output_path(path, out_dir)
        return WriteResult(generated, output, write_if_changed(output, generated.text))

    def find_import(self, importer: str | Path, names: list[str]) -> tuple[Resolved | None, str | None]:
        """What a high-level file's import 「包」之…之「名」 denotes, or an error message."""
        return find_high_level_import(self.ws.packages, importer, names)
