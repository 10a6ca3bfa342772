"""The staff summary opened in a real headless Chromium (Debian's, through Selenium; skipped,
saying why, where it is not installed): a course graded for real, with a student for every way
a transcript can go, shows every student's row, every failure kind and the skipped count, loads
nothing from anywhere, and links each student to a feedback file that folds a flood."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from web.browser import browser, need_browser

from casino.grade import cli

GREET = """\
name: greets
steps:
  - out: "name? "
  - in: Ada
  - out: "hello Ada\\n"
timeout: 1
"""
REFERENCE = """\
name: casino's own wording
program: demo
reference: casino
steps:
  - out: "anything\\n"
"""
RIGHT = 'name = input("name? ")\nprint("hello " + name)\n'
STUDENTS = {
    "ann": RIGHT,
    "bob": 'name = input("name? ")\nprint("hello  " + name)\n',
    "cat": 'raise ValueError("no greeting today")\n',
    "dan": "import time\nwhile True:\n    time.sleep(1)\n",  # times out, burning no CPU
    "eve": 'while True:\n    print("Enter a command:")\n',
    "fay": RIGHT,  # its build fails
    "<i>zed": 'print("<script>alert(1)</script>")\n',
}
KINDS = {
    "diff": ("diff", 2),
    "crash": ("crash", 1),
    "timeout": ("time-out", 1),
    "flood": ("flood", 1),
    "build": ("build failed", 1),
    "error": ("error", 0),
}
"""Each failure kind: its label, and how many students (and results: one transcript) it hit."""


def graded_course(root: Path) -> Path:
    """Grade the course in ``root`` (one transcript, one casino-only); ``summary.html``."""
    (root / "t").mkdir()
    (root / "t" / "greet.yaml").write_text(GREET)
    (root / "t" / "reference.yaml").write_text(REFERENCE)
    for name, program in STUDENTS.items():
        (root / "subs" / name).mkdir(parents=True)
        (root / "subs" / name / "main.py").write_text(program)
    (root / "subs" / "fay" / "BROKEN").write_text("")
    argv = [str(root / "subs"), "--transcripts", str(root / "t"), "--jobs", "1"]
    argv += ["--run", "python3 main.py", "--build", "test ! -e BROKEN", "--out", str(root / "g")]
    out = io.StringIO()
    assert cli.main(["grade", *argv], stdout=out, stderr=io.StringIO()) == 0, out.getvalue()
    return root / "g" / "summary.html"


def test_the_summary_shows_every_student_kind_and_the_skipped_count(tmp_path: Path) -> None:
    need_browser()
    page = graded_course(tmp_path)
    driver = browser()
    try:
        driver.set_window_size(1280, 1000)
        driver.get(page.as_uri())
        check_page(driver)
        eve = driver.find_element("link text", "eve")
        assert Path(eve.get_attribute("href").removeprefix("file://")).is_file()
        eve.click()
        text = driver.find_element("tag name", "body").text
        assert "+Enter a command:\n  … the line above " in text
    finally:
        driver.quit()


def check_page(driver: Any) -> None:
    """Every student's row, every failure kind with its count, the skipped count; no request."""
    for student in STUDENTS:
        link = driver.find_element("link text", student)  # "<i>zed" is text, not markup
        assert link.is_displayed()
    counts = driver.find_element("id", "transcripts-count")
    assert counts.is_displayed()
    assert counts.text == "Transcripts: 1 graded, 1 skipped as casino-only (reference: casino)."
    for kind, (label, count) in KINDS.items():
        row = driver.find_element("id", f"kind-{kind}")
        assert row.is_displayed()
        cells = [cell.text for cell in row.find_elements("tag name", "td")]
        assert (cells[0], cells[2], cells[3]) == (label, str(count), str(count))
    failed = "td.diff, td.crash, td.timeout, td.flood, td.build"
    table = driver.find_elements("css selector", failed)
    assert sorted(cell.text for cell in table if cell.is_displayed()) == sorted(
        ["diff", "diff", "crash", "time-out", "flood", "build failed"]
    )
    assert driver.execute_script("return document.scripts.length") == 0
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0
