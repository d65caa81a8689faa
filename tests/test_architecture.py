"""The architecture's rules, counted (style.md 12, 16, 17): layers point down, and what is
not there yet is a debt that only shrinks.

The layers, low to high (drawn in docs/platform.md, "Layers"; written here once)::

    games.core <- games.<slug> <- platform base <- tables <- accounts <- ratings
        <- moderation <- tournaments <- lobby | api | pwa <- the site's composition

The platform base is ``pigparlor.core``, ``pigparlor.ops``, ``pigparlor.realtime`` and the
project's loose helper modules (``pigparlor/usertext.py``, ``layers.py``…); the site's
composition is ``pigparlor.site``, ``settings``, ``urls`` and ``asgi``. ``lobby``, ``api`` and
``pwa`` stand side by side: an import between them goes up no layer.

What is counted, each over the Python files of ``pigparlor/`` (``games/`` for the game rules),
migrations left out:

- ``circles``: modules that sit in an import circle. Every ``import`` of a ``pigparlor.*`` or
  ``games.*`` module counts, at module level or inside a function (an import inside a function
  hides a circle, it does not break it); ``from a.b import c`` is an edge to ``a.b.c`` when that
  is a module, else to ``a.b``. The count is the modules in strongly connected components of
  more than one module.
- ``upward``: imports (module, imported module) pairs, each counted once, that point to a
  higher layer than the importer's.
- ``seats_rev_writes``: writes of ``seats_rev`` (``seats_rev +=``, ``seats_rev = ...``,
  ``seats_rev=F(...)`` in a call) outside the one write door (``WRITE_DOOR``, not built yet).
- ``announces``: calls of ``announce_after_commit(`` outside the write door.
- ``caches``: cache constructions outside the one memo module (``MEMO``, not built yet): a call
  of ``lru_cache``, ``cache`` (``functools``), ``OrderedDict`` (the hand-made LRUs), ``Lru``,
  ``_Latest`` or ``SharedRenders``, or a bare ``@cache``/``@functools.cache`` decorator.
- ``games_import_platform``: lines of ``games/**/*.py`` that name ``pigparlor`` at all, an import
  or a comment (nothing of the games may know the platform; ``grep -rn pigparlor games``).
- ``slugs``: a game's slug (``oink``, ``pigpile``, ``piggypiggy``, ``snout``) as a word in
  platform code (``pigparlor/**/*.py``) and templates (``templates/**``): the platform knows no
  game by name; what it needs from one, the game declares.

``DEBT`` holds each count as measured; a count above its debt fails, and a count below it fails
too, asking you to lower the debt, so it only shrinks.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_SLUGS = ("oink", "pigpile", "piggypiggy", "snout")

# Low to high. A module's layer is the first prefix that matches (longest prefixes first).
LAYERS: list[tuple[str, ...]] = [
    ("games", "games.core"),
    tuple(f"games.{slug}" for slug in GAME_SLUGS),
    ("pigparlor.core", "pigparlor.ops", "pigparlor.realtime", "pigparlor.usertext", "pigparlor.layers",
     "pigparlor.headers", "pigparlor.origin", "pigparlor.secret_key", "pigparlor.static_files", "pigparlor"),
    ("pigparlor.tables",),
    ("pigparlor.accounts",),
    ("pigparlor.ratings",),
    ("pigparlor.moderation",),
    ("pigparlor.tournaments",),
    ("pigparlor.lobby", "pigparlor.api", "pigparlor.pwa"),
    ("pigparlor.site", "pigparlor.settings", "pigparlor.urls", "pigparlor.asgi"),
]

# The one write door of a table and its seats, and the one memo module: not built yet, so every
# write and every cache elsewhere is debt today.
WRITE_DOOR = "pigparlor/tables/writes.py"
MEMO = "pigparlor/core/memo.py"

DEBT: dict[str, int] = {
    "circles": 16,                # one circle: tables' broadcast, clock, presence, rendering, services with
                                  # ratings, pwa, tournaments and moderation's notices
    "upward": 28,                 # tables -> ratings/pwa/moderation, accounts -> ratings/api/pwa…
    "seats_rev_writes": 16,       # tables' services (10), clock, presence, ratings' service (4)
    "announces": 17,              # the same writers announce themselves
    "caches": 20,                 # Lru, _Latest, SharedRenders, lru_cache/cache and hand-made OrderedDict LRUs
    "games_import_platform": 0,   # paid: the registry is games.core's
    "slugs": 2,                   # an example in two refusals' words ("a game's name, such as \"pigpile\""):
                                  # tables' create_table, tournaments' spec; their words stay as they are
}

CACHE_CALLS = {"lru_cache", "cache", "OrderedDict", "Lru", "_Latest", "SharedRenders"}
SLUG = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(GAME_SLUGS) + r")(?![A-Za-z0-9_])")
SEATS_REV_KEYWORD = re.compile(r"\bseats_rev\s*=\s*(models\.)?F\(")


def layer(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            # A bare top package names only itself (its __init__); a new package needs its own layer.
            if module == prefix or ("." in prefix and module.startswith(prefix + ".")):
                if best is None or len(prefix) > best[1]:
                    best = (rank, len(prefix))
    return None if best is None else best[0]


def python_files(*tops: str) -> list[Path]:
    return sorted(path for top in tops for path in (ROOT / top).rglob("*.py")
                  if "migrations" not in path.parts)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def imports(path: Path) -> set[str]:
    """The ``pigparlor``/``games`` modules ``path`` imports, anywhere in the file."""
    found: set[str] = set()
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else module_name(path)
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            names = [f"{base}.{alias.name}" if _is_module(f"{base}.{alias.name}") else base
                     for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in ("pigparlor", "games"):
                while name and not _is_module(name):
                    name = name.rpartition(".")[0]
                if name:
                    found.add(name)
    return found


def import_graph() -> dict[str, set[str]]:
    return {module_name(path): imports(path) for path in python_files("pigparlor", "games")}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    found = []
    for module, targets in sorted(graph.items()):
        mine = layer(module)
        for target in sorted(targets):
            theirs = layer(target)
            if mine is not None and theirs is not None and theirs > mine:
                found.append((module, target))
    return found


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT).as_posix()}:{line}"


def seats_rev_writes() -> list[str]:
    found = []
    for path in python_files("pigparlor"):
        if path.relative_to(ROOT).as_posix() == WRITE_DOOR:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            targets: list[ast.expr] = []
            if isinstance(node, ast.AugAssign):
                targets = [node.target]
            elif isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, ast.Call):
                if any(keyword.arg == "seats_rev" and isinstance(keyword.value, ast.Call)
                       for keyword in node.keywords) \
                        and _called(node) in ("update", "update_or_create"):
                    found.append(_where(path, node.lineno))
                continue
            if any(isinstance(target, ast.Attribute) and target.attr == "seats_rev" for target in targets):
                found.append(_where(path, node.lineno))
    return sorted(found)


def _called(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def announces() -> list[str]:
    found = []
    for path in python_files("pigparlor"):
        if path.relative_to(ROOT).as_posix() == WRITE_DOOR:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and _called(node) == "announce_after_commit":
                found.append(_where(path, node.lineno))
    return found


def caches() -> list[str]:
    found = []
    for path in python_files("pigparlor"):
        if path.relative_to(ROOT).as_posix() == MEMO:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and _called(node) in CACHE_CALLS:
                found.append(_where(path, node.lineno))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for decorator in node.decorator_list:
                    name = decorator.attr if isinstance(decorator, ast.Attribute) else \
                        decorator.id if isinstance(decorator, ast.Name) else ""
                    if name in ("cache", "lru_cache"):
                        found.append(_where(path, decorator.lineno))
    return found


def games_import_platform() -> list[str]:
    return [_where(path, number) for path in python_files("games")
            for number, line in enumerate(path.read_text().splitlines(), 1) if "pigparlor" in line]


def slugs() -> list[str]:
    found = []
    paths = python_files("pigparlor") + sorted(path for path in (ROOT / "templates").rglob("*")
                                               if path.is_file())
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            found.extend(f"{_where(path, number)} {match}" for match in SLUG.findall(line))
    return found


def measure() -> dict[str, list]:
    graph = import_graph()
    return {
        "circles": [module for component in circles(graph) for module in component],
        "upward": [f"{module} -> {target}" for module, target in upward(graph)],
        "seats_rev_writes": seats_rev_writes(),
        "announces": announces(),
        "caches": caches(),
        "games_import_platform": games_import_platform(),
        "slugs": slugs(),
    }


def test_no_rule_is_broken_beyond_its_debt():
    found = measure()
    over = {rule: (len(found[rule]), DEBT[rule], found[rule]) for rule in DEBT if len(found[rule]) > DEBT[rule]}
    assert not over, ("the architecture's rules (tests/test_architecture.py) broken beyond their DEBT, "
                      f"as rule: (found, allowed, where): {over}; point the import down a layer (a signal "
                      "or a registry carries news up), write through the write door, cache in the memo "
                      "module, and let the game declare what the platform needs of it")


def test_the_debt_shrinks_with_the_debt():
    found = measure()
    stale = {rule: (len(found[rule]), allowed) for rule, allowed in DEBT.items() if len(found[rule]) < allowed}
    assert not stale, f"fewer breaks than DEBT allows, as rule: (found, listed): {stale}: lower DEBT"


def test_the_layers_name_every_platform_module():
    """A new top-level package of pigparlor gets a layer here before it gets code."""
    unplaced = sorted(module for module in import_graph() if layer(module) is None)
    assert not unplaced, f"modules with no layer in tests/test_architecture.py's LAYERS: {unplaced}"
