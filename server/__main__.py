"""`python -m zhuose.server`: the language server on stdio (what the VS Code
extension starts with the configured interpreter)."""

import sys

from .server import main

sys.exit(main())
