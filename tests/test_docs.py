"""The documentation tells the truth: the README's two commands and its map of commands, every
console session of the README and of docs/ run as written, a docs site that builds with every
link checked, a generated reference that is current, and code that cites only files of the
repository."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from packetbench.cli import app
from tests.support.paths import ROOT, cli_path
from tests.support.sessions import (
    PAGES,
    console_blocks,
    own_entries,
    pages_with_sessions,
    run_page,
    written_into_the_repository,
)

README = (ROOT / "README.md").read_text(encoding="utf-8")
README_LINES = 300


def _marked_command(marker: str) -> str:
    match = re.search(rf"<!-- {marker} -->\s*```(?:bash|sh|console)?\n(.+?)\n```", README, re.S)
    assert match, f"README has no block marked <!-- {marker} -->"
    return match.group(1).strip()


def test_readme_has_the_two_commands() -> None:
    main = _marked_command("main-command")
    test = _marked_command("test-command")
    assert "pip install" in main and "packetbench " in main
    assert 'pip install -e ".[test]"' in test and "pytest" in test


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _marked_command("test-command") in ci.splitlines()


def test_the_readme_introduces_and_the_reference_is_in_docs() -> None:
    lines = README.count("\n")
    assert lines <= README_LINES, f"README.md is {lines} lines (at most {README_LINES})"


def _commands() -> list[str]:
    """Every command, groups' subcommands as `group sub`."""
    import typer.main

    root = typer.main.get_command(app)
    names: list[str] = []
    for name, command in sorted(root.commands.items()):  # type: ignore[attr-defined]
        subcommands = getattr(command, "commands", None)
        if subcommands:
            names += [f"{name} {sub}" for sub in sorted(subcommands)]
        else:
            names.append(name)
    return names


def test_every_command_is_in_the_readme_map() -> None:
    names = _commands()
    assert len(names) > 15
    for name in names:
        assert f"packetbench {name}`" in README, f"README's map does not show `packetbench {name}`"


def _links(text: str) -> list[str]:
    """Relative link targets of a markdown text (images included), without anchors' pages
    resolved."""
    return [
        target
        for target in re.findall(r"\]\(([^)\s]+)\)", text)
        if not re.match(r"[a-z]+:", target)
    ]


def test_the_readme_links_resolve() -> None:
    """Every relative link of the README names a file of the repository, and an anchor of a
    docs page names one of its headings (GitHub shows the README; mkdocs checks docs/)."""
    links = _links(README)
    assert any(link.startswith("docs/") for link in links)
    for link in links:
        path, _, anchor = link.partition("#")
        target = ROOT / path if path else ROOT / "README.md"
        assert target.is_file(), f"README links to {link}: no such file"
        if anchor and target.suffix == ".md":
            assert anchor in _anchors(target.read_text(encoding="utf-8")), link


