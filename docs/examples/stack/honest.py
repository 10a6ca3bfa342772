"""An honest student's stack calculator (a greeting of its own: the grammar leaves it open)."""

import sys

print("Stack calculator (student edition)")
stack: list[int] = []
for raw in sys.stdin:
    words = raw.split()
    if words == ["quit"]:
        print("bye")
        break
    if len(words) == 2 and words[0] == "push" and words[1].lstrip("-").isdigit():
        stack.append(int(words[1]))
    elif words in (["pop"], ["peek"]):
        if not stack:
            print("error: empty stack")
        else:
            print(stack.pop() if words[0] == "pop" else stack[-1])
    elif words in (["add"], ["mul"]):
        if len(stack) < 2:
            print("error: need two values")
        else:
            b, a = stack.pop(), stack.pop()
            stack.append(a + b if words[0] == "add" else a * b)
            print(stack[-1])
    elif words == ["dup"]:
        if not stack:
            print("error: empty stack")
        else:
            stack.append(stack[-1])
    elif words == ["size"]:
        print(len(stack))
    else:
        print(f"error: unknown command '{raw.rstrip()}'")
