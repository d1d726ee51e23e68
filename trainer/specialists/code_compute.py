"""L2 compute templates: questions the slot answers by running the `python` tool, then stating the number.

Each template draws its values with a seeded RNG and returns the code the model
should send and the expected answer, the latter computed here by a different
route than the code (a closed formula, a manual loop, ordinals instead of
timedelta), so the sandbox's output and the expectation check each other.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from math import gcd, prod

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class Computed:
    code: str  # what the model sends to the python tool
    expect: str  # the exact value as text, as the final answer states it
    fill: dict[str, str]  # placeholders for the request, the answer and the summary


@dataclass(frozen=True)
class CompTemplate:
    name: str
    asks: tuple[str, ...]  # paraphrases with {placeholders}
    answer: str  # the final one-sentence answer; {v} is the value
    asked: str  # what was asked, for the summary: "how many days lie between {d1} and {d2}"
    make: Callable[[random.Random], Computed]


def _day(rng: random.Random, start: int = 2020, end: int = 2027) -> date:
    return date(start, 1, 1) + timedelta(days=rng.randrange((date(end, 1, 1) - date(start, 1, 1)).days))


def _days_between(rng: random.Random) -> Computed:
    d1 = _day(rng)
    d2 = d1 + timedelta(days=rng.randint(5, 900))
    code = f"from datetime import date\n(date({d2.year}, {d2.month}, {d2.day}) - date({d1.year}, {d1.month}, {d1.day})).days"
    return Computed(code, str(d2.toordinal() - d1.toordinal()), {"d1": d1.isoformat(), "d2": d2.isoformat()})


def _power(rng: random.Random) -> Computed:
    base, exp = rng.choice((2, 3, 5, 7, 11, 12)), rng.randint(20, 90)
    return Computed(f"{base} ** {exp}", str(prod([base] * exp)), {"b": str(base), "e": str(exp)})


def _sum_squares(rng: random.Random) -> Computed:
    n = rng.randint(20, 500)
    return Computed(f"sum(i * i for i in range(1, {n} + 1))", str(n * (n + 1) * (2 * n + 1) // 6), {"n": str(n)})


def _factorial(rng: random.Random) -> Computed:
    n = rng.randint(12, 40)
    value = 1
    for k in range(2, n + 1):
        value *= k
    return Computed(f"import math\nmath.factorial({n})", str(value), {"n": str(n)})


def _weekday(rng: random.Random) -> Computed:
    d = _day(rng, 1990, 2035)
    code = f"from datetime import date\ndate({d.year}, {d.month}, {d.day}).strftime('%A')"
    return Computed(code, WEEKDAYS[(d.toordinal() - 1) % 7], {"d": d.isoformat()})


def _count_primes(rng: random.Random) -> Computed:
    n = rng.randint(50, 5000)
    flags = bytearray([1]) * n
    flags[:2] = b"\0\0"
    for i in range(2, int(n**0.5) + 1):
        if flags[i]:
            flags[i * i :: i] = bytes(len(range(i * i, n, i)))
    code = f"sum(1 for k in range(2, {n}) if all(k % d for d in range(2, int(k ** 0.5) + 1)))"
    return Computed(code, str(sum(flags)), {"n": str(n)})


def _digit_sum_power(rng: random.Random) -> Computed:
    k = rng.randint(30, 400)
    expect = 0
    value = 2**k
    while value:
        value, digit = divmod(value, 10)
        expect += digit
    return Computed(f"sum(int(d) for d in str(2 ** {k}))", str(expect), {"k": str(k)})


def _weekday_count(rng: random.Random) -> Computed:
    year, wd = rng.randint(2020, 2032), rng.randrange(7)
    start, end = date(year, 1, 1).toordinal(), date(year + 1, 1, 1).toordinal()
    expect = sum(1 for o in range(start, end) if (o - 1) % 7 == wd)
    code = f"from datetime import date, timedelta\nstart = date({year}, 1, 1)\nsum(1 for i in range((date({year + 1}, 1, 1) - start).days) if (start + timedelta(days=i)).weekday() == {wd})"
    return Computed(code, str(expect), {"year": str(year), "day": WEEKDAYS[wd]})


def _seconds_in_weeks(rng: random.Random) -> Computed:
    n = rng.randint(2, 52)
    return Computed(f"{n} * 7 * 24 * 60 * 60", str(n * 604800), {"n": str(n)})


def _lcm(rng: random.Random) -> Computed:
    nums = sorted(rng.sample(range(2, 40), 3))
    value = 1
    for n in nums:
        value = value * n // gcd(value, n)
    return Computed(f"import math\nmath.lcm({', '.join(map(str, nums))})", str(value), {"nums": f"{nums[0]}, {nums[1]} and {nums[2]}"})


def _fibonacci(rng: random.Random) -> Computed:
    n = rng.randint(30, 120)
    fibs = [0, 1]
    while len(fibs) <= n:
        fibs.append(fibs[-1] + fibs[-2])
    code = f"a, b = 0, 1\nfor _ in range({n}):\n    a, b = b, a + b\na"
    return Computed(code, str(fibs[n]), {"n": str(n), "nth": _ordinal(n)})


def _date_after(rng: random.Random) -> Computed:
    d, n = _day(rng), rng.randint(10, 400)
    code = f"from datetime import date, timedelta\n(date({d.year}, {d.month}, {d.day}) + timedelta(days={n})).isoformat()"
    return Computed(code, date.fromordinal(d.toordinal() + n).isoformat(), {"d": d.isoformat(), "n": str(n)})


def _minutes_between(rng: random.Random) -> Computed:
    h1, m1 = rng.randint(6, 11), rng.choice((0, 5, 15, 20, 30, 40, 45, 55))
    h2, m2 = rng.randint(13, 22), rng.choice((0, 10, 15, 25, 30, 35, 50))
    code = f"({h2} * 60 + {m2}) - ({h1} * 60 + {m1})"
    return Computed(code, str((h2 - h1) * 60 + (m2 - m1)), {"t1": f"{h1:02d}:{m1:02d}", "t2": f"{h2:02d}:{m2:02d}"})


def _to_binary(rng: random.Random) -> Computed:
    n = rng.randint(100, 100000)
    bits, rest = "", n
    while rest:
        rest, bit = divmod(rest, 2)
        bits = str(bit) + bits
    return Computed(f"format({n}, 'b')", bits, {"n": str(n)})


def _count_letter(rng: random.Random) -> Computed:
    sentence = rng.choice(SENTENCES)
    letter = rng.choice(sorted({c for c in sentence.lower() if c.isalpha()}))
    code = f"{sentence.lower()!r}.count({letter!r})"
    return Computed(code, str(sum(1 for c in sentence.lower() if c == letter)), {"s": sentence, "l": letter})


def _divisor_count(rng: random.Random) -> Computed:
    n = rng.randint(100, 50000)
    code = f"sum(1 for d in range(1, {n} + 1) if {n} % d == 0)"
    count, d = 0, 1
    while d * d <= n:
        if n % d == 0:
            count += 1 if d * d == n else 2
        d += 1
    return Computed(code, str(count), {"n": str(n)})


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


SENTENCES = (
    "The early train to the coast was late again", "Seven green parrots sat on the fence", "Please bring the blue umbrella tomorrow",
    "Our neighbour bakes bread every Sunday morning", "A quiet river runs behind the old mill", "Remember to water the tomato plants",
)

COMPUTE_TEMPLATES: tuple[CompTemplate, ...] = (
    CompTemplate("c_days_between", ("How many days are there between {d1} and {d2}?", "Count the days from {d1} to {d2}.",
                                    "What's the number of days between {d1} and {d2}?"),
                 "There are {v} days between {d1} and {d2}.", "how many days lie between {d1} and {d2}", _days_between),
    CompTemplate("c_power", ("What is {b}**{e}?", "Compute {b} to the power of {e}.", "What's {b}^{e} exactly?"),
                 "{b} to the power of {e} is {v}.", "the exact value of {b}**{e}", _power),
    CompTemplate("c_sum_squares", ("What is the sum of the squares from 1 to {n}?", "Add up 1² + 2² + ... + {n}² for me.",
                                   "sum of the squares of the numbers 1 to {n}?"),
                 "The sum of the squares from 1 to {n} is {v}.", "the sum of the squares from 1 to {n}", _sum_squares),
    CompTemplate("c_factorial", ("What is {n} factorial?", "Compute {n}! exactly.", "How big is {n}!? I need the exact number."),
                 "{n}! is {v}.", "the exact value of {n}!", _factorial),
    CompTemplate("c_weekday", ("What day of the week is {d}?", "Which weekday does {d} fall on?", "Tell me the day of the week for {d}."),
                 "{d} is a {v}.", "which weekday {d} is", _weekday),
    CompTemplate("c_count_primes", ("How many prime numbers are there below {n}?", "Count the primes smaller than {n}.",
                                    "How many primes are less than {n}?"),
                 "There are {v} primes below {n}.", "how many primes are below {n}", _count_primes),
    CompTemplate("c_digit_sum_power", ("What is the sum of the digits of 2**{k}?", "Add up the digits of 2 to the power {k}.",
                                       "Digit sum of 2^{k}?"),
                 "The digits of 2**{k} add up to {v}.", "the digit sum of 2**{k}", _digit_sum_power),
    CompTemplate("c_weekday_count", ("How many {day}s are there in {year}?", "Count the {day}s in the year {year}.",
                                     "In {year}, how many days are {day}s?"),
                 "{year} has {v} {day}s.", "how many {day}s there are in {year}", _weekday_count),
    CompTemplate("c_seconds_weeks", ("How many seconds are there in {n} weeks?", "Convert {n} weeks to seconds.",
                                     "{n} weeks is how many seconds?"),
                 "{n} weeks are {v} seconds.", "how many seconds are in {n} weeks", _seconds_in_weeks),
    CompTemplate("c_lcm", ("What is the least common multiple of {nums}?", "Find the LCM of {nums}.",
                           "Smallest number divisible by each of {nums}?"),
                 "The least common multiple of {nums} is {v}.", "the least common multiple of {nums}", _lcm),
    CompTemplate("c_fibonacci", ("What is the {nth} Fibonacci number?", "Give me Fibonacci number {n} (F0 = 0, F1 = 1).",
                                 "Compute F({n}) in the Fibonacci sequence starting 0, 1."),
                 "The {nth} Fibonacci number is {v}.", "the {nth} Fibonacci number", _fibonacci),
    CompTemplate("c_date_after", ("What date is {n} days after {d}?", "Which date comes {n} days after {d}?",
                                  "If I start on {d}, what is the date {n} days later?"),
                 "{n} days after {d} is {v}.", "the date {n} days after {d}", _date_after),
    CompTemplate("c_minutes_between", ("How many minutes are there from {t1} to {t2}?", "Minutes between {t1} and {t2} on the same day?",
                                       "If I work from {t1} until {t2}, how many minutes is that?"),
                 "From {t1} to {t2} is {v} minutes.", "how many minutes lie between {t1} and {t2}", _minutes_between),
    CompTemplate("c_binary", ("What is {n} in binary?", "Convert {n} to base 2.", "Write {n} as a binary number."),
                 "{n} in binary is {v}.", "{n} written in binary", _to_binary),
    CompTemplate("c_count_letter", ("How many times does the letter '{l}' appear in \"{s}\", upper or lower case?",
                                    "Count the letter {l} (either case) in this sentence: {s}",
                                    "In \"{s}\", how many '{l}' are there (ignoring case)?"),
                 "The letter '{l}' appears {v} times.", "how often the letter '{l}' appears in \"{s}\"", _count_letter),
    CompTemplate("c_divisors", ("How many divisors does {n} have?", "Count the positive divisors of {n}.", "How many whole numbers divide {n} exactly?"),
                 "{n} has {v} divisors.", "how many divisors {n} has", _divisor_count),
)
