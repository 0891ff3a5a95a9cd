"""Counts which standard-library modules real programs import: for each
module, the number of `.py` files under the given folders that import it
(`import x`, `import x.y`, `from x import ...`; relative imports skipped),
most common first, then the most common third-party packages. The standard
library is the running Python's `sys.stdlib_module_names`.

    python3 tools/count_imports.py CHECKOUT [CHECKOUT...]

Used to choose what the standard-library corpus (tests/corpus/stdlib/) covers;
its README has the counts for pytorch/examples, nanoGPT, minGPT and makemore.
"""

import ast
import collections
import os
import sys

# Submodules counted apart from their package, as scripts import them by name.
SUBMODULES = {"os.path", "urllib.parse", "concurrent.futures", "importlib.util"}


def imported_modules(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def main(roots):
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    files = 0
    standard = collections.Counter()
    third_party = collections.Counter()
    for root in roots:
        for folder, _, names in os.walk(root):
            for name in names:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    try:
                        tree = ast.parse(f.read())
                    except SyntaxError:
                        continue
                files += 1
                tops = set()
                for module in imported_modules(tree):
                    top = module.split(".")[0]
                    if top in stdlib:
                        tops.add(module if module in SUBMODULES else top)
                    else:
                        third_party[top] += 1
                standard.update(tops)
    print(f"{files} files")
    for module, count in standard.most_common():
        print(f"{count:4d} {module}")
    print("third-party:", ", ".join(f"{m} {c}" for m, c in third_party.most_common(12)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
