#!/usr/bin/env python3
"""check_function_length.py SRCROOT [LIMIT] -- fails listing every library
function longer than LIMIT lines (default 150; DESIGN: "no library function
over 150 lines, aim at 80").

The library is the C sources of the layers core io report reference optimized
drivers testkit models checks cli.  A function is counted from the line of
its opening brace to the line of its closing brace, both included, after
comments, string and character literals are blanked out (so a brace inside
them does not count).  A top-level brace opens a function when the text
before it, since the previous ';', '}' or preprocessor line, ends in a
parameter list ")" and is not an initialiser ("= {").

check_function_length.py --self-test  runs the counter on made-up sources
(a function of LIMIT+1 lines must be listed, one of LIMIT lines must not,
braces in comments and strings must be ignored) and fails if it is wrong.
"""
import os
import re
import sys
import tempfile

LAYERS = ["core", "io", "report", "reference", "optimized", "drivers",
          "testkit", "models", "checks", "cli"]


def blank(text):
    """Replace comments and string/char literals with spaces, keeping newlines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """Yield (name, first_line, line_count) for every function definition."""
    src = blank(text)
    # drop preprocessor lines (they may hold braces or parentheses in macros)
    lines = [("" if l.lstrip().startswith("#") else l) for l in src.split("\n")]
    depth = 0
    head = []          # text since the last ';' / '}' at depth 0
    start = None
    name = None
    for lineno, line in enumerate(lines, 1):
        for ch in line:
            if depth == 0:
                if ch == "{":
                    h = "".join(head).strip()
                    m = re.search(r"([A-Za-z_]\w*)\s*\([^;{}]*\)\s*$", h)
                    if m and not re.search(r"=\s*$", h):
                        start, name = lineno, m.group(1)
                    else:
                        start, name = None, None
                    head = []
                    depth = 1
                elif ch == ";":
                    head = []
                else:
                    head.append(ch)
            else:
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                    if depth == 0:
                        if start is not None:
                            yield name, start, lineno - start + 1
                        start, name = None, None
                        head = []
        if depth == 0:
            head.append("\n")


def scan(root, limit):
    long_ones = []
    for layer in LAYERS:
        d = os.path.join(root, layer)
        if not os.path.isdir(d):
            continue
        for dirpath, _, files in sorted(os.walk(d)):
            for f in sorted(files):
                if not f.endswith(".c"):
                    continue
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                rel = os.path.relpath(path, root)
                for name, first, count in functions(text):
                    if count > limit:
                        long_ones.append((count, rel, first, name))
    return long_ones


def self_test(limit):
    def fn(name, body_lines):
        # opening line + body + closing line = body_lines + 2 lines
        body = "".join("    x += %d; /* } { */\n" % k for k in range(body_lines))
        return "static int %s(int x)\n{\n%s    return x;\n}\n" % (name, body)
    src = ("#define M(a) { a }\n"
           "static const int t[] = {\n1, 2 };\n"
           "struct s { int a; };\n"
           + fn("exactly_limit", limit - 3)
           + "/* int fake(void) {\n" + "\n" * (limit + 5) + "} */\n"
           + fn("over_limit", limit - 2)
           + 'static const char *s = "{";\n'
           + "int f(void) { if (1) { return '}'; } return 0; }\n")
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "core"))
        with open(os.path.join(tmp, "core", "x.c"), "w") as fh:
            fh.write(src)
        found = [(n, c) for c, _, _, n in scan(tmp, limit)]
        counts = {n: c for n, _, c in functions(src)}
    ok = (found == [("over_limit", limit + 1)]
          and counts.get("exactly_limit") == limit
          and counts.get("f") == 1 and "fake" not in counts)
    print("self-test %s: listed %s, counted %s" % ("ok" if ok else "FAILED", found, counts))
    return 0 if ok else 1


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test(int(argv[2]) if len(argv) > 2 else 150)
    root = argv[1] if len(argv) > 1 else "."
    limit = int(argv[2]) if len(argv) > 2 else 150
    if not os.path.isdir(os.path.join(root, "core")):
        print("check_function_length: %s is not the source root (no core/)" % root,
              file=sys.stderr)
        return 2
    long_ones = sorted(scan(root, limit), key=lambda t: (t[1], t[2]))
    for count, rel, first, name in long_ones:
        print("%s:%d: %s is %d lines (limit %d)" % (rel, first, name, count, limit))
    if long_ones:
        print("%d library function(s) over %d lines" % (len(long_ones), limit))
        return 1
    print("no library function over %d lines" % limit)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
