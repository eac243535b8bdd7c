#!/usr/bin/env python3
"""Checks every relative link in the project's Markdown (README.md, docs/, certs/, clients/):
the file it names exists, and so does the heading its #anchor names (GitHub's anchors).
Prints each broken link with its place and exits 1; silent when all hold.
With --fix, a link whose anchor lives in another of the checked files is pointed there."""
import glob
import os
import re
import sys

LINK = re.compile(r'\[([^\]]*)\]\(([^)\s]+)\)')
FENCE = re.compile(r'^\s*```')


def files():
    found = ['README.md'] + glob.glob('docs/**/*.md', recursive=True) + glob.glob('certs/**/*.md', recursive=True)
    found += glob.glob('clients/*/README.md') + glob.glob('clients/*/*.md')
    return sorted(set(path for path in found if os.path.isfile(path)))


def slug(heading):
    text = heading.strip().lower().replace('`', '')
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def anchors(path):
    seen = {}
    result = set()
    fenced = False
    for line in open(path, encoding='utf-8'):
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = re.match(r'^(#{1,6})\s+(.*)$', line)
        if fenced or not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f'{base}-{count}')
    return result


def links(path):
    fenced = False
    for number, line in enumerate(open(path, encoding='utf-8'), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for match in LINK.finditer(re.sub(r'`[^`]*`', '', line)):
            target = match.group(2)
            if re.match(r'^[a-z][a-z0-9+.-]*:', target):
                continue
            yield number, target


def main():
    fix = '--fix' in sys.argv
    checked = files()
    table = {path: anchors(path) for path in checked}
    broken = []
    for path in checked:
        text = open(path, encoding='utf-8').read()
        changed = text
        for number, target in links(path):
            file_part, _, anchor = target.partition('#')
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(resolved):
                broken.append(f'{path}:{number}: {target}: no file {resolved}')
                continue
            if not anchor or not resolved.endswith('.md'):
                continue
            if anchor in table.get(resolved, anchors(resolved)):
                continue
            homes = [other for other, names in table.items() if anchor in names]
            if fix and len(homes) == 1:
                relative = os.path.relpath(homes[0], os.path.dirname(path) or '.')
                changed = changed.replace(f']({target})', f']({relative}#{anchor})')
                continue
            broken.append(f'{path}:{number}: {target}: no heading #{anchor} in {resolved}')
        if changed != text:
            open(path, 'w', encoding='utf-8').write(changed)
    for line in broken:
        print(line)
    sys.exit(1 if broken else 0)


main()
