#!/usr/bin/env python3
"""Lists the functions of the C++ sources under the given folders (default:
lib) by length in lines, from the first line of the signature to the
closing brace, longest first.

    scripts/function-lengths.py [--over N] [--json FILE] [FOLDER ...]

--over N lists only functions of more than N lines and exits 1 if there is
any (a check); --json writes every function with its length. A brace
matcher, not a compiler: a function is a body whose head ends like a
signature (`)`, `const`, `override`, an initializer list, a trailing return
type), outside another function's body; lambdas count toward the function
they are in.
"""

import argparse
import json
import pathlib
import re
import signal
import sys

CONTROL = re.compile(r"^(if|for|while|switch|catch|else|do|return)\b")
SIGNATURE_END = re.compile(
    r"\)\s*(const\s*)?(noexcept\s*)?(override\s*|final\s*)*"
    r"(->\s*[\w:<>,\s*&]+)?$")
NAME = re.compile(r"([~\w:]+(?:<[^()]*>)?|operator\s*[^\s(]+)\s*\($")


def strip(text):
    """`text` with comments, strings and character literals blanked, line
    breaks kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == '"' and re.match(r'R"([^(]*)\(', text[i - 1:i + 20] if
                                     i > 0 and text[i - 1] == "R" else ""):
                delim = re.match(r'"([^(]*)\(', text[i:]).group(1)
                end = text.find(")" + delim + '"', i)
                j = n if end < 0 else end + len(delim) + 2
            else:
                j = i + 1
                while j < n and text[j] != c:
                    j += 2 if text[j] == "\\" else 1
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "#" and (i == 0 or text[i - 1] == "\n"):
            j = i
            while True:
                j = text.find("\n", j)
                if j < 0 or text[j - 1] != "\\":
                    break
                j += 1
            j = n if j < 0 else j
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    text = strip(path.read_text(errors="replace"))
    found = []
    depth = 0
    head_start = 0
    inside = None  # (depth, start offset, name)
    for i, c in enumerate(text):
        if c in ";{}" and inside is None:
            head = text[head_start:i].strip()
        if c == "{":
            if inside is None:
                flat = " ".join(head.split())
                # An initializer list: the signature ends before the colon.
                signature = re.sub(r"\)\s*:\s*[^;]*$", ")", flat)
                if (SIGNATURE_END.search(signature) and
                        not CONTROL.match(flat) and "](" not in flat and
                        not flat.startswith(("namespace", "struct", "class",
                                             "enum", "union", "extern"))):
                    name_at = signature.rfind("(", 0,
                                              len(signature) -
                                              len(SIGNATURE_END.search(
                                                  signature).group(0)) + 1)
                    name = NAME.search(signature[:name_at + 1])
                    start = head_start + (len(text[head_start:i]) -
                                          len(text[head_start:i].lstrip()))
                    inside = (depth, start, name.group(1) if name else "?")
            depth += 1
            if inside is None:
                head_start = i + 1
        elif c == "}":
            depth -= 1
            if inside is not None and depth == inside[0]:
                first = text.count("\n", 0, inside[1]) + 1
                last = text.count("\n", 0, i) + 1
                found.append((inside[2], first, last - first + 1))
                inside = None
            if inside is None:
                head_start = i + 1
        elif c == ";" and inside is None:
            head_start = i + 1
    return found


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # for `| head`
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--over", type=int)
    parser.add_argument("--json")
    parser.add_argument("folders", nargs="*", default=["lib"])
    args = parser.parse_args()
    rows = []
    for folder in args.folders:
        for path in sorted(pathlib.Path(folder).rglob("*")):
            if path.suffix in (".cpp", ".h"):
                for name, line, length in functions(path):
                    rows.append({"file": str(path), "line": line,
                                 "function": name, "lines": length})
    rows.sort(key=lambda r: -r["lines"])
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    shown = [r for r in rows if args.over is None or r["lines"] > args.over]
    for r in shown if args.over is not None else rows[:40]:
        print(f'{r["lines"]:5d}  {r["file"]}:{r["line"]}  {r["function"]}')
    print(f"{len(rows)} functions; {sum(r['lines'] >= 100 for r in rows)} "
          f"of 100 lines or more")
    return 1 if args.over is not None and shown else 0


if __name__ == "__main__":
    sys.exit(main())
