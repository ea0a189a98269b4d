"""`python -m zhuose.cli 子命令 …`: the same as the `着色器` script."""

import sys

from .main import main

sys.exit(main())
