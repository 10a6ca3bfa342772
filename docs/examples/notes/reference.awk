# The TA's reference for notes.yaml: notes.txt loaded at start, saved at quit (one a line).
BEGIN {
    n = 0
    while ((getline line < "notes.txt") > 0) notes[++n] = line
    close("notes.txt")
}
$1 == "add" && NF == 2 { notes[++n] = $2; print "added " $2; next }
$0 == "list" {
    if (n == 0) print "no notes"
    for (i = 1; i <= n; i++) print i ". " notes[i]
    next
}
$0 == "count" { print n " notes"; next }
$0 == "clear" { n = 0; print "cleared"; next }
$0 == "quit" {
    printf "" > "notes.txt"
    for (i = 1; i <= n; i++) print notes[i] > "notes.txt"
    close("notes.txt")
    print "bye"
    exit
}
{ print "unknown command: " $0 }
