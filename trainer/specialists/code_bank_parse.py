"""L2 templates: simple parsing and dates. Written for this recipe; expected values worked out by hand."""

from __future__ import annotations

from trainer.specialists.code_template import T

BANK = [
    T("parse_pairs", "parses 'key=value' pairs separated by semicolons into a dict",
      "splits on ';', skips empty parts and splits each part once on '='",
      [("parse_pairs", "text"), ("parse_settings", "line"), ("kv_to_dict", "s")],
      ["Write a Python function {f}({a}) that parses a string like 'a=1;b=2' into the dict {'a': '1', 'b': '2'}. Values stay strings; empty parts are skipped.",
       "Python: {f}({a}) -> dict. Input is 'key=value' items separated by ';' (a trailing ';' may appear).",
       "I need {f}({a}) to read a settings line such as 'mode=dark;size=12;' into a dictionary of strings.",
       "Can you write {f}({a})? Split on semicolons, then on the first '=' of each item."],
      """
      def {f}({a}: str) -> dict[str, str]:
          pairs = (part.split("=", 1) for part in {a}.split(";") if part)
          return {key: value for key, value in pairs}
      """,
      ["assert {f}('a=1;b=2') == {'a': '1', 'b': '2'}", "assert {f}('mode=dark;size=12;') == {'mode': 'dark', 'size': '12'}",
       "assert {f}('') == {}", "assert {f}('x=a=b') == {'x': 'a=b'}"]),
    T("sum_csv", "adds up the comma-separated numbers in a line",
      "splits on commas, skips blank parts and sums them as floats",
      [("sum_csv", "line"), ("add_numbers", "text"), ("total_of", "csv_line")],
      ["Write a Python function {f}({a}) that returns the sum of the comma-separated numbers in {a}, e.g. '1, 2,3.5' -> 6.5. An empty string gives 0.",
       "Python: {f}({a}) -> float, the total of numbers like '4,5, 6' (spaces allowed).",
       "I need {f}({a}) that adds up a line of comma-separated values.",
       "Can you write {f}({a})? Parse the numbers between commas and return their sum; ignore empty items."],
      """
      def {f}({a}: str) -> float:
          return sum(float(part) for part in {a}.split(",") if part.strip())
      """,
      ["assert {f}('1, 2,3.5') == 6.5", "assert {f}('4,5, 6') == 15", "assert {f}('') == 0", "assert {f}('-1,1') == 0"]),
    T("parse_duration", "converts a duration like '1h30m' into minutes",
      "reads the hour and minute numbers with regular expressions and adds 60 times the hours to the minutes",
      [("parse_duration", "text"), ("to_minutes", "duration"), ("duration_minutes", "s")],
      ["Write a Python function {f}({a}) that turns a duration string like '1h30m', '2h' or '45m' into a number of minutes.",
       "Python: {f}({a}) -> int. '1h15m' is 75, '2h' is 120, '45m' is 45.",
       "I need {f}({a}) for a timesheet: parse hours (h) and minutes (m) and return total minutes.",
       "Can you write {f}({a})? Both parts are optional, hours come first."],
      """
      import re

      def {f}({a}: str) -> int:
          hours = re.search(r"(\\d+)h", {a})
          minutes = re.search(r"(\\d+)m", {a})
          return (int(hours.group(1)) * 60 if hours else 0) + (int(minutes.group(1)) if minutes else 0)
      """,
      ["assert {f}('1h30m') == 90", "assert {f}('2h') == 120", "assert {f}('45m') == 45", "assert {f}('10h5m') == 605"]),
    T("extract_emails", "finds every email address in a text, in order",
      "collects the matches of a regular expression for name@domain.tld with re.findall",
      [("extract_emails", "text"), ("find_emails", "s"), ("emails_in", "message")],
      ["Write a Python function {f}({a}) that returns a list of all email addresses in {a}, in the order they appear.",
       "Python: {f}({a}) -> list[str]. 'write to bob@x.com or amy.l@site.org.' gives ['bob@x.com', 'amy.l@site.org'].",
       "I need {f}({a}) to pull the email addresses out of a block of text.",
       "Can you write {f}({a})? Use a regex; a full stop after an address is not part of it."],
      """
      import re

      def {f}({a}: str) -> list[str]:
          return re.findall(r"[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+", {a})
      """,
      ["assert {f}('write to bob@x.com or amy.l@site.org.') == ['bob@x.com', 'amy.l@site.org']", "assert {f}('no mail here') == []",
       "assert {f}('a+b@mail.co.uk') == ['a+b@mail.co.uk']"]),
    T("extract_ints", "finds all whole numbers in a text, negative ones included",
      "matches optional minus signs followed by digits and converts each match to int",
      [("extract_ints", "text"), ("numbers_in", "s"), ("find_numbers", "sentence")],
      ["Write a Python function {f}({a}) that returns all integers that appear in {a} as a list of ints, e.g. '3 apples and 12 pears' -> [3, 12].",
       "Python: {f}({a}) -> list[int]. Negative numbers like -4 count too.",
       "I need {f}({a}) which extracts every whole number from a sentence.",
       "Can you write {f}({a})? Use a regular expression to find the numbers and convert them."],
      """
      import re

      def {f}({a}: str) -> list[int]:
          return [int(n) for n in re.findall(r"-?\\d+", {a})]
      """,
      ["assert {f}('3 apples and 12 pears') == [3, 12]", "assert {f}('none') == []", "assert {f}('from -4 to 7') == [-4, 7]"]),
    T("clock_to_minutes", "converts an 'HH:MM' time into minutes since midnight",
      "splits on ':' and returns hours times 60 plus minutes",
      [("clock_to_minutes", "time"), ("minutes_since_midnight", "hhmm"), ("time_to_minutes", "s")],
      ["Write a Python function {f}({a}) that turns a 24-hour time string like '07:30' into minutes since midnight (450).",
       "Python: {f}({a}) -> int, e.g. '00:05' -> 5 and '23:59' -> 1439.",
       "I need {f}({a}) to convert 'HH:MM' strings to a number of minutes.",
       "Can you write {f}({a})? Input is always hours:minutes in 24-hour format."],
      """
      def {f}({a}: str) -> int:
          hours, minutes = map(int, {a}.split(":"))
          return hours * 60 + minutes
      """,
      ["assert {f}('07:30') == 450", "assert {f}('00:05') == 5", "assert {f}('23:59') == 1439"]),
    T("format_minutes", "formats a number of minutes as 'H:MM'",
      "divides by 60 and pads the remaining minutes to two digits",
      [("format_minutes", "minutes"), ("as_hours", "total"), ("minutes_to_clock", "m")],
      ["Write a Python function {f}({a}) that formats a number of minutes as hours and minutes 'H:MM', e.g. 75 -> '1:15'.",
       "Python: {f}({a}) -> str. 5 gives '0:05', 600 gives '10:00'.",
       "I need {f}({a}) to show a duration in minutes as H:MM with two-digit minutes.",
       "Can you write {f}({a})? Hours are not padded, minutes always have two digits."],
      """
      def {f}({a}: int) -> str:
          hours, rest = divmod({a}, 60)
          return f"{hours}:{rest:02d}"
      """,
      ["assert {f}(75) == '1:15'", "assert {f}(5) == '0:05'", "assert {f}(600) == '10:00'"]),
    T("query_string", "parses a URL query string into a dict",
      "uses urllib.parse.parse_qsl, which also decodes escapes, and turns the pairs into a dict",
      [("parse_query", "query"), ("query_to_dict", "qs"), ("read_params", "s")],
      ["Write a Python function {f}({a}) that parses a query string like 'a=1&b=two' into {'a': '1', 'b': 'two'}, decoding %20 and +.",
       "Python: {f}({a}) -> dict[str, str] for URL parameters (the part after '?').",
       "I need {f}({a}) to turn 'name=Ana+Lee&city=Porto' into a dictionary.",
       "Can you write {f}({a})? Use the standard library to split and decode the parameters."],
      """
      from urllib.parse import parse_qsl

      def {f}({a}: str) -> dict[str, str]:
          return dict(parse_qsl({a}))
      """,
      ["assert {f}('a=1&b=two') == {'a': '1', 'b': 'two'}", "assert {f}('name=Ana+Lee&city=Porto') == {'name': 'Ana Lee', 'city': 'Porto'}",
       "assert {f}('q=a%20b') == {'q': 'a b'}", "assert {f}('') == {}"]),
    T("valid_ipv4", "checks whether a string is a valid IPv4 address",
      "splits on dots and checks there are four all-digit parts between 0 and 255",
      [("is_valid_ipv4", "address"), ("valid_ip", "s"), ("check_ipv4", "text")],
      ["Write a Python function {f}({a}) that returns True if {a} is a valid IPv4 address: four dot-separated numbers from 0 to 255.",
       "Python: {f}({a}) -> bool. '192.168.0.1' is valid, '256.1.1.1' and '1.2.3' are not.",
       "I need {f}({a}) to validate IPv4 addresses typed into a form.",
       "Can you write {f}({a})? Only digits are allowed in each of the four parts."],
      """
      def {f}({a}: str) -> bool:
          parts = {a}.split(".")
          return len(parts) == 4 and all(p.isdigit() and int(p) <= 255 for p in parts)
      """,
      ["assert {f}('192.168.0.1') is True", "assert {f}('256.1.1.1') is False", "assert {f}('1.2.3') is False",
       "assert {f}('1.2.3.x') is False", "assert {f}('0.0.0.0') is True"]),
    T("weekday_name", "returns the English weekday name of an ISO date",
      "parses the date with date.fromisoformat and formats it with %A",
      [("weekday_name", "iso_date"), ("day_of_week", "date_str"), ("which_day", "day")],
      ["Write a Python function {f}({a}) that takes a date string 'YYYY-MM-DD' and returns its weekday name, like 'Monday'.",
       "Python: {f}({a}) -> str. '2024-01-01' gives 'Monday'.",
       "I need {f}({a}) to show which day of the week an ISO date falls on.",
       "Can you write {f}({a})? Use the datetime module."],
      """
      from datetime import date

      def {f}({a}: str) -> str:
          return date.fromisoformat({a}).strftime("%A")
      """,
      ["assert {f}('2024-01-01') == 'Monday'", "assert {f}('2024-02-29') == 'Thursday'", "assert {f}('2023-12-24') == 'Sunday'"]),
    T("days_between", "counts the days between two ISO dates, in either order",
      "subtracts the two parsed dates and returns the absolute number of days",
      [("days_between", "start", "end"), ("day_difference", "first", "second"), ("count_days", "a", "b")],
      ["Write a Python function {f}({a}, {b}) that returns the number of days between two 'YYYY-MM-DD' dates, always non-negative.",
       "Python: {f}({a}, {b}) -> int. ('2024-01-01', '2024-03-01') gives 60, and swapping them gives 60 too.",
       "I need {f}({a}, {b}) to count the days between two ISO dates.",
       "Can you write {f}({a}, {b})? The order of the dates should not matter."],
      """
      from datetime import date

      def {f}({a}: str, {b}: str) -> int:
          return abs((date.fromisoformat({b}) - date.fromisoformat({a})).days)
      """,
      ["assert {f}('2024-01-01', '2024-03-01') == 60", "assert {f}('2024-03-01', '2024-01-01') == 60",
       "assert {f}('2023-05-05', '2023-05-05') == 0", "assert {f}('2023-12-31', '2024-01-01') == 1"]),
    T("leap_year", "checks whether a year is a leap year in the Gregorian calendar",
      "applies the divisible-by-4, not-by-100 unless-by-400 rule",
      [("is_leap_year", "year"), ("leap", "y"), ("is_leap", "year")],
      ["Write a Python function {f}({a}) that returns True if {a} is a leap year in the Gregorian calendar.",
       "Python: {f}({a}) -> bool. 2000 and 2024 are leap years, 1900 and 2023 are not.",
       "I need {f}({a}) for a calendar widget: is this year a leap year?",
       "Can you write {f}({a}) without importing calendar? Use the 4/100/400 rule."],
      """
      def {f}({a}: int) -> bool:
          return {a} % 4 == 0 and ({a} % 100 != 0 or {a} % 400 == 0)
      """,
      ["assert {f}(2000) is True", "assert {f}(1900) is False", "assert {f}(2024) is True", "assert {f}(2023) is False"]),
    T("add_days", "adds a number of days to an ISO date",
      "adds a timedelta to the parsed date and formats the result with isoformat",
      [("add_days", "iso_date", "days"), ("shift_date", "day", "n"), ("date_after", "start", "count")],
      ["Write a Python function {f}({a}, {b}) that returns the 'YYYY-MM-DD' date that is {b} days after {a} ({b} may be negative).",
       "Python: {f}({a}, {b}) -> str. ('2024-02-28', 2) gives '2024-03-01'.",
       "I need {f}({a}, {b}) to compute a due date a given number of days after a start date.",
       "Can you write {f}({a}, {b})? Dates are ISO strings in and out."],
      """
      from datetime import date, timedelta

      def {f}({a}: str, {b}: int) -> str:
          return (date.fromisoformat({a}) + timedelta(days={b})).isoformat()
      """,
      ["assert {f}('2024-02-28', 2) == '2024-03-01'", "assert {f}('2023-12-31', 1) == '2024-01-01'", "assert {f}('2024-03-01', -1) == '2024-02-29'"]),
    T("age_on", "computes a person's age in whole years on a given date",
      "subtracts the years and takes one off when the birthday has not come yet that year",
      [("age_on", "birth_date", "today"), ("years_old", "born_on", "on"), ("compute_age", "birthday", "reference")],
      ["Write a Python function {f}({a}, {b}) that returns how many full years old someone born on {a} is on {b}; both are 'YYYY-MM-DD' strings.",
       "Python: {f}({a}, {b}) -> int. ('2000-05-20', '2024-05-19') is 23, ('2000-05-20', '2024-05-20') is 24.",
       "I need {f}({a}, {b}) to compute an age from a birth date and a reference date.",
       "Can you write {f}({a}, {b})? Count only complete years."],
      """
      from datetime import date

      def {f}({a}: str, {b}: str) -> int:
          born, then = date.fromisoformat({a}), date.fromisoformat({b})
          return then.year - born.year - ((then.month, then.day) < (born.month, born.day))
      """,
      ["assert {f}('2000-05-20', '2024-05-19') == 23", "assert {f}('2000-05-20', '2024-05-20') == 24", "assert {f}('1990-12-31', '1991-01-01') == 0"]),
    T("days_in_month", "returns how many days a month has in a given year",
      "asks calendar.monthrange for the month and takes its day count",
      [("days_in_month", "year", "month"), ("month_length", "y", "m"), ("month_days", "year", "month_number")],
      ["Write a Python function {f}({a}, {b}) that returns the number of days in month {b} (1-12) of year {a}.",
       "Python: {f}({a}, {b}) -> int. (2024, 2) gives 29, (2023, 2) gives 28, (2024, 4) gives 30.",
       "I need {f}({a}, {b}) for a calendar: how many days does this month have?",
       "Can you write {f}({a}, {b})? Leap years must be handled."],
      """
      import calendar

      def {f}({a}: int, {b}: int) -> int:
          return calendar.monthrange({a}, {b})[1]
      """,
      ["assert {f}(2024, 2) == 29", "assert {f}(2023, 2) == 28", "assert {f}(2024, 4) == 30", "assert {f}(2024, 12) == 31"]),
    T("parse_lines", "reads 'name: value' lines into a dict, skipping lines without a colon",
      "splits each line once on ':' and strips both sides",
      [("parse_lines", "text"), ("read_fields", "block"), ("header_dict", "raw")],
      ["Write a Python function {f}({a}) that parses lines like 'name: Ana' into a dict {'name': 'Ana'}; ignore lines without ':' and strip spaces.",
       "Python: {f}({a}) -> dict[str, str]. Input is several 'key: value' lines separated by newlines.",
       "I need {f}({a}) to read simple header lines into a dictionary.",
       "Can you write {f}({a})? Only the first colon of a line separates key and value."],
      """
      def {f}({a}: str) -> dict[str, str]:
          result = {}
          for line in {a}.splitlines():
              if ":" in line:
                  key, value = line.split(":", 1)
                  result[key.strip()] = value.strip()
          return result
      """,
      ["assert {f}('name: Ana\\ncity: Porto') == {'name': 'Ana', 'city': 'Porto'}", "assert {f}('no colon\\nx:1') == {'x': '1'}",
       "assert {f}('time: 10:30') == {'time': '10:30'}", "assert {f}('') == {}"]),
    T("roman_to_int", "converts a Roman numeral to an integer",
      "adds each symbol's value and subtracts it instead when a larger symbol follows",
      [("roman_to_int", "numeral"), ("from_roman", "s"), ("parse_roman", "text")],
      ["Write a Python function {f}({a}) that converts a Roman numeral string such as 'XIV' to the integer 14.",
       "Python: {f}({a}) -> int. 'MCMXCIV' gives 1994.",
       "I need {f}({a}) to read Roman numerals (I, V, X, L, C, D, M, with subtractive pairs like IV).",
       "Can you write {f}({a})? Uppercase input only."],
      """
      def {f}({a}: str) -> int:
          values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
          total = 0
          for ch, nxt in zip({a}, {a}[1:] + " "):
              value = values[ch]
              total += -value if nxt != " " and values[nxt] > value else value
          return total
      """,
      ["assert {f}('XIV') == 14", "assert {f}('MCMXCIV') == 1994", "assert {f}('III') == 3", "assert {f}('XL') == 40"]),
    T("int_to_roman", "converts a positive integer to a Roman numeral",
      "walks a table of values from largest to smallest, appending each symbol as many times as it fits",
      [("int_to_roman", "number"), ("to_roman", "n"), ("roman", "num")],
      ["Write a Python function {f}({a}) that converts an integer from 1 to 3999 into a Roman numeral string, e.g. 1994 -> 'MCMXCIV'.",
       "Python: {f}({a}) -> str. 4 gives 'IV', 9 gives 'IX'.",
       "I need {f}({a}) to print years in Roman numerals.",
       "Can you write {f}({a})? Use the subtractive forms (CM, XC, IV, ...)."],
      """
      def {f}({a}: int) -> str:
          table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                   (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
          out = ""
          for value, symbol in table:
              count, {a} = divmod({a}, value)
              out += symbol * count
          return out
      """,
      ["assert {f}(1994) == 'MCMXCIV'", "assert {f}(4) == 'IV'", "assert {f}(3999) == 'MMMCMXCIX'", "assert {f}(58) == 'LVIII'"]),
    T("balanced", "checks whether the brackets (), [] and {} in a string are balanced",
      "pushes opening brackets on a stack and pops a matching one for every closing bracket",
      [("is_balanced", "text"), ("balanced", "s"), ("brackets_ok", "expr")],
      ["Write a Python function {f}({a}) that returns True if the brackets (), [] and {} in {a} are balanced and correctly nested; other characters are ignored.",
       "Python: {f}({a}) -> bool. '([]{})' is balanced, '(]' and '((' are not.",
       "I need {f}({a}) to check the brackets of an expression before evaluating it.",
       "Can you write {f}({a})? Use a stack."],
      """
      def {f}({a}: str) -> bool:
          pairs = {")": "(", "]": "[", "}": "{"}
          stack = []
          for ch in {a}:
              if ch in "([{":
                  stack.append(ch)
              elif ch in pairs:
                  if not stack or stack.pop() != pairs[ch]:
                      return False
          return not stack
      """,
      ["assert {f}('([]{})') is True", "assert {f}('(]') is False", "assert {f}('((') is False", "assert {f}('a(b)c') is True",
       "assert {f}(')(') is False"]),
]
