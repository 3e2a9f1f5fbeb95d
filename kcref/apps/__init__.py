"""The commands that run things for a while (a server, a session): each in its own module or subpackage."""
