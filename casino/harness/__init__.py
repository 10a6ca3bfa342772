"""The transcript harness: replay golden sessions against any program, grader-style."""
