"""The ``fourfold`` command: one module per subcommand under ``fourfold.cli.commands``."""
