"""``casino explore``: sessions generated from an assignment's grammar, judged against
casino's reference, the first difference shrunk to a short transcript (docs/explore.md)."""
