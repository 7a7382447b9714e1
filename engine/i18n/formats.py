"""How numbers and money are written in each language and currency."""

from __future__ import annotations

import math
import typing
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

Language = Literal["en", "de"]
Currency = Literal["USD", "EUR", "CHF"]
LANGUAGES: tuple[str, ...] = typing.get_args(Language)
CURRENCIES: tuple[str, ...] = typing.get_args(Currency)
SMALL = 0.01
"""Numbers below this are written with two significant digits."""
EDGE_NOISE = 1e-9
"""A share this close to the edge it is compared with is the edge (0.30000000000000004 is 30 %)."""


SYMBOLS: dict[str, str] = {"USD": "$", "EUR": "€", "CHF": "CHF"}
"""How an amount names its currency: a sign, or the Swiss franc's ISO code (as Swiss prices write it)."""


@dataclass(frozen=True)
class Format:
    """How numbers and money are written: language, currency and the dated rates amounts computed in USD
    are converted at (USD per EUR; USD per CHF, worked out through the EUR, where amounts are in CHF)."""

    lang: Language = "en"
    currency: Currency = "USD"
    usd_per_eur: float = 1.0
    usd_per_chf: float | None = None

    def __post_init__(self) -> None:
        if self.currency == "CHF" and self.usd_per_chf is None:
            raise ValueError("amounts in CHF need the USD-per-CHF rate")

    @classmethod
    def named(
        cls,
        lang: str = "en",
        currency: str = "USD",
        usd_per_eur: float = 1.0,
        usd_per_chf: float | None = None,
    ) -> Format:
        """The format of a language and currency given by name; ValueError for one it does not know, or
        for CHF without its rate."""
        if lang not in LANGUAGES or currency not in CURRENCIES:
            raise ValueError(f"no format for language {lang!r} and currency {currency!r}")
        return cls(typing.cast(Language, lang), typing.cast(Currency, currency), usd_per_eur, usd_per_chf)

    @property
    def symbol(self) -> str:
        """The currency's sign ('$', '€') or code ('CHF')."""
        return SYMBOLS[self.currency]

    @property
    def usd_per_unit(self) -> float:
        """What one unit of the currency amounts are shown in is in USD: 1 for USD."""
        if self.currency == "EUR":
            return self.usd_per_eur
        if self.currency == "CHF":
            return typing.cast(float, self.usd_per_chf)  # set: ``__post_init__`` refuses CHF without it
        return 1.0

    def number(self, value: float | int, digits: int = 0) -> str:
        """1234567.8 -> '1,234,568' (en) or '1.234.568' (de); small non-integers keep the digits that
        make them readable."""
        trim = False
        if isinstance(value, float) and digits == 0 and not value.is_integer() and abs(value) < 100:
            digits, trim = (2 if abs(value) < 10 else 1), True
            if abs(value) < SMALL:  # two significant digits, so that a rate of 0.00046/s does not read 0
                digits = 1 - math.floor(math.log10(abs(value)))
        text = f"{value:,.{digits}f}"
        if trim and "." in text:
            text = text.rstrip("0").rstrip(".")
        return self._localize(text)

    def localize(self, text: str) -> str:
        """A number written the English way ('1,234.5'), in the language's separators ('1.234,5')."""
        return self._localize(text)

    def _localize(self, text: str) -> str:
        if self.lang == "de":
            return text.replace(",", "\0").replace(".", ",").replace("\0", ".")
        return text

    def figure(self, value: float) -> str:
        """A source's figure as it gives it, in its own currency: up to four decimals, no trailing zeros:
        0.1833, 217.3, 52,200 (en) or 0,1833, 52.200 (de)."""
        text = f"{value:,.4f}".rstrip("0").rstrip(".")
        return self._localize(text)

    def money_whole(self, usd: float) -> str:
        """Whole units, except under ten, where the cents still say something: '$1,964', '$3.12'."""
        amount = usd / self.usd_per_unit
        return self.money(usd, 2 if 0 < abs(amount) < 10 else 0)

    def money(self, usd: float, digits: int = 2) -> str:
        """An amount computed in USD, in the chosen currency: '$1,963.70', '€1,692.84', 'CHF 1,556.91' or
        '1.692,84 €'."""
        amount = usd / self.usd_per_unit
        sign = "-" if amount < 0 else ""
        text = self._localize(f"{abs(amount):,.{digits}f}")
        symbol = self.symbol
        if self.lang == "de":
            return f"{sign}{text} {symbol}"
        # A code, unlike a sign, stands apart from the figure.
        return f"{sign}{symbol} {text}" if len(symbol) > 1 else f"{sign}{symbol}{text}"

    def money_rate(self, usd: float, digits: int = 4) -> str:
        """A price a figure is multiplied by (per kWh): up to ``digits`` decimals, as few as say it, at least
        two: 0.236408 -> '$0.2364', 0.12 -> '$0.12', 0.2604 CHF -> 'CHF 0.2604'."""
        amount = usd / self.usd_per_unit
        shown = next(d for d in range(2, digits + 1) if round(amount, d) == round(amount, digits))
        return self.money(usd, shown)

    def money_small(self, usd: float) -> str:
        """Per-request amounts under one unit keep three significant digits, at least two decimals and
        no trailing zeros beyond them: 0.0000163 -> '$0.0000163', 0.016 -> '$0.016', 0.35 -> '$0.35'
        (two decimals alone would show GPT-4o's $0.016 and Claude's $0.021 both as $0.02)."""
        if usd == 0:
            return self.money(0, 0)
        amount = usd / self.usd_per_unit
        if abs(amount) >= 1:
            return self.money(usd)
        exponent = Decimal(f"{abs(amount):.3g}").normalize().as_tuple().exponent
        return self.money(usd, max(2, -int(exponent)))

    def pct(self, share: float, beside: float | None = None) -> str:
        """A share as a whole percentage: 0.6098 -> '61 %' (the documents' style, in both languages),
        27.24 -> '2,724 %' grouped as other figures; a share above zero that would round to 0 is '< 1 %',
        so a lightly used GPU does not read as idle, and one below 1 that would round to 100 gets the
        decimals that tell it from 100 % (0.9996 -> '99.96 %'). ``beside``: a share it is compared with in
        the same sentence (an edge); where both would read the same, the share gets the decimals that tell
        them apart, so that 29.6 % below a 30 % edge does not read '30 %, below the 30 % edge'. At most two
        decimals: closer than that, the share is cut towards its own side of the edge (29.999 % reads
        '29.99 %'); shares within float noise of the edge read as the edge. Float noise is cut first, so
        that one share worked out two ways (0.045 and 0.045000000000000005) reads the same."""
        value = round(share * 100, 9)
        digits = 0
        if beside is not None and not math.isclose(share, beside, rel_tol=0, abs_tol=EDGE_NOISE):
            edge = beside * 100
            while digits < 2 and f"{value:.{digits}f}" == f"{edge:.{digits}f}":
                digits += 1
            if f"{value:.{digits}f}" == f"{edge:.{digits}f}":
                scale = 10**digits
                value = (math.floor if value < edge else math.ceil)(value * scale) / scale
        # Half to even, as Python formats: two shares that complement each other at exact halves (254 and
        # 146 of 400 scenarios) read 64 % and 36 %, adding up to 100 %; half up read 64 % and 37 %.
        whole = f"{value:,.{digits}f}"
        if share > 0 and whole == "0":
            return "< 1 %"
        # Nor does a share short of the whole read as all of it: 99.96 % busy is not always busy.
        if share < 1 and whole == "100" and beside != 1:
            return self.pct(share, 1.0)
        return f"{self._localize(whole)} %"

    def signed_pct(self, share: float) -> str:
        """A relative error: 0.084 -> '+8 %', -0.12 -> '-12 %', 0.003 -> '0 %'."""
        rounded = round(share * 100)
        return "0 %" if rounded == 0 else f"{self._localize(f'{rounded:+,d}')} %"

    def billions(self, value: float) -> str:
        """A parameter count in billions to the hundredth, no trailing zeros: 70.55, 46.7, 70, 1,200."""
        text = f"{value:,.2f}".rstrip("0").rstrip(".")
        return self._localize(text)

    def gb(self, value: float) -> str:
        """Gigabytes to one decimal below 100 and whole from 100, half up on the value as written: 70.55 GB
        (70.5499... as a float) reads 70.6 and 142.5 reads 143, as a reader rounds the figure beside it."""
        if float(value).is_integer():
            return self.number(int(value))
        step = Decimal("1") if abs(value) >= 100 else Decimal("0.1")
        rounded = Decimal(repr(float(value))).quantize(step, ROUND_HALF_UP)
        return (
            self.number(int(rounded))
            if rounded == rounded.to_integral_value()
            else self.number(float(rounded))
        )


DEFAULT_FORMAT = Format()
