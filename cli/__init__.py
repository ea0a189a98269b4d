"""The command line `着色器` (LANGUAGE.md §8): the entry point above the
compiler core, the runtimes and the language server.  `main.py` holds the
table of subcommands; each group of subcommands is one module here.  Nothing
in `zhuose.compiler` imports this package."""
