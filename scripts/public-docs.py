#!/usr/bin/env python3
"""Lists public declarations without a `///` summary line above them.

    scripts/public-docs.py Sources/UnderstudyClient Sources/UnderstudyDummyJSON Sources/UnderstudyTesting

Exits 1 when any is missing. Attributes, `#if` lines and plain `//` comments between the two are skipped.
"""
import os, re, sys
missing = 0
for root in sys.argv[1:]:
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith('.swift'):
                continue
            path = os.path.join(dirpath, f)
            lines = open(path).read().split('\n')
            for i, l in enumerate(lines):
                s = l.strip()
                if not re.match(r'^(@\w+(\(.*\))? )*(override |nonisolated |final )*(public|open) ', s):
                    continue
                if re.match(r'^public import ', s):
                    continue
                j = i - 1
                while j >= 0 and (lines[j].strip().startswith('@') or lines[j].strip().startswith('#if') or lines[j].strip().startswith('// ')):
                    j -= 1
                if j < 0 or not lines[j].strip().startswith('///'):
                    missing += 1
                    print(f"{path}:{i+1}: {s[:100]}")
print(f"{missing} public declarations without ///", file=sys.stderr)
sys.exit(1 if missing else 0)
