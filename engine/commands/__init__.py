"""The command line's commands: parse options, call the applications, choose the output."""
