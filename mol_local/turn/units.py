"""A unit conversion the request settles: "Convert 5 miles to kilometres" becomes one python call.

Tried with `mol chat` on the embedded default: "Convert 5 miles to kilometres" got "10 miles (30 km) are
equivalent to 5 kilometres." A request that only asks to convert a number from one unit to another that we
know (length, mass, volume, temperature, speed) is written as a few lines of Python run in the conversation's
sandbox — the factor and the arithmetic in plain sight — and the answer is the value Python computed, in the
person's own words for the units. Anything else leaves the turn to the model.
"""

from __future__ import annotations

import re

# unit word -> (dimension, how many of the dimension's base unit one of it is); temperatures are converted apart
_UNITS: dict[str, tuple[str, float]] = {}
for _names, _dim, _factor in (
    ("km kms kilometre kilometres kilometer kilometers", "length", 1000.0),
    ("m metre metres meter meters", "length", 1.0),
    ("cm centimetre centimetres centimeter centimeters", "length", 0.01),
    ("mm millimetre millimetres millimeter millimeters", "length", 0.001),
    ("mi mile miles", "length", 1609.344),
    ("yd yard yards", "length", 0.9144),
    ("ft foot feet", "length", 0.3048),
    ("in inch inches", "length", 0.0254),
    ("kg kgs kilo kilos kilogram kilograms kilogramme kilogrammes", "mass", 1000.0),
    ("g gram grams gramme grammes", "mass", 1.0),
    ("lb lbs pound pounds", "mass", 453.59237),
    ("oz ounce ounces", "mass", 28.349523125),
    ("st stone stones", "mass", 6350.29318),
    ("l litre litres liter liters", "volume", 1.0),
    ("ml millilitre millilitres milliliter milliliters", "volume", 0.001),
    ("gal gallon gallons", "volume", 3.785411784),  # US gallons; "imperial gallon(s)" below
    ("mph", "speed", 0.44704),
    ("sec secs second seconds", "time", 1.0),
    ("min mins minute minutes", "time", 60.0),
    ("hr hrs hour hours", "time", 3600.0),
    ("day days", "time", 86400.0),
    ("week weeks", "time", 604800.0),
    ("fortnight fortnights", "time", 1209600.0),
    ("year years", "time", 365 * 86400.0),  # a calendar year of 365 days (said so in the answer)
    ("kph km/h kmh", "speed", 1 / 3.6),
    ("m/s", "speed", 1.0),
):
    for _name in _names.split():
        _UNITS[_name] = (_dim, _factor)
_UNITS.update({"imperial gallon": ("volume", 4.54609), "imperial gallons": ("volume", 4.54609),
               "uk gallon": ("volume", 4.54609), "uk gallons": ("volume", 4.54609),
               "us gallon": ("volume", 3.785411784), "us gallons": ("volume", 3.785411784),
               "kilometres per hour": ("speed", 1 / 3.6), "kilometers per hour": ("speed", 1 / 3.6),
               "miles per hour": ("speed", 0.44704)})
_TEMPS = {"c": "C", "°c": "C", "celsius": "C", "centigrade": "C", "degrees c": "C", "degrees celsius": "C",
          "f": "F", "°f": "F", "fahrenheit": "F", "degrees f": "F", "degrees fahrenheit": "F", "k": "K", "kelvin": "K"}
_TO_KELVIN = {"C": "{} + 273.15", "F": "({} - 32) * 5 / 9 + 273.15", "K": "{}"}
_FROM_KELVIN = {"C": "{} - 273.15", "F": "({} - 273.15) * 9 / 5 + 32", "K": "{}"}

_UNIT = "|".join(sorted({re.escape(u) for u in (*_UNITS, *_TEMPS)}, key=len, reverse=True))
_NUM = r"(?P<n>-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)"
_LEAD = (r"^(?:(?:hey|hi|ok|okay|quick question)[,:!]?\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?"
         r"(?:convert|change|turn|translate|what(?:'s| is| are)|whats|how (?:much|many|far|long|heavy|hot|cold) is)?\s*")
_END = r"(?:,?\s*(?:please|for me|thanks|thank you))?[\s?.!]*$"
_ASKS = (
    re.compile(rf"{_LEAD}{_NUM}\s*(?P<a>{_UNIT})\s+(?:to|into|in|as)\s+(?P<b>{_UNIT}){_END}", re.IGNORECASE),
    re.compile(rf"^(?:(?:so|ok|okay),?\s+)?how many\s+(?P<b>{_UNIT})\s+(?:(?:is|are)\s+(?:there\s+)?in|is|are|in|make|makes|equals?)"
               rf"\s+(?:{_NUM}|(?P<one>an?|one))\s*(?P<a>{_UNIT}){_END}", re.IGNORECASE),
)


