"""The console sessions of the README and of the pages under docs/, read and run as written.

A session is every ```console block of one page, in order: a line starting with `$ ` is a
command, the lines after it (up to the next command or the block's end) are what it prints on
stdout, or, when they start with `packetbench: error:`, the one line it prints on stderr with
exit code 2. Each page runs in a folder of its own, so a page sets up what it needs itself
(as a reader who opened only that page would have to).

`python -m tests.support.sessions PAGE...` runs pages and rewrites their expected output in
place with what the commands printed (look at the diff before committing it).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.paths import ROOT

PAGES = ROOT / "docs"
README = ROOT / "README.md"
SHELL = set("*|&;$<>`")  # a command with any of these goes through sh -c


def own_entries() -> frozenset[str]:
    """The repository's top-level files and folders (what git tracks): a session run from a
    clone must never write there."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True
    ).stdout
    return frozenset(line.split("/", 1)[0] for line in listed.splitlines() if line)


@dataclass
class Step:
    command: str
    expected: list[str] = field(default_factory=list)
    line: int = 0  # where the command is in its page (1-based), for messages

    @property
    def fails(self) -> bool:
        return bool(self.expected) and self.expected[0].startswith("packetbench: error:")


def console_blocks(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, body) of every ```console block of a markdown text."""
    for found in re.finditer(r"^```console\n(.*?)^```", text, re.S | re.M):
        yield text.count("\n", 0, found.start(1)) + 1, found.group(1)


def steps(text: str) -> list[Step]:
    """Every command of a page's console blocks, with what it prints."""
    found: list[Step] = []
    for start, block in console_blocks(text):
        for offset, line in enumerate(block.splitlines()):
            if line.startswith("$ "):
                found.append(Step(line[2:], line=start + offset))
            elif found:
                found[-1].expected.append(line)
    return found


def pages_with_sessions() -> list[Path]:
    """The README and every docs page with a console session, README first."""
    pages = [README, *sorted(PAGES.rglob("*.md"))]
    return [p for p in pages if steps(p.read_text(encoding="utf-8"))]


def mask_time(lines: list[str]) -> list[str]:
    """The lines with elapsed times (" in 12.3 s" at a line's or a clause's end) masked."""
    return [re.sub(r" in \d+\.\d s(?=$|;)", " in _ s", line) for line in lines]


def environment(bin_dir: str, home: Path) -> dict[str, str]:
    """The commands' environment: packetbench (and inspect) on PATH, and the caches a command
    keeps between runs (responses, rendered pages) in the session's own folder."""
    return {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "PACKETBENCH_CACHE": str(home / "cache" / "responses"),
        "PACKETBENCH_PAGE_CACHE": str(home / "cache" / "pages"),
        "COLUMNS": "200",
    }


def run_step(step: Step, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run one command as a reader would type it: through the shell when it uses the
    shell's syntax, else as its words."""
    argv = ["sh", "-c", step.command] if SHELL & set(step.command) else shlex.split(step.command)
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=1200, check=False
    )


def problem(step: Step, result: subprocess.CompletedProcess[str]) -> str | None:
    """Why the result is not what the page shows (None when it is)."""
    if step.fails:
        if result.returncode != 2:
            return f"exit {result.returncode}, the page shows exit 2: {result.stderr}"
        if result.stderr.splitlines() != step.expected:
            return f"stderr {result.stderr.splitlines()!r}"
        return None
    if result.returncode != 0:
        return f"exit {result.returncode}: {result.stderr}"
    got = mask_time(result.stdout.splitlines())
    if got != mask_time(step.expected):
        return "printed:\n" + "\n".join(result.stdout.splitlines())
    return None


def run_page(page: Path, cwd: Path, bin_dir: str) -> Iterator[tuple[Step, str | None]]:
    """Each step of `page` run in `cwd`, with what is wrong with its output (None: nothing)."""
    env = environment(bin_dir, cwd / ".session")
    for step in steps(page.read_text(encoding="utf-8")):
        yield step, problem(step, run_step(step, cwd, env))


def written_into_the_repository(cwd: Path) -> list[str]:
    """Entries a session made in its folder that are named as the repository's own: run
    from a clone, they would have gone into (or over) the repository's folders."""
    own = own_entries()
    return sorted(p.name for p in cwd.iterdir() if p.name in own)


def record(page: Path) -> None:
    """Run `page`'s session in a fresh folder and write what each command printed back into
    the page as its expected output (times masked as the test masks them: not at all)."""
    text = page.read_text(encoding="utf-8")
    bin_dir = str(Path(sys.executable).parent)
    outputs: dict[int, list[str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        env = environment(bin_dir, cwd / ".session")
        for step in steps(text):
            result = run_step(step, cwd, env)
            if result.returncode not in (0, 2):
                raise SystemExit(
                    f"{page}:{step.line}: {step.command}: exit {result.returncode}\n{result.stderr}"
                )
            lines = (
                result.stdout.splitlines()
                if result.returncode == 0
                else (result.stderr.splitlines())
            )
            outputs[step.line] = lines
            sys.stderr.write(f"{page.name}:{step.line}: {step.command[:80]}\n")
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    in_console = False
    while i < len(lines):
        line = lines[i]
        if line.startswith("```console"):
            in_console = True
        elif in_console and line.startswith("```"):
            in_console = False
        if in_console and line.startswith("$ ") and (i + 1) in outputs:
            out.append(line)
            out.extend(outputs[i + 1])
            i += 1
            while i < len(lines) and not lines[i].startswith(("$ ", "```")):
                i += 1
            continue
        out.append(line)
        i += 1
    page.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        record(Path(name))
