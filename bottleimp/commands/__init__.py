"""The command-line subcommands, one module each: ``add_parser(subparsers)`` and ``run(args)``."""
