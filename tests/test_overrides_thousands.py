"""An own server's amount, or the ends of its price's range, written with a German thousands dot in an
overrides file: YAML reads 240.000 as 240.0, a server for the price of a meal, in any style it is
written in."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import invoke

from gpu_advisor.engine.apps.overrides import read_overrides
from gpu_advisor.engine.common.errors import InputError

PUBLIC_CHAT = str(Path(__file__).resolve().parent.parent / "examples" / "public-chat.yaml")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            "price_eur: 240.000   # the quote",
            "price_eur: 240.000 reads as 240, not 240000 (YAML takes the dot for "
            "a decimal point): write 240000, or 240.0 where 240 is meant.",
        ),
        (
            "rack_eur_per_month: 1.500",
            "rack_eur_per_month: 1.500 reads as 1.5, not 1500 (YAML takes the dot "
            "for a decimal point): write 1500, or 1.5 where 1.5 is meant.",
        ),
    ],
)
def test_an_own_server_amount_with_a_thousands_dot_is_refused(tmp_path: Path, line: str, said: str) -> None:
    """A German quote's 240.000 EUR, copied into the overrides file, reads as 240.0 in YAML: a server for
    the price of a meal, and every own-hardware figure after it. Refused, with the line and both
    readings; 240000, 240.0 and a per-hour price's three decimals pass."""
    path = tmp_path / "overrides.yaml"
    path.write_text(f"own_server:\n  {line}\n", encoding="utf-8")
    result = invoke("recommend", PUBLIC_CHAT, "--overrides", str(path))
    assert result.exit_code == 2
    assert f"--overrides {path}, line 2: {said}" in " ".join(result.output.split())
    for fine in ("price_eur: 240000", "price_eur: 240.0", "price_eur: 240_000"):
        path.write_text(f"own_server:\n  {fine}\n", encoding="utf-8")
        assert invoke("recommend", PUBLIC_CHAT, "--overrides", str(path)).exit_code == 0, fine


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("own_server: {price_eur: 240.000}\n", 1),
        ('own_server:\n  "price_eur": 240.000\n', 2),
        ('{"own_server": {"price_eur": 240.000}}\n', 1),
        ('own_server:\n  price_eur: "240.000"\n', 2),
    ],
)
def test_a_thousands_dot_is_refused_in_flow_style_json_and_quotes(
    tmp_path: Path, text: str, line: int
) -> None:
    """The amount's value is read from the composed document, not a line pattern: a flow mapping, a
    quoted key, a JSON file and a quoted number (which the field reads as 240.0 too) were let through
    and priced a $278 server."""
    path = tmp_path / "overrides.yaml"
    path.write_text(text, encoding="utf-8")
    result = invoke("recommend", PUBLIC_CHAT, "--overrides", str(path))
    assert result.exit_code == 2
    assert f"--overrides {path}, line {line}: price_eur: 240.000 reads as 240, not 240000" in result.output


def test_a_thousands_dot_in_the_server_price_range_is_refused(tmp_path: Path) -> None:
    """A range of the own server's price written 250.000 to 320.000 drew servers of $250 to $320; the
    dotted ends of another input's range (a price per GPU-hour of 1.900) are its decimals and pass."""
    path = tmp_path / "ranges.yaml"
    path.write_text("ranges:\n  server_price:\n    low: 250.000\n    high: 320000\n", encoding="utf-8")
    result = invoke("recommend", PUBLIC_CHAT, "--overrides", str(path), "--scenarios", "5")
    assert result.exit_code == 2
    assert (
        f"--overrides {path}, line 3: ranges.server_price.low: 250.000 reads as 250, not 250000"
    ) in result.output
    with pytest.raises(InputError) as raised:
        read_overrides(str(path))
    assert raised.value.field == "ranges.server_price.low"
    path.write_text("ranges:\n  reserved_h100_price: {low: 1.900, high: 2.100}\n", encoding="utf-8")
    assert invoke("recommend", PUBLIC_CHAT, "--overrides", str(path), "--scenarios", "5").exit_code == 0
