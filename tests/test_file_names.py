"""A workload's name as the start of its files (charts, saved answers, downloads): letters of any script
stay, so that two workloads named in German or Chinese do not write over each other's charts."""

from __future__ import annotations

from gpu_advisor.engine.common.file_names import attachment, file_stem
from gpu_advisor.engine.present.chart_images import chart_file_names


def test_letters_of_any_script_stay_and_separators_go() -> None:
    assert file_stem("Ärzte-Chat") == "Ärzte-Chat"
    assert (file_stem("客服"), file_stem("法务")) == ("客服", "法务")
    assert file_stem("../a/b c\\d") == "a-b-c-d"
    assert file_stem(" .. ") == "workload"
    names = chart_file_names("客服")
    assert all(name.startswith("客服-") for name in names.values())
    assert set(names.values()).isdisjoint(chart_file_names("法务").values())


def test_a_long_name_is_cut_between_characters() -> None:
    """'客服' fifty times is 300 bytes: the charts' names were too long for the file system ("File name
    too long", and ask lost its answers at the end)."""
    stem = file_stem("客服" * 50)
    assert stem == "客服" * 20 and len(stem.encode("utf-8")) == 120
    assert file_stem("a" * 119 + "é") == "a" * 119  # é's two bytes would pass 120: cut before it


def test_a_download_names_its_file_in_ascii_and_in_utf_8() -> None:
    assert attachment("Ärzte-Chat-memo.md") == (
        "attachment; filename=\"Arzte-Chat-memo.md\"; filename*=UTF-8''%C3%84rzte-Chat-memo.md"
    )
    assert attachment("public-chat.yaml") == (
        "attachment; filename=\"public-chat.yaml\"; filename*=UTF-8''public-chat.yaml"
    )
