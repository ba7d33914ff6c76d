#!/usr/bin/env python3
"""Copies generated result files into the Markdown that quotes them, so that no claim table in
the docs is typed by hand.

A quoted block is written as

    <!-- generated from results/gavel/claims.md: scripts/docs/sync.py rewrites this block -->
    ...the file's text...
    <!-- end generated -->

Run from the repository's root after `cargo reproduce NAME`: `scripts/docs/sync.py` rewrites
every such block in README.md, docs/*.md and crates/**/README.md (`--check` only reports blocks that
differ and exits 1; `cargo test` checks the same in crates/cli/tests/docs.rs).
"""
import pathlib
import re
import sys

BLOCK = re.compile(
    r"(<!-- generated from (?P<path>\S+): scripts/docs/sync\.py rewrites this block -->\n)(?P<body>.*?)(<!-- end generated -->)",
    re.S,
)


def documents(root):
    yield root / "README.md"
    yield from sorted(root.glob("docs/*.md"))
    yield from sorted(root.glob("crates/**/README.md"))


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    check = "--check" in sys.argv[1:]
    stale = []
    for document in documents(root):
        text = document.read_text()

        def replace(match):
            source = (root / match["path"]).read_text()
            if match["body"] != source:
                stale.append(f"{document.relative_to(root)}: {match['path']}")
            return match.group(1) + source + match.group(4)

        updated = BLOCK.sub(replace, text)
        if not check and updated != text:
            document.write_text(updated)
    for line in stale:
        print(("differs: " if check else "rewritten: ") + line)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
