"""What an OCR audit holds from one packet to the next: a process auditing a corpus must hold
what its largest packet needs, not what every packet before it took."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from packetbench.audit import audit_packet
from packetbench.reading import ppocr
from packetbench.reading.tesseract import Tesseract
from tests.support.ocr import needs_tesseract

# A child process fills its heap with 2 KB blocks (past pymalloc, so the C allocator's),
# keeps one in ten (the rest cannot merge back into the heap's top), frees the others and
# prints its resident set (MB) before and after `give_back`.
_FRAGMENTED = """
import sys
from packetbench.core import heap

def resident():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024

blocks = [bytearray(2048) for _ in range(150_000)]
kept = blocks[::10]
del blocks
before = resident()
if sys.argv[1] == "give_back":
    heap.give_back()
print(before, resident(), len(kept))
"""


def _resident_after(mode: str) -> tuple[int, int]:
    out = subprocess.run(
        [sys.executable, "-c", _FRAGMENTED, mode], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[0]), int(out[1])


def test_freed_heap_pages_are_handed_back_to_the_system() -> None:
    """About 270 MB freed among kept blocks stays resident until `give_back` returns it."""
    before, after = _resident_after("keep")
    assert after > 250 and after >= before - 5, (before, after)  # the allocator kept it
    before, after = _resident_after("give_back")
    assert after < before - 150, (before, after)


@needs_tesseract
def test_an_ocr_audit_lets_go_of_the_second_engine(packet: Path) -> None:
    """The second engine's arenas keep the largest tensors of every image it read: an OCR
    audit drops the engine when its packet is done (the next packet loads it again); an
    audit without OCR leaves it alone."""
    loaded = ppocr.engine()
    audit_packet(packet)
    assert ppocr.engine() is loaded
    audit_packet(packet, engine=Tesseract())
    assert ppocr.engine() is not loaded