_CONVERTS = re.compile(rf"\b(?:conver(?:t|ts|ting|sion)|changes?|turns?)\b.{{0,30}}?\b(?P<a>{_UNIT})\s+(?:to|into|in)\s+(?P<b>{_UNIT})\b", re.IGNORECASE)


def conversion_factor(request: str) -> tuple[str, str, float] | None:
    """(from unit, to unit, how many of the second one of the first is) for "a function that converts kilometres to
    miles": what code_tasks checks a written converter against; None for temperatures (not a factor) or anything else."""
    m = _CONVERTS.search(request)
    if m is None:
        return None
    a, b = m["a"].lower(), m["b"].lower()
    if a not in _UNITS or b not in _UNITS or _UNITS[a][0] != _UNITS[b][0] or _UNITS[a][1] == _UNITS[b][1]:
        return None
    return m["a"], m["b"], _UNITS[a][1] / _UNITS[b][1]


def unit_code(request: str) -> str | None:
    """The sandbox code answering a conversion, its first line the answer with '{}' for the value; None when the
    request is not only a conversion between two known units of one kind."""
    text = " ".join(request.strip().split())
    m = next((m for p in _ASKS if (m := p.match(text))), None)
    if m is None or len(text) > 160:
        return None
    number, said_from, said_to = (m["n"] or "1").replace(",", ""), m["a"], m["b"]
    a, b = said_from.lower(), said_to.lower()
    us = {"gal": "US gallons", "gallon": "US gallon", "gallons": "US gallons"}  # said so: a UK gallon is 4.55 litres
    one = m.groupdict().get("one")  # "How many minutes are in a week?"
    written, said_to = f"{m['n'] or str(one).capitalize()} {us.get(a, said_from)}", us.get(b, said_to)
    if a in _TEMPS and b in _TEMPS:
        if _TEMPS[a] == _TEMPS[b]:
            return None
        value = _FROM_KELVIN[_TEMPS[b]].format(f"({_TO_KELVIN[_TEMPS[a]].format(number)})")
        unit_out = f"°{_TEMPS[b]}" if _TEMPS[b] != "K" else "K"
    elif a in _UNITS and b in _UNITS and _UNITS[a][0] == _UNITS[b][0] and a != b:
        value = f"{number} * {_UNITS[a][1]!r} / {_UNITS[b][1]!r}"
        unit_out = said_to + (" (a year of 365 days)" if "year" in f"{a} {b}" else "")
    else:
        return None
    return (f"# answer: {written} {'has' if one else 'is'} {{}} {unit_out}.\n"
            f"_v = {value}\n"
            "_r = round(_v, 2) if abs(_v) >= 0.1 else float(f'{_v:.3g}')\n"
            "int(_r) if float(_r).is_integer() else _r")


_FEET_INCHES = re.compile(rf"{_LEAD}{_NUM}\s*(?P<a>{_UNIT})\s+(?:to|into|in|as)\s+(?:feet|foot|ft)\s+(?:and\s+)?(?:inches|inch|in){_END}", re.I)
_FROM_FEET = re.compile(rf"{_LEAD}(?P<ft>\d)\s*(?:feet|foot|ft|')\s*(?:(?P<inch>\d{{1,2}}(?:\.\d+)?)\s*(?:inches|inch|in|\"|'')?)?\s+"
                        rf"(?:to|into|in|as)\s+(?P<b>{_UNIT}){_END}", re.I)


def height_code(request: str) -> str | None:
    """A length said as feet and inches, or asked for in them: "Convert 180 cm to feet and inches" got "180 cm (3 feet)
    is equal to 60 inches." (`mol chat`); "What's 5 foot 10 in cm?". None for anything else."""
    text = " ".join(request.strip().split())
    if (m := _FEET_INCHES.match(text)) and _UNITS.get(m["a"].lower(), ("",))[0] == "length":
        inches = f"{m['n'].replace(',', '')} * {_UNITS[m['a'].lower()][1]!r} / 0.0254"
        return "\n".join([f"# answer: {m['n']} {m['a']} is {{}}.", f"_in = round({inches}, 1)",
                          "_ft, _rest = int(_in // 12), round(_in % 12, 1)",
                          "_ft, _rest = (_ft + 1, 0.0) if _rest >= 12 else (_ft, _rest)",
                          "f'{_ft} ft {int(_rest) if _rest.is_integer() else _rest} in'"])
    if (m := _FROM_FEET.match(text)) and _UNITS.get(m["b"].lower(), ("",))[0] == "length":
        said = f"{m['ft']} ft {m['inch']} in" if m["inch"] else f"{m['ft']} ft"
        return "\n".join([f"# answer: {said} is {{}} {m['b']}.",
                          f"_v = ({m['ft']} * 12 + {m['inch'] or 0}) * 0.0254 / {_UNITS[m['b'].lower()][1]!r}",
                          "_r = round(_v, 1)", "int(_r) if float(_r).is_integer() else _r"])
    return None


