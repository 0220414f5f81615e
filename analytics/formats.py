"""Numbers and dates as each language writes them: the one place a figure becomes text.

Babel (the Unicode CLDR's data) knows each locale's digits, separators, percent sign and
month and weekday names: Dutch writes 2.434 hands, 0,97 lost a hand and 1 december 2026,
French 51 %. A figure is rounded first, a half up as people round (0.25 is 0.3, 12.5 %
is 13 %), from its exact value (2.675 is stored a little below, and stays 2.67), then
written in the locale's way, so that every language shows the same digits as English.
English is what the CLI and the dashboard show; the newsletter writes in its language.
Babel is imported at the first figure, not with the package: a command that prints none
does not pay for it.
"""

from __future__ import annotations

import copy
import functools
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale
    from babel.numbers import NumberPattern

__all__ = ["day_name", "decimal", "integer", "month", "percent", "rounded", "short_day"]


@functools.cache
def _locale(lang: str) -> Locale:
    from babel import Locale

    return Locale.parse(lang)


@functools.cache
def _pattern(lang: str, kind: str, digits: int) -> NumberPattern:
    """The locale's own decimal or percent pattern, with exactly `digits` decimals."""
    locale = _locale(lang)
    formats = locale.decimal_formats if kind == "decimal" else locale.percent_formats
    pattern: NumberPattern = copy.copy(formats[None])
    pattern.frac_prec = (digits, digits)
    return pattern


#: Enough digits for any float's exact value (1e308 has 309 before the point).
_EXACT = Context(prec=800)


def rounded(value: float | Decimal, digits: int) -> Decimal:
    """`value` to `digits` decimals, from its exact value, a half away from zero,
    without a sign on a zero (-0.001 is 0.00: nothing either way). The one rounding of
    every figure the words show. Infinity and NaN stay as they are."""
    exact = value if isinstance(value, Decimal) else Decimal(value)
    if not exact.is_finite():
        return exact
    near = exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP, context=_EXACT)
    return near.copy_abs() if near.is_zero() else near


def integer(n: int, lang: str = "en") -> str:
    """`2,434` in English, `2.434` in Dutch."""
    from babel.numbers import format_decimal

    return format_decimal(n, locale=_locale(lang))


def decimal(value: float, digits: int, lang: str = "en") -> str:
    """`0.97` in English, `0,97` in Dutch: `digits` decimals, always shown."""
    return str(_pattern(lang, "decimal", digits).apply(rounded(value, digits), _locale(lang)))


def percent(fraction: float, digits: int = 0, lang: str = "en") -> str:
    """`51%`, `51,5%`, `51 %` in French: a fraction as the locale writes a percentage."""
    hundredths = rounded(Decimal(fraction).scaleb(2), digits).scaleb(-2)
    return str(_pattern(lang, "percent", digits).apply(hundredths, _locale(lang)))


def month(first: date, lang: str = "en") -> str:
    """`November 2026`, `november 2026`: a month by its name, standing alone."""
    from babel.dates import format_date

    return format_date(first, "LLLL y", locale=_locale(lang))


def date_field(lang: str) -> str:
    """How a date picker writes a day in `lang`, in Streamlit's terms (`DD-MM-YYYY` in
    Dutch, `DD/MM/YYYY` in French): the order and separator of the language's short
    date (CLDR). English keeps `YYYY/MM/DD`, which no reader takes for another day."""
    if lang == "en":
        return "YYYY/MM/DD"
    from babel.dates import get_date_format

    pattern = get_date_format("short", locale=_locale(lang)).pattern
    order = [c for c in dict.fromkeys(pattern) if c in "dMy"]
    separator = next((c for c in pattern if c in "/-."), "/")
    fields = {"d": "DD", "M": "MM", "y": "YYYY"}
    return separator.join(fields[c] for c in order) if len(order) == 3 else "YYYY/MM/DD"


def long_day(when: datetime | date, lang: str = "en") -> str:
    """`1 September 2026`, `1 september 2026`: a day in a sentence, said whole."""
    from babel.dates import format_date

    return format_date(when, "d MMMM y", locale=_locale(lang))


def short_day(when: datetime | date, lang: str = "en") -> str:
    """`20 Nov`, `20 nov`: a day where a line is short (a game's name)."""
    from babel.dates import format_date

    return format_date(when, "d MMM", locale=_locale(lang))


def day_name(when: datetime | date, lang: str = "en") -> str:
    """`Fri 20 Nov`, `vr 20 nov`."""
    from babel.dates import format_date

    return format_date(when, "EEE d MMM", locale=_locale(lang))
