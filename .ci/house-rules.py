#!/usr/bin/env python3
"""The house rules a reader can check without building (issue 39): no function, initializer or
computed property over 60 lines in Sources or Tests; no JSONSerialization in Sources (JSONValue
is the one JSON value type). Prints each breach with its place and exits 1; silent when kept."""
import glob
import re
import sys

LIMIT = 60
DECLARATION = re.compile(
    r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*'
    r'(?:(?:public|private|fileprivate|internal|static|final|override|mutating|nonisolated|convenience|required)\s+)*'
    r'(func|init|deinit|var|subscript)\b')
# Raw strings (`#"{"a": 1}"#`) first, then ordinary ones: braces inside either are not code.
STRING = re.compile(r'#"(?:[^"]|"(?!#))*"#|"(?:\\.|[^"\\])*"')


def body_length(lines, start):
    """Lines from the declaration to its closing brace; None when it has no body of its own."""
    depth, opened, multiline = 0, False, False
    for index in range(start, len(lines)):
        if lines[index].count('"""') % 2 == 1:
            # A multi-line string opens or closes here; its lines are text, not code.
            multiline = not multiline
            continue
        if multiline:
            continue
        code = STRING.sub('""', lines[index]).split('//')[0]
        for character in code:
            if character == '{':
                depth, opened = depth + 1, True
            elif character == '}':
                depth -= 1
        if opened and depth <= 0:
            return index - start + 1
        if not opened and index > start + 8:
            return None
    return None


def breaches():
    for path in sorted(glob.glob('Sources/**/*.swift', recursive=True) + glob.glob('Tests/**/*.swift', recursive=True)):
        lines = open(path, encoding='utf-8').read().split('\n')
        for number, line in enumerate(lines):
            match = DECLARATION.match(line)
            if not match or line.strip().startswith('//'):
                continue
            if match.group(1) == 'var' and not line.rstrip().endswith('{'):
                continue
            length = body_length(lines, number)
            if length and length > LIMIT:
                yield f'{path}:{number + 1}: {length} lines (at most {LIMIT}): {line.strip()[:90]}'
        if path.startswith('Sources/'):
            for number, line in enumerate(lines):
                if 'JSONSerialization.' in line and not line.strip().startswith('//'):
                    yield f'{path}:{number + 1}: JSONSerialization: read and write JSONValue instead'


found = sorted(set(breaches()))
for breach in found:
    print(breach)
sys.exit(1 if found else 0)
