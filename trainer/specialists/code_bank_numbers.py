"""L2 templates: numbers and small algorithms. Written for this recipe; expected values worked out by hand."""

from __future__ import annotations

from trainer.specialists.code_template import T

BANK = [
    T("is_prime", "checks whether an integer is a prime number",
      "tries the divisors from 2 up to the integer square root",
      [("is_prime", "n"), ("prime", "number"), ("check_prime", "value")],
      ["Write a Python function {f}({a}) that returns True if {a} is a prime number (numbers below 2 are not prime).",
       "Python: {f}({a}) -> bool. 2, 3 and 97 are prime; 1 and 91 are not.",
       "I need {f}({a}) to test whether an integer is prime.",
       "Can you write {f}({a})? Trial division up to the square root is enough."],
      """
      from math import isqrt

      def {f}({a}: int) -> bool:
          return {a} >= 2 and all({a} % d for d in range(2, isqrt({a}) + 1))
      """,
      ["assert {f}(2) is True", "assert {f}(97) is True", "assert {f}(1) is False", "assert {f}(91) is False", "assert {f}(-7) is False"]),
    T("factorial", "computes the factorial of a non-negative integer",
      "multiplies the numbers from 1 to n with math.prod, which gives 1 for 0",
      [("factorial", "n"), ("fact", "k"), ("product_up_to", "number")],
      ["Write a Python function {f}({a}) that returns {a}! (the factorial), with {f}(0) == 1.",
       "Python: {f}({a}) -> int. 5 gives 120.",
       "I need {f}({a}) to compute factorials without recursion.",
       "Can you write {f}({a})? Don't use math.factorial."],
      """
      from math import prod

      def {f}({a}: int) -> int:
          return prod(range(1, {a} + 1))
      """,
      ["assert {f}(5) == 120", "assert {f}(0) == 1", "assert {f}(1) == 1", "assert {f}(10) == 3628800"]),
    T("fibonacci", "returns the n-th Fibonacci number, counting F(0) = 0 and F(1) = 1",
      "steps a pair of numbers forward n times",
      [("fibonacci", "n"), ("fib", "index"), ("nth_fibonacci", "k")],
      ["Write a Python function {f}({a}) that returns the {a}-th Fibonacci number, where {f}(0) == 0 and {f}(1) == 1.",
       "Python: {f}({a}) -> int. {f}(10) is 55.",
       "I need {f}({a}) computed iteratively so it is fast for big inputs.",
       "Can you write {f}({a})? Use a loop, not recursion."],
      """
      def {f}({a}: int) -> int:
          current, following = 0, 1
          for _ in range({a}):
              current, following = following, current + following
          return current
      """,
      ["assert {f}(0) == 0", "assert {f}(1) == 1", "assert {f}(10) == 55", "assert {f}(50) == 12586269025"]),
    T("gcd", "computes the greatest common divisor of two integers",
      "applies Euclid's algorithm, replacing the pair with the divisor and the remainder",
      [("gcd", "a", "b"), ("greatest_common_divisor", "x", "y"), ("common_factor", "m", "n")],
      ["Write a Python function {f}({a}, {b}) that returns the greatest common divisor of {a} and {b} using Euclid's algorithm (don't use math.gcd).",
       "Python: {f}({a}, {b}) -> int. (12, 18) gives 6 and (7, 0) gives 7.",
       "I need {f}({a}, {b}) to reduce fractions.",
       "Can you write {f}({a}, {b})? Non-negative inputs."],
      """
      def {f}({a}: int, {b}: int) -> int:
          while {b}:
              {a}, {b} = {b}, {a} % {b}
          return {a}
      """,
      ["assert {f}(12, 18) == 6", "assert {f}(7, 0) == 7", "assert {f}(17, 5) == 1", "assert {f}(0, 9) == 9"]),
    T("digit_sum", "adds up the decimal digits of an integer",
      "turns the absolute value into a string and sums its digits",
      [("digit_sum", "n"), ("sum_digits", "number"), ("cross_sum", "value")],
      ["Write a Python function {f}({a}) that returns the sum of the digits of the integer {a}; the sign is ignored.",
       "Python: {f}({a}) -> int. 1234 gives 10, -56 gives 11.",
       "I need {f}({a}) for a checksum: add all digits of a number.",
       "Can you write {f}({a})? One line."],
      """
      def {f}({a}: int) -> int:
          return sum(int(d) for d in str(abs({a})))
      """,
      ["assert {f}(1234) == 10", "assert {f}(-56) == 11", "assert {f}(0) == 0"]),
    T("celsius", "converts a temperature from Celsius to Fahrenheit",
      "multiplies by 9/5 and adds 32",
      [("celsius_to_fahrenheit", "celsius"), ("c_to_f", "c"), ("to_fahrenheit", "degrees")],
      ["Write a Python function {f}({a}) that converts {a} degrees Celsius to Fahrenheit.",
       "Python: {f}({a}) -> float. 100 gives 212.0 and -40 gives -40.0.",
       "I need {f}({a}) for a weather app that shows Fahrenheit.",
       "Can you write {f}({a})? Use the usual formula."],
      """
      def {f}({a}: float) -> float:
          return {a} * 9 / 5 + 32
      """,
      ["assert {f}(100) == 212", "assert {f}(-40) == -40", "assert {f}(0) == 32", "assert {f}(37) == 98.6"]),
    T("perfect_square", "checks whether a number is a perfect square",
      "compares the square of math.isqrt with the number, rejecting negatives",
      [("is_perfect_square", "n"), ("is_square", "number"), ("square_number", "x")],
      ["Write a Python function {f}({a}) that returns True if the integer {a} is a perfect square (0 counts, negatives don't).",
       "Python: {f}({a}) -> bool. 16 yes, 15 no.",
       "I need {f}({a}) that avoids floating-point square roots.",
       "Can you write {f}({a})? Use math.isqrt."],
      """
      from math import isqrt

      def {f}({a}: int) -> bool:
          return {a} >= 0 and isqrt({a}) ** 2 == {a}
      """,
      ["assert {f}(16) is True", "assert {f}(15) is False", "assert {f}(0) is True", "assert {f}(-4) is False",
       "assert {f}(10**20) is True"]),
    T("clamp", "limits a value to a range from low to high",
      "takes the min with the high bound, then the max with the low one",
      [("clamp", "value", "low", "high"), ("bound", "x", "lo", "hi"), ("limit", "n", "minimum", "maximum")],
      ["Write a Python function {f}({a}, {b}, {c}) that returns {a} limited to the range [{b}, {c}].",
       "Python: {f}({a}, {b}, {c}). (15, 0, 10) gives 10; (-3, 0, 10) gives 0; (5, 0, 10) gives 5.",
       "I need {f}({a}, {b}, {c}) to keep a volume setting between its limits.",
       "Can you write {f}({a}, {b}, {c})? One line with min and max."],
      """
      def {f}({a}: float, {b}: float, {c}: float) -> float:
          return max({b}, min({a}, {c}))
      """,
      ["assert {f}(15, 0, 10) == 10", "assert {f}(-3, 0, 10) == 0", "assert {f}(5, 0, 10) == 5"]),
    T("percent_change", "computes the percent change from an old to a new value",
      "divides the difference by the old value, times 100, rounded to one decimal",
      [("percent_change", "old", "new"), ("pct_change", "before", "after"), ("growth", "start", "end")],
      ["Write a Python function {f}({a}, {b}) that returns the percentage change from {a} to {b}, rounded to 1 decimal place.",
       "Python: {f}({a}, {b}) -> float. (50, 75) gives 50.0 and (200, 150) gives -25.0.",
       "I need {f}({a}, {b}) to show how much a price went up or down in percent.",
       "Can you write {f}({a}, {b})? The old value is never zero."],
      """
      def {f}({a}: float, {b}: float) -> float:
          return round(({b} - {a}) / {a} * 100, 1)
      """,
      ["assert {f}(50, 75) == 50.0", "assert {f}(200, 150) == -25.0", "assert {f}(3, 4) == 33.3"]),
    T("to_binary", "writes a non-negative integer in binary without the '0b' prefix",
      "formats the number with the 'b' format code",
      [("to_binary", "n"), ("binary", "number"), ("bits_of", "value")],
      ["Write a Python function {f}({a}) that returns the binary representation of the non-negative integer {a} as a string without '0b'.",
       "Python: {f}({a}) -> str. 5 gives '101' and 0 gives '0'.",
       "I need {f}({a}) to show numbers in base 2.",
       "Can you write {f}({a})? No leading zeros."],
      """
      def {f}({a}: int) -> str:
          return format({a}, "b")
      """,
      ["assert {f}(5) == '101'", "assert {f}(0) == '0'", "assert {f}(255) == '11111111'"]),
    T("collatz_steps", "counts the Collatz steps an integer needs to reach 1",
      "halves even numbers and maps odd ones to 3n + 1, counting the steps until 1",
      [("collatz_steps", "n"), ("steps_to_one", "start"), ("collatz_length", "number")],
      ["Write a Python function {f}({a}) that returns how many steps of the Collatz rule (n/2 if even, 3n+1 if odd) it takes to go from {a} to 1.",
       "Python: {f}({a}) -> int. 1 takes 0 steps, 6 takes 8.",
       "I need {f}({a}) for a math puzzle about the 3n+1 sequence.",
       "Can you write {f}({a})? Inputs are positive integers."],
      """
      def {f}({a}: int) -> int:
          steps = 0
          while {a} != 1:
              {a} = {a} // 2 if {a} % 2 == 0 else 3 * {a} + 1
              steps += 1
          return steps
      """,
      ["assert {f}(1) == 0", "assert {f}(6) == 8", "assert {f}(27) == 111"]),
    T("primes_up_to", "lists the primes up to and including a limit",
      "runs a sieve of Eratosthenes over a list of flags",
      [("primes_up_to", "limit"), ("sieve", "n"), ("list_primes", "upper")],
      ["Write a Python function {f}({a}) that returns a list of all prime numbers less than or equal to {a}.",
       "Python: {f}({a}) -> list[int]. {f}(10) is [2, 3, 5, 7].",
       "I need {f}({a}) that uses the sieve of Eratosthenes.",
       "Can you write {f}({a})? For {a} < 2 return []."],
      """
      def {f}({a}: int) -> list[int]:
          if {a} < 2:
              return []
          flags = [True] * ({a} + 1)
          flags[0] = flags[1] = False
          for i in range(2, int({a} ** 0.5) + 1):
              if flags[i]:
                  flags[i * i :: i] = [False] * len(flags[i * i :: i])
          return [i for i, prime in enumerate(flags) if prime]
      """,
      ["assert {f}(10) == [2, 3, 5, 7]", "assert {f}(1) == []", "assert {f}(2) == [2]", "assert len({f}(100)) == 25"]),
    T("mean_ignoring_none", "averages a list of numbers, skipping None values",
      "keeps the values that are not None and divides their sum by their count",
      [("mean_ignoring_none", "values"), ("average", "readings"), ("safe_mean", "numbers")],
      ["Write a Python function {f}({a}) that returns the mean of the numbers in {a}, skipping None entries; return None if no numbers remain.",
       "Python: {f}([1, None, 3]) -> 2.0. Write {f}({a}).",
       "I need {f}({a}) for sensor readings where missing values are None.",
       "Can you write {f}({a})? An all-None or empty list gives None."],
      """
      def {f}({a}: list) -> float | None:
          present = [v for v in {a} if v is not None]
          return sum(present) / len(present) if present else None
      """,
      ["assert {f}([1, None, 3]) == 2.0", "assert {f}([None]) is None", "assert {f}([]) is None", "assert {f}([0, 0]) == 0"]),
    T("compound_interest", "computes a balance after yearly compound interest",
      "multiplies the principal by (1 + rate/100) ** years and rounds to cents",
      [("compound", "principal", "rate", "years"), ("grow_savings", "amount", "percent", "n"), ("future_value", "start", "rate_pct", "periods")],
      ["Write a Python function {f}({a}, {b}, {c}) that returns {a} grown at {b} percent per year, compounded yearly for {c} years, rounded to 2 decimals.",
       "Python: {f}({a}, {b}, {c}) -> float. (1000, 5, 2) gives 1102.5.",
       "I need {f}({a}, {b}, {c}) for a savings calculator.",
       "Can you write {f}({a}, {b}, {c})? The rate is a percentage like 5 for 5 %."],
      """
      def {f}({a}: float, {b}: float, {c}: int) -> float:
          return round({a} * (1 + {b} / 100) ** {c}, 2)
      """,
      ["assert {f}(1000, 5, 2) == 1102.5", "assert {f}(100, 0, 10) == 100", "assert {f}(200, 10, 1) == 220.0"]),
    T("median", "returns the median of a non-empty list of numbers",
      "sorts the numbers and takes the middle one, or the mean of the two middle ones",
      [("median", "numbers"), ("middle_value", "values"), ("find_median", "data")],
      ["Write a Python function {f}({a}) that returns the median of the non-empty list {a} (the mean of the two middle values when the length is even).",
       "Python: {f}({a}). [3, 1, 2] gives 2; [4, 1, 3, 2] gives 2.5.",
       "I need {f}({a}) without the statistics module.",
       "Can you write {f}({a})? Don't change the input list."],
      """
      def {f}({a}: list[float]) -> float:
          ordered = sorted({a})
          mid = len(ordered) // 2
          return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
      """,
      ["assert {f}([3, 1, 2]) == 2", "assert {f}([4, 1, 3, 2]) == 2.5", "assert {f}([7]) == 7"]),
    T("is_sorted", "checks whether a list is in non-decreasing order",
      "compares every item with the next one",
      [("is_sorted", "items"), ("in_order", "values"), ("sorted_ok", "seq")],
      ["Write a Python function {f}({a}) that returns True if {a} is sorted in non-decreasing order.",
       "Python: {f}({a}) -> bool. [1, 2, 2, 5] is sorted, [3, 1] is not; [] counts as sorted.",
       "I need {f}({a}) to check a list before doing a binary search on it.",
       "Can you write {f}({a}) without sorting a copy?"],
      """
      def {f}({a}: list) -> bool:
          return all(x <= y for x, y in zip({a}, {a}[1:]))
      """,
      ["assert {f}([1, 2, 2, 5]) is True", "assert {f}([3, 1]) is False", "assert {f}([]) is True"]),
    T("rle_decode", "expands a run-length encoded string like 'a3b1' back into the text",
      "matches each character with its count and repeats the character that many times",
      [("rle_decode", "encoded"), ("expand_runs", "s"), ("decompress", "data")],
      ["Write a Python function {f}({a}) that decodes a run-length encoded string: 'a3b1' -> 'aaab'. Counts may have several digits.",
       "Python: {f}({a}) -> str. 'x10' gives ten x characters.",
       "I need {f}({a}) to undo a simple compression of letter-count pairs.",
       "Can you write {f}({a})? Use a regular expression."],
      """
      import re

      def {f}({a}: str) -> str:
          return "".join(ch * int(count) for ch, count in re.findall(r"(\\D)(\\d+)", {a}))
      """,
      ["assert {f}('a3b1') == 'aaab'", "assert {f}('x10') == 'x' * 10", "assert {f}('') == ''"]),
    T("fizzbuzz", "builds the FizzBuzz list from 1 to n",
      "checks divisibility by 15, 3 and 5 for every number",
      [("fizzbuzz", "n"), ("fizz_buzz", "limit"), ("play_fizzbuzz", "count")],
      ["Write a Python function {f}({a}) that returns a list of strings for 1 to {a}: 'Fizz' for multiples of 3, 'Buzz' for 5, 'FizzBuzz' for both, otherwise the number.",
       "Python: {f}(5) -> ['1', '2', 'Fizz', '4', 'Buzz']. Write {f}({a}).",
       "I need {f}({a}) for a coding interview warm-up; return the list, don't print it.",
       "Can you write {f}({a})? Numbers become strings."],
      """
      def {f}({a}: int) -> list[str]:
          out = []
          for i in range(1, {a} + 1):
              out.append("FizzBuzz" if i % 15 == 0 else "Fizz" if i % 3 == 0 else "Buzz" if i % 5 == 0 else str(i))
          return out
      """,
      ["assert {f}(5) == ['1', '2', 'Fizz', '4', 'Buzz']", "assert {f}(15)[-1] == 'FizzBuzz'", "assert {f}(0) == []"]),
    T("rotate_matrix", "rotates a square matrix 90 degrees clockwise",
      "reverses the rows and transposes them with zip",
      [("rotate_matrix", "matrix"), ("rotate_clockwise", "grid"), ("turn_right", "square")],
      ["Write a Python function {f}({a}) that returns {a} rotated 90 degrees clockwise: [[1, 2], [3, 4]] -> [[3, 1], [4, 2]].",
       "Python: {f}({a}) -> list of lists, a new matrix turned a quarter turn to the right.",
       "I need {f}({a}) for a puzzle game that turns the board clockwise.",
       "Can you write {f}({a})? Rows are lists."],
      """
      def {f}({a}: list[list]) -> list[list]:
          return [list(row) for row in zip(*{a}[::-1])]
      """,
      ["assert {f}([[1, 2], [3, 4]]) == [[3, 1], [4, 2]]", "assert {f}([[1]]) == [[1]]",
       "assert {f}([[1, 2, 3], [4, 5, 6], [7, 8, 9]]) == [[7, 4, 1], [8, 5, 2], [9, 6, 3]]"]),
    T("pascal_row", "returns a given row of Pascal's triangle",
      "builds each row from the previous one by adding neighbouring numbers",
      [("pascal_row", "n"), ("triangle_row", "index"), ("binomial_row", "k")],
      ["Write a Python function {f}({a}) that returns row {a} of Pascal's triangle, counting the top row [1] as row 0.",
       "Python: {f}({a}) -> list[int]. {f}(3) is [1, 3, 3, 1].",
       "I need {f}({a}) to get binomial coefficients for a small probability exercise.",
       "Can you write {f}({a})? Build it row by row."],
      """
      def {f}({a}: int) -> list[int]:
          row = [1]
          for _ in range({a}):
              row = [x + y for x, y in zip([0] + row, row + [0])]
          return row
      """,
      ["assert {f}(0) == [1]", "assert {f}(3) == [1, 3, 3, 1]", "assert {f}(5) == [1, 5, 10, 10, 5, 1]"]),
]
