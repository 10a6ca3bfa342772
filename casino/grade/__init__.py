"""``casino grade``: every submission of a course against the same transcripts, sandboxed.

- :mod:`~casino.grade.course`: the transcripts as data a worker anywhere can use, the students'
  folders, and the content hashes a re-run skips by;
- :mod:`~casino.grade.work`: one student graded (build once in a fresh copy, then every
  transcript through the harness's runners, each run under the :class:`Sandbox` limits);
- :mod:`~casino.grade.results`: what a student's grading gives, as JSON (the cache);
- :mod:`~casino.grade.engines`: in this process, a local process pool, or a Ray cluster;
- :mod:`~casino.grade.books`: the gradebook (CSV, JSON); :mod:`~casino.grade.summary`: the
  staff summary page;
- the term around it: :mod:`~casino.grade.late` (late rules, days late),
  :mod:`~casino.grade.submitted` (when each submission was handed in),
  :mod:`~casino.grade.term` (due, extensions, what a score becomes),
  :mod:`~casino.grade.visibility` (hidden transcripts), :mod:`~casino.grade.similarity`
  (copied code);
- where submissions come from: :mod:`~casino.grade.intake` (folders, zips, Git lists, a
  learning platform's download) and :mod:`~casino.grade.platforms` (Moodle, Canvas,
  Blackboard: their downloads and grade imports, which :mod:`~casino.grade.lms` writes);
- the rubric: :mod:`~casino.grade.sheet` (the marker's pages and sheet) and
  :mod:`~casino.grade.rubricbook` (the rubric's gradebook);
- :mod:`~casino.grade.cli`: the command line (:mod:`~casino.grade.options` its options,
  :mod:`~casino.grade.export_cli` ``casino grade export``).
"""

__all__ = [
    "autograder",
    "books",
    "cache",
    "classroom",
    "cli",
    "course",
    "dryrun",
    "engines",
    "export",
    "export_cli",
    "gitlog",
    "hostile",
    "intake",
    "late",
    "lines",
    "lms",
    "marks_cli",
    "options",
    "platforms",
    "results",
    "rubricbook",
    "sealed",
    "sheet",
    "similarity",
    "studbook",
    "studcli",
    "studday",
    "studdues",
    "submitted",
    "summary",
    "term",
    "visibility",
    "work",
]
"""The public modules (``from casino.grade import *`` imports them all)."""
