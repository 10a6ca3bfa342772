#!/usr/bin/awk -f
# The reference stack calculator: one command a line, "quit" ends.
BEGIN { print "Stack calculator ready"; n = 0 }
$1 == "quit" { print "bye"; exit }
$1 == "push" && NF == 2 && $2 ~ /^-?[0-9]+$/ { s[++n] = $2 + 0; next }
$1 == "pop"  && NF == 1 { if (n == 0) print "error: empty stack"; else print s[n--]; next }
($1 == "add" || $1 == "mul") && NF == 1 {
    if (n < 2) { print "error: need two values"; next }
    b = s[n--]; a = s[n]
    s[n] = ($1 == "add") ? a + b : a * b
    print s[n]; next
}
$1 == "dup"  && NF == 1 { if (n == 0) print "error: empty stack"; else { s[n + 1] = s[n]; n++ }; next }
$1 == "peek" && NF == 1 { if (n == 0) print "error: empty stack"; else print s[n]; next }
$1 == "size" && NF == 1 { print n; next }
{ print "error: unknown command '" $0 "'" }
