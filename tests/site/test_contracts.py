"""The import contracts (`.importlinter`) hold what they say: every module
they name exists, every package of the app is in a layer, the layers are
the ones docs/ARCHITECTURE.md draws, and an import against them breaks
`lint-imports`."""

import configparser
import pkgutil
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROOTS = ("scoring", "tournament")

# The options whose values are module expressions (`*`: one name, `**`:
# one or more), and the ignore lines' two sides.
MODULE_OPTIONS = (
    "source_modules",
    "forbidden_modules",
    "protected_modules",
    "allowed_importers",
    "ancestors",
    "containers",
)


def _contracts() -> dict[str, configparser.SectionProxy]:
    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter")
    prefix = "importlinter:contract:"
    return {
        name.removeprefix(prefix): parser[name]
        for name in parser.sections()
        if name.startswith(prefix)
    }


def _lines(value: str) -> list[str]:
    return [line.strip() for line in value.splitlines() if line.strip()]


def _modules() -> set[str]:
    """Every module and package of the project's root packages, found on
    disk (`pkgutil`, nothing imported)."""
    found: set[str] = set()

    def walk(path: Path, name: str) -> None:
        found.add(name)
        for info in pkgutil.iter_modules([str(path)]):
            if info.ispkg:
                walk(path / info.name, f"{name}.{info.name}")
            else:
                found.add(f"{name}.{info.name}")

    for root in ROOTS:
        walk(ROOT / root, root)
    return found


def _pattern(expression: str) -> re.Pattern[str]:
    parts = []
    for part in expression.split("."):
        parts.append(
            {"*": r"[^.]+", "**": r"[^.]+(?:\.[^.]+)*"}.get(part, re.escape(part))
        )
    return re.compile(r"\.".join(parts))


def _expressions() -> list[tuple[str, str]]:
    """(contract, expression) for each module expression naming the
    project's own modules."""
    found = []
    for name, contract in _contracts().items():
        values = [
            v for option in MODULE_OPTIONS for v in _lines(contract.get(option, ""))
        ]
        for line in _lines(contract.get("ignore_imports", "")):
            values.extend(side.strip() for side in line.split("->"))
        for container in _lines(contract.get("containers", "")):
            for layer in _layers(contract):
                values.extend(f"{container}.{tail}" for tail in layer)
        found += [(name, v) for v in values if v.split(".")[0] in ROOTS]
    return found


def _layers(contract: configparser.SectionProxy) -> list[list[str]]:
    return [
        re.split(r"\s*[|:]\s*", line) for line in _lines(contract.get("layers", ""))
    ]


def test_every_module_a_contract_names_exists():
    """A protected wildcard or an allowed importer that matches nothing
    protects or allows nothing, silently (the ignores alert by
    themselves: `unmatched_ignore_imports_alerting`)."""
    modules = _modules()
    expressions = _expressions()
    assert len(expressions) > 100
    unmatched = [
        (contract, expression)
        for contract, expression in expressions
        if not any(_pattern(expression).fullmatch(m) for m in modules)
    ]
    assert unmatched == []


def test_the_wildcard_matching_is_import_linters():
    modules = {"a", "a.b", "a.b.c", "a.d"}

    def matched(expression: str) -> set[str]:
        return {m for m in modules if _pattern(expression).fullmatch(m)}

    assert matched("a.*") == {"a.b", "a.d"}
    assert matched("a.**") == {"a.b", "a.b.c", "a.d"}
    assert matched("a.x.*") == set()


def test_every_package_is_under_a_contract():
    """The layers contract is exhaustive (import-linter checks that every
    package of the app is in a layer); here: the engines may import none of
    the site."""
    contracts = _contracts()
    assert contracts["layers"].getboolean("exhaustive")
    forbidden = set(_lines(contracts["engines-pure"]["forbidden_modules"]))
    modules = _modules()
    children = {m for m in modules if m.count(".") == 1 and m.startswith("tournament.")}
    # A feature holding an engine: its other modules are forbidden one by one.
    holders = ("tournament.seating.", "tournament.sheetphoto.")
    inside = {m for m in modules if m.count(".") == 2 and m.startswith(holders)}
    engine = {
        "tournament.seating",
        "tournament.seating.engine",
        "tournament.seating.__main__",
        "tournament.sheetphoto",
        "tournament.sheetphoto.reader",
    }
    assert (children | inside) - engine - forbidden == set()


def test_the_layers_are_those_the_architecture_draws():
    """docs/ARCHITECTURE.md lists the layers as `.importlinter` has them:
    one says what the other checks."""
    layers = [" | ".join(layer) for layer in _layers(_contracts()["layers"])]
    text = (ROOT / "docs/ARCHITECTURE.md").read_text()
    drawn = text.split("<!-- layers:")[1].split("```")[1]
    lines = [line.split("#")[0].strip() for line in drawn.splitlines()]
    assert [line for line in lines if line] == layers


def test_an_import_against_the_layers_breaks_lint_imports(tmp_path):
    """On a copy of the code: auditlog (a layer above only core and models)
    importing the standings, and a new package in no layer, each break the
    layers contract and nothing else."""
    for root in ROOTS:
        shutil.copytree(
            ROOT / root, tmp_path / root, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / ".importlinter", tmp_path)
    probe = "from tournament.standings.selectors import categories  # noqa: F401\n"
    (tmp_path / "tournament" / "auditlog" / "probe.py").write_text(probe)
    (tmp_path / "tournament" / "newthing").mkdir()
    (tmp_path / "tournament" / "newthing" / "__init__.py").write_text("")

    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = " ".join(done.stdout.split())
    assert done.returncode == 1, output
    assert f"Contracts: {len(_contracts()) - 1} kept, 1 broken." in output
    assert f"{_contracts()['layers']['name']} BROKEN" in output
    assert "tournament.auditlog is not allowed to import tournament.standings" in output
    assert "tournament.auditlog.probe -> tournament.standings.selectors" in output
    assert "not listed as layers: - tournament.newthing" in output