def _anchors(text: str) -> set[str]:
    """The anchors of a markdown page's headings, as mkdocs and GitHub make them."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def _session_words() -> list[tuple[str, str]]:
    """(page, word) for every word of every console command of the README and docs."""
    words = []
    for page in [ROOT / "README.md", *sorted(PAGES.rglob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for _, block in console_blocks(text):
            for line in block.splitlines():
                if line.startswith("$ "):
                    words += [(page.name, w) for w in shlex.split(line[2:])]
    return words


def _outputs_of_examples() -> list[tuple[str, str]]:
    """(page, folder) for every `--out FOLDER` of the bash examples (not run by the tests)."""
    found = []
    for page in [ROOT / "README.md", *sorted(PAGES.rglob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"^```(?:bash|sh)\n(.*?)^```", text, re.S | re.M):
            found += [(page.name, f) for f in re.findall(r"--out[ =](\S+)", block)]
    return found


def test_no_example_writes_into_the_repository() -> None:
    """Run from a clone, an example reads and writes only folders of its own: never the
    canonical suite's `packets/` (in a fresh clone it holds only its lock), `docs/`, `src/`
    and the rest of what git tracks."""
    own = own_entries()
    assert "packets" in own and "src" in own
    words = _session_words()
    assert len(words) > 100
    inside = [(page, w) for page, w in words if w.split("/", 1)[0] in own and "/" in w]
    inside += [(page, w) for page, w in _outputs_of_examples() if w.split("/", 1)[0] in own]
    outputs = [(page, w) for page, w in words if w in own]
    assert inside + outputs == []


# Phrases that tell how a figure or a behaviour moved over versions. The README and the guide
# say what is true now; the story belongs to docs/history.md and the CHANGELOG, and
# docs/measurements.md keeps each measurement beside the ones it replaced.
NARRATION = (
    r"\bbefore (?:this|the|its) (?:version|change|changes|fix|fixes|code|draw)\b",
    r"\bthe (?:code|version|draw) before\b",
    r"\bnow\b[^.]*\(was\b",
    r"\(was [\d$]",
    r", was \d",
    r"\bused to\b",
    r"\bearlier (?:draw|code)\b",
    r"\bno longer\b",
    r"\bwe (?:changed|moved|fixed|removed|added)\b",
    r"\bonce N\d was\b",
    r"\bit took \d",
    r"\bsince then\b",
    r"\bafter the fix\b",
    r"\bmeasured \d{4}-\d\d-\d\d\b",
    r"\(\d{4}-\d\d-\d\d\b",
    r"\bmeasured after\b",
    r"\bturned to phone photos\b",
    r",? as before\.",
)
# Sentences the guide once held, each of which one of the phrases must catch.
NARRATED = (
    "On CI's 2 cores it took 52 minutes once N5 was photographed (3,144 s)",
    "`make test` ran 1,351 in 3 min 58 s (measured 2026-11-27; docs/development.md).",
    "| audit, text layer of all, OCR of 5 % | 27 min | 48 min | 3.8 GB (was 7.7) |",
    "its overview is computed in 40 s the first time (it took 690 s, one query a slice table)",
    "the audit's command no longer keeps 1.8 GB of results",
    "from the command to the document list, 1.73 s against 3.94 s for the code before",
    "N5's column is the draw before N5 turned to phone photos.",
    "against the version before the photos 46.8 s against 27.5 s (0.59, was 0.51)",
    "run again, it finds the packet complete (it used to stop the run)",
    "(`N5 before` is the earlier draw, seeds 870001-870005)",
    "| the fast tier again (2026-11-27) | 1,309 | 3 min 35 s |",
    "`--ocr-mode full` OCRs every such page, as before.",
)


def _prose(text: str) -> str:
    """A markdown page without its fenced blocks (console output is what a command prints)."""
    return re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.S | re.M)


def test_no_page_narrates_a_past_version() -> None:
    """The README and every docs page (but the history and the measurements) state what is
    true now: no phrase of NARRATION in their prose. Each sentence of NARRATED, moved to
    docs/history.md, is caught by a phrase, so the list is known to catch narration."""
    for sentence in NARRATED:
        assert any(re.search(p, sentence, re.I) for p in NARRATION), sentence
    kept = {"history.md", "measurements.md"}
    pages = [ROOT / "README.md", *sorted(PAGES.rglob("*.md"))]
    found = [
        f"{page.relative_to(ROOT)}: ...{text[max(0, match.start() - 60) : match.end() + 40]}..."
        for page in pages
        if page.name not in kept
        for text in [_prose(page.read_text(encoding="utf-8")).replace("\n", " ")]
        for pattern in NARRATION
        for match in re.finditer(pattern, text, re.I)
    ]
    assert len(pages) > 30
    assert found == []


@pytest.mark.e2e
@pytest.mark.parametrize("page", pages_with_sessions(), ids=lambda p: str(p.relative_to(ROOT)))
def test_sessions_run_as_written(page: Path, tmp_path: Path) -> None:
    """Every command of the page's console blocks, in order, in a folder of the page's own,
    prints what the page shows (elapsed times aside); a command shown failing fails with that
    message and exit code 2. Nothing it writes is named as a folder of the repository."""
    bin_dir = str(Path(cli_path()).parent)
    ran = 0
    for step, wrong in run_page(page, tmp_path, bin_dir):
        ran += 1
        assert wrong is None, f"{page.name}:{step.line}: {step.command}\n{wrong}"
    assert ran
    assert written_into_the_repository(tmp_path) == []


def test_the_docs_site_builds_with_every_link_checked(tmp_path: Path) -> None:
    """`mkdocs build --strict`: a broken link, a missing anchor or a page left out of the
    navigation is an error (mkdocs.yml's `validation`)."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "index.html").is_file()
    # pages are files, so the site browses from disk: no folder of a page, no folder listing
    assert (tmp_path / "reference" / "cli.html").is_file()
    assert not (tmp_path / "reference" / "cli").exists()
    assert (tmp_path / "readme.html").is_file()


def test_the_generated_reference_is_current() -> None:
    """docs/reference/ is what `python _build_docs.py` writes from the commands' help, the
    pattern and tier registries and the SQL views: a changed option's help without the
    pages written again fails here."""
    sys.path.insert(0, str(ROOT))
    try:
        import _build_docs
    finally:
        sys.path.remove(str(ROOT))
    stale = _build_docs.stale()
    assert stale == [], f"stale generated pages (run `python _build_docs.py`): {stale}"


CODE = [ROOT / "src", ROOT / "tests", ROOT / "benchmarks", ROOT / "_build_schemas.py"]
OUTSIDE = re.compile(r"DESIGN §|DESIGN section|DESIGN\.md|PATTERNS\.md|\b[Ii]ssues? \d+")
CITED = re.compile(r"docs/([\w/-]+\.md)(?: (§\d+)| rules? (\d+[a-z]?))?")


def _code_files() -> list[Path]:
    files = []
    for root in CODE:
        candidates = [root] if root.is_file() else root.rglob("*")
        files += [
            p
            for p in candidates
            if p.suffix in (".py", ".sql", ".j2", ".css", ".js", ".html") and p.is_file()
        ]
    return files


def test_the_code_cites_only_files_of_the_repository() -> None:
    """No reference to a design file outside the repository or to a tracker's issue number:
    the code cites docs/ pages, and each cited page, section and rule exists."""
    this = Path(__file__).resolve()
    outside = []
    cited = []
    for path in _code_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.resolve() != this:
            outside += [
                f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
                for m in OUTSIDE.finditer(text)
            ]
        cited += [(path, m) for m in CITED.finditer(text)]
    assert outside == []
    assert len(cited) > 40
    for path, match in cited:
        page = PAGES / match.group(1)
        where = f"{path.relative_to(ROOT)} cites {match.group()}"
        assert page.is_file(), where
        text = page.read_text(encoding="utf-8")
        if match.group(2):
            number = match.group(2)[1:]
            assert re.search(rf"^## {number}\. ", text, re.M), where
        if match.group(3):
            assert re.search(rf"^\*\*Rule {match.group(3)}\b", text, re.M), where
