#!/usr/bin/env python3
"""The house rules a reader can check without building: no function, initializer or computed
property over 60 lines in Sources or Tests; no file over 300 lines there (the web inbox's
JavaScript modules included), and none empty; each
file there named after the one type it declares (`Type.swift`, a test suite's too; extensions in
`Type+Concern.swift`); no JSONSerialization in Sources (JSONValue is the one JSON value type); nothing in Sources
reaching the phone, channels, power book, hub or cluster through the relay, nor the relay through
the intake or a door's context;
each target in Package.swift declares exactly the modules its files import. Prints each breach
with its place and exits 1; silent when kept."""
import glob
import os
import re
import sys

LIMIT = 60
REACH_THROUGH = re.compile(r'\brelay\.(phone|channels|power|hub|cluster)\b')
# The relay through another part: a door asks the intake (its steps), not the relay behind it.
RELAY_CHAIN = re.compile(r'\b(intake|context|shared)\.relay\b')
FILE_LIMIT = 300
TYPE = re.compile(r'^(?:(?:public|internal|private|fileprivate|final|package|indirect)\s+|@\w+\s+)*(struct|class|enum|actor|protocol)\s+(\w+)')
IMPORT = re.compile(r'^(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|func|var|let|typealias|protocol)\s+)?(\w+)')
# Modules of the platform and toolchain, which no target declares.
PLATFORM = {'Foundation', 'FoundationEssentials', 'FoundationNetworking', 'Dispatch', 'Glibc', 'Musl', 'Darwin',
            'Synchronization', 'Testing', 'XCTest', 'os', '_Concurrency'}
# Modules a declared product brings that are not products of their own (said in Package.swift).
BROUGHT = {'CNIOBoringSSL': 'NIOSSL'}
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
            # The relay relays; the assembly hands each part the phone, channels, power book, hub
            # and cluster it uses. Nothing reaches them through the relay.
            for number, line in enumerate(lines):
                if REACH_THROUGH.search(line) and not path.startswith('Sources/APNsServer/Relay/'):
                    yield f'{path}:{number + 1}: reaches through the relay: take the part from the assembly (EmulatorParts)'
                if RELAY_CHAIN.search(line) and not line.strip().startswith('//'):
                    yield f'{path}:{number + 1}: reaches the relay through another part: ask the intake (a step of its own) or take what is needed from the assembly'


def file_breaches():
    # The web inbox's modules are held to the same size (ESLint, run by .ci/run, checks their functions).
    for path in sorted(glob.glob('Sources/**/*.js', recursive=True)):
        text = open(path, encoding='utf-8').read()
        if not text.strip():
            yield f'{path}: empty: delete it'
        if text.count('\n') > FILE_LIMIT:
            yield f'{path}: {text.count(chr(10))} lines (at most {FILE_LIMIT}): split it by concern'
    for path in sorted(glob.glob('Sources/**/*.swift', recursive=True) + glob.glob('Tests/**/*.swift', recursive=True)):
        text = open(path, encoding='utf-8').read()
        count = text.count('\n')
        if not text.strip():
            yield f'{path}: empty: delete it'
        if count > FILE_LIMIT:
            yield f'{path}: {count} lines (at most {FILE_LIMIT}): split it by concern'
        name = os.path.basename(path)[:-len('.swift')]
        if '+' in name:
            continue
        for number, line in enumerate(text.split('\n')):
            match = TYPE.match(line)
            if match and match.group(2) != name:
                yield f'{path}:{number + 1}: {match.group(1)} {match.group(2)} in {name}.swift: move it to {match.group(2)}.swift'


def target_dependencies():
    """Each target's name and the names its dependencies list gives (targets and products)."""
    text = open('Package.swift', encoding='utf-8').read()
    for match in re.finditer(r'\.(?:target|executableTarget|testTarget)\(\s*name:\s*"(\w+)"', text):
        depth, index = 1, text.index('(', match.start()) + 1
        start = index
        while depth and index < len(text):
            depth += {'(': 1, ')': -1}.get(text[index], 0)
            index += 1
        body = text[start:index]
        listed = re.search(r'dependencies:\s*\[(.*?)\]\s*,\s*(?:path|exclude|resources|swiftSettings|linkerSettings|cSettings|plugins)|dependencies:\s*\[(.*?)\]\s*\)?\s*$', body, re.S)
        declared = set()
        if listed:
            deps = listed.group(1) or listed.group(2) or ''
            deps = re.sub(r'//[^\n]*', '', deps)
            declared |= set(re.findall(r'\.product\(\s*name:\s*"(\w+)"', deps))
            declared |= set(re.findall(r'(?<![:\w])"(\w+)"(?!\s*,\s*package)', re.sub(r'\.product\([^)]*\)', '', deps)))
        yield match.group(1), declared


def package_breaches():
    for name, declared in target_dependencies():
        folder = next((f'{root}/{name}' for root in ('Sources', 'Tests') if os.path.isdir(f'{root}/{name}')), None)
        if folder is None:
            continue
        imported = set()
        for path in glob.glob(f'{folder}/**/*.swift', recursive=True):
            for line in open(path, encoding='utf-8'):
                match = IMPORT.match(line)
                if match:
                    imported.add(match.group(1))
        imported -= PLATFORM | {name}
        needed = {BROUGHT.get(module, module) for module in imported}
        for module in sorted(needed - declared):
            yield f'Package.swift: {name} imports {module} without declaring it'
        for module in sorted(declared - needed):
            yield f'Package.swift: {name} declares {module} and imports nothing of it'


def layout_breaches():
    """docs/layout.md's tree names every folder of Sources (a target and the folders in it), and
    every folder it names exists."""
    text = open('docs/layout.md', encoding='utf-8').read()
    tree = text.split('```', 2)[1]
    named = set(re.findall(r'(?<![\w./-])([A-Za-z][A-Za-z0-9]*)/(?![\w<])', tree))
    folders = set()
    for top in ('Sources', 'Tests', 'clients', 'docs'):
        for path, subfolders, _ in os.walk(top):
            subfolders[:] = [f for f in subfolders if not f.startswith('.') and f not in ('node_modules', '__pycache__')]
            folders |= set(subfolders)
    folders |= {'Sources', 'Tests', 'clients', 'docs'}
    for name in sorted(named - folders):
        yield f'docs/layout.md: names {name}/, which no folder is'
    for path, subfolders, _ in os.walk('Sources'):
        for folder in subfolders:
            if not folder.endswith('.docc') and folder not in named:
                yield f'docs/layout.md: does not name {os.path.join(path, folder)}/: say what it holds'
        subfolders[:] = [f for f in subfolders if not f.endswith('.docc')]


found = sorted(set(breaches()) | set(file_breaches()) | set(package_breaches()) | set(layout_breaches()))
for breach in found:
    print(breach)
sys.exit(1 if found else 0)
