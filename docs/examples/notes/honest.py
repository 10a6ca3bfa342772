"""A correct student of notes.yaml's assignment (Python)."""

from pathlib import Path

FILE = Path("notes.txt")
notes = FILE.read_text().splitlines() if FILE.exists() else []
for line in iter(input, None):
    words = line.split()
    if len(words) == 2 and words[0] == "add":
        notes.append(words[1])
        print(f"added {words[1]}")
    elif line == "list":
        print("\n".join(f"{i}. {note}" for i, note in enumerate(notes, 1)) or "no notes")
    elif line == "count":
        print(f"{len(notes)} notes")
    elif line == "clear":
        notes = []
        print("cleared")
    elif line == "quit":
        FILE.write_text("".join(note + "\n" for note in notes))
        print("bye")
        break
    else:
        print(f"unknown command: {line}")