_PACE = {"walk": ("walking", 5.0), "hike": ("walking", 5.0), "run": ("running", 10.0), "jog": ("jogging", 8.0),
         "cycle": ("cycling", 15.0), "bike": ("cycling", 15.0), "ride": ("cycling", 15.0)}
_HOW_LONG = re.compile(rf"^(?:(?:so|ok|okay),?\s+)?how long (?:will|would|does|should|might) it take(?: me)? to (?P<how>{'|'.join(_PACE)})\s+"
                       rf"(?:a\s+)?{_NUM}\s*(?P<a>km|kms|kilometres?|kilometers?|miles?|mi|m|metres?|meters?)(?:\s+\w+){{0,2}}?{_END}", re.I)


def travel_code(request: str) -> str | None:
    """How long a distance takes on foot or by bike at a usual pace (walking 5 km/h, jogging 8, running 10, cycling
    15), the pace said in the answer: "How long will it take to walk 5 km?" got "you would multiply 5 km by 60
    minutes" (`mol chat`). Driving is left to the model: it depends on the road."""
    m = _HOW_LONG.match(" ".join(request.strip().split()))
    if m is None:
        return None
    doing, kmh = _PACE[m["how"].lower()]
    metres = f"{m['n'].replace(',', '')} * {_UNITS[m['a'].lower()][1]!r}"
    return "\n".join([f"# answer: At a usual {doing} pace of about {kmh:g} km/h, {m['n']} {m['a']} takes about {{}}.",
                      f"_min = round({metres} / 1000 / {kmh} * 60 / 5) * 5 or 5  # to the nearest 5 minutes",
                      "_h, _m = divmod(_min, 60)",
                      "' '.join(p for p in (f\"{_h} hour{'s' if _h != 1 else ''}\" if _h else '', f'{_m} minutes' if _m else '') if p)"])


_MONEY = (r"(?:euros?|eur|€|dollars?|usd|us dollars?|\$|pounds? sterling|gbp|£|quid|yen|jpy|¥|francs?|chf|rupees?|inr|"
          r"yuan|rmb|cny|pesos?|mxn|krona|kronor|sek|nok|dkk|zloty|pln|canadian dollars?|cad|australian dollars?|aud|rand|zar)")
_CURRENCY = re.compile(rf"{_LEAD}(?P<sym>[$£€¥])?\s*{_NUM}\s*(?P<a>{_MONEY})?\s+(?:to|into|in)\s+(?P<b>{_MONEY}|pounds?)"  # "pounds" after money is sterling
                       rf"(?:\s*,?\s*(?:at|with)\s+(?:a\s+)?(?:rate\s+(?:of\s+)?)?(?P<rate>\d+(?:\.\d+)?))?{_END}", re.IGNORECASE)


def currency_code(request: str) -> str | None:
    """The sandbox code for a currency conversion at the rate the request gives ("250 euros to dollars at 1.08");
    None without a rate (see `no_rate_answer`) or for anything else."""
    m = _CURRENCY.match(" ".join(request.split()))
    if m is None or not (m["a"] or m["sym"]) or not m["rate"]:
        return None
    written = f"{m['sym'] or ''}{m['n']}{' ' + m['a'] if m['a'] else ''}"
    return (f"# answer: {written} is {{}} {m['b']} at {m['rate']}.\n"
            f"_v = {m['n'].replace(',', '')} * {m['rate']}\n"
            "f'{_v:,.2f}'")


def no_rate_answer(request: str, answer: str) -> str | None:
    """The honest answer to a currency conversion with no rate given, when the model's answer gives a number the
    request did not: offline there are no exchange rates (L0 answered "250 euros in dollars is 184 euros.")."""
    m = _CURRENCY.match(" ".join(request.split()))
    if m is None or not (m["a"] or m["sym"]) or m["rate"]:
        return None
    said = set(re.findall(r"\d+(?:[.,]\d+)?", request))
    if not any(n not in said for n in re.findall(r"\d+(?:[.,]\d+)?", answer)):
        return None
    return (f"I can't convert {m['sym'] or ''}{m['n']}{' ' + m['a'] if m['a'] else ''} to {m['b']}: I work offline and have no exchange "
            f"rates. Tell me the rate (e.g. \"{request.strip().rstrip('?.!')} at 1.08\") and I'll work it out.")

