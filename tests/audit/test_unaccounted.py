"""The page-text accounting of the `unaccounted` finding, reading by reading: what each
generator pattern does to a text layer must not look like unaccounted text, and a value no
truth holds must."""

from __future__ import annotations

from collections import Counter

from packetbench.audit.unaccounted import unaccounted


def _left(page: str, *drawn: str, hidden: tuple[str, ...] = (), ocr: bool = False) -> Counter[str]:
    return unaccounted(page, Counter(drawn), set(hidden), ocr_layer=ocr)


def test_a_value_nobody_holds_is_left_over_and_named_alone() -> None:
    assert _left("CITY\r\nWalkertown\r\nSTATE WY", "CITY", "STATE", "WY") == {"Walkertown": 1}


def test_a_word_drawn_once_is_accounted_for_once() -> None:
    assert _left("3\r\n3 UNITS", "3", "UNITS") == {"3": 1}
    assert _left("3\r\n3 UNITS", "3", "3", "UNITS") == {}


def test_a_kerned_line_without_spaces_is_accounted_for() -> None:
    page = "NAMEDINSURED\r\n1 1 9217ThomasPlain NewTinamouth ND 2001 3 25 94%"
    drawn = ("NAMED INSURED", "1", "1", "9217 Thomas Plain", "New Tinamouth", "ND", "2001")
    assert _left(page, *drawn, "3", "25", "94%") == {}
    # ... and a cell nobody holds is still left, not absorbed by a longer neighbour.
    assert _left(page, *drawn, "25", "94%") == {"3": 1}


def test_a_value_run_into_prose_is_accounted_for() -> None:
    page = "Built in 2017, this 2-story building (125,100 sq ft) is classed Frame."
    drawn = ("Built in ", "2017", ", this ", "2", "-story building (", "125,100", " sq ft) is")
    assert _left(page, *drawn, "classed", "Frame", ".") == {}


def test_ligatures_and_joining_punctuation_read_as_their_letters() -> None:
    assert _left("Certificates kept on file.", "Certi\ufb01cates kept on \ufb01le.") == {}
    assert _left("Walkertown, WY 82210", "Walkertown", "WY", "82210") == {}


def test_hidden_text_may_be_there_any_number_of_times() -> None:
    page = "FEIN 82-9478222 82-9478222"
    assert _left(page, "FEIN", hidden=("82-9478222",)) == {}


def test_an_ocr_layer_may_repeat_each_drawn_word_once_and_misread_any() -> None:
    page = "contract between the issuing insurer contract between thc issuing insurer"
    assert _left(page, "contract between the issuing insurer", hidden=("thc",), ocr=True) == {}
    # Without the misreading listed, the layer's word is unaccounted for.
    assert _left(page, "contract between the issuing insurer", ocr=True) == {"thc": 1}
    # A third copy of a drawn word is more than glyphs and layer together.
    thrice = f"{page} insurer"
    assert _left(thrice, "contract between the issuing insurer", hidden=("thc",), ocr=True) == {
        "insurer": 1
    }


def test_rules_bullets_and_punctuation_are_not_text() -> None:
    assert _left("NAME | ---- • : .", "NAME") == {}


def test_words_a_layer_set_side_by_side_are_the_words() -> None:
    """An OCR layer's words of a stacked header ("BUILT" over "STORIES") may read as one; they
    are the two words only while each has allowance to spare."""
    page = "YR BUILTSTORIES SQ FT"
    assert _left(page, "YR BUILT", "STORIES", "SQ FT", ocr=True) == {}
    assert (
        _left("DATE RECOMMENDATIONDUF", "DATE", "RECOMMENDATION DUE", hidden=("DUF",), ocr=True)
        == {}
    )
    assert _left(f"{page} BUILT STORIES BUILT", "YR BUILT", "STORIES", "SQ FT", ocr=True) == {
        "BUILTSTORIES": 1
    }
