"""One module per ``qbcore`` verb: NAME, HELP, configure(parser), run(args) -> int."""
