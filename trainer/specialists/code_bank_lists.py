"""L2 templates: lists and dicts. Written for this recipe; expected values worked out by hand."""

from __future__ import annotations

from trainer.specialists.code_template import T

BANK = [
    T("flatten_once", "flattens a list of lists by one level",
      "uses a nested comprehension over the sublists",
      [("flatten", "lists"), ("flatten_once", "nested"), ("join_lists", "groups")],
      ["Write a Python function {f}({a}) that flattens a list of lists one level: [[1, 2], [3]] -> [1, 2, 3].",
       "Python: {f}({a}) -> list, all items of the inner lists in order.",
       "I need {f}({a}) to merge a list of lists into one flat list.",
       "Can you write {f}({a})? Only one level of nesting needs to go."],
      """
      def {f}({a}: list[list]) -> list:
          return [item for sub in {a} for item in sub]
      """,
      ["assert {f}([[1, 2], [3]]) == [1, 2, 3]", "assert {f}([]) == []", "assert {f}([[], ['a'], []]) == ['a']", "assert {f}([[[1]], [2]]) == [[1], 2]"]),
    T("flatten_deep", "flattens arbitrarily nested lists into one flat list",
      "recurses into every element that is itself a list",
      [("deep_flatten", "items"), ("flatten_all", "nested"), ("unnest", "data")],
      ["Write a Python function {f}({a}) that flattens a list nested to any depth: [1, [2, [3, [4]]]] -> [1, 2, 3, 4].",
       "Python: {f}({a}) -> list. Lists inside lists inside lists all get flattened.",
       "I need {f}({a}) which fully flattens nested Python lists (only lists, not strings).",
       "Can you write {f}({a}) recursively?"],
      """
      def {f}({a}: list) -> list:
          out = []
          for item in {a}:
              if isinstance(item, list):
                  out.extend({f}(item))
              else:
                  out.append(item)
          return out
      """,
      ["assert {f}([1, [2, [3, [4]]]]) == [1, 2, 3, 4]", "assert {f}([]) == []", "assert {f}([['ab'], [[]], 5]) == ['ab', 5]"]),
    T("chunk", "splits a list into chunks of a given size, the last one possibly shorter",
      "slices the list in steps of the chunk size",
      [("chunk", "items", "size"), ("batches", "values", "n"), ("split_into", "data", "length")],
      ["Write a Python function {f}({a}, {b}) that splits {a} into consecutive lists of {b} items; the last chunk may be shorter.",
       "Python: {f}({a}, {b}). [1, 2, 3, 4, 5] with 2 gives [[1, 2], [3, 4], [5]].",
       "I need {f}({a}, {b}) to send records in batches of a fixed size.",
       "Can you write {f}({a}, {b})? Return a list of lists."],
      """
      def {f}({a}: list, {b}: int) -> list[list]:
          return [{a}[i : i + {b}] for i in range(0, len({a}), {b})]
      """,
      ["assert {f}([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]", "assert {f}([], 3) == []", "assert {f}([1, 2], 5) == [[1, 2]]"]),
    T("unique_in_order", "removes duplicates from a list while keeping the first occurrences in order",
      "builds a dict from the items, which keeps first occurrences in order, and lists its keys",
      [("unique", "items"), ("dedupe", "values"), ("remove_duplicates", "seq")],
      ["Write a Python function {f}({a}) that returns {a} without duplicates, keeping the order of first appearance.",
       "Python: {f}({a}) -> list. [3, 1, 3, 2, 1] gives [3, 1, 2].",
       "I need {f}({a}) to drop repeated entries from a list but not reorder it.",
       "Can you write {f}({a})? The items are hashable."],
      """
      def {f}({a}: list) -> list:
          return list(dict.fromkeys({a}))
      """,
      ["assert {f}([3, 1, 3, 2, 1]) == [3, 1, 2]", "assert {f}([]) == []", "assert {f}(['a', 'b', 'a']) == ['a', 'b']"]),
    T("second_largest", "returns the second largest distinct number in a list, or None",
      "sorts the distinct values and takes the one before the last",
      [("second_largest", "numbers"), ("runner_up", "scores"), ("second_max", "values")],
      ["Write a Python function {f}({a}) that returns the second largest distinct value in {a}, or None if there is none.",
       "Python: {f}({a}). [5, 1, 5, 3] gives 3; [7, 7] gives None.",
       "I need {f}({a}) to find the runner-up score in a list (duplicates of the top score don't count).",
       "Can you write {f}({a})? Return None for lists with fewer than two different numbers."],
      """
      def {f}({a}: list[float]) -> float | None:
          distinct = sorted(set({a}))
          return distinct[-2] if len(distinct) >= 2 else None
      """,
      ["assert {f}([5, 1, 5, 3]) == 3", "assert {f}([7, 7]) is None", "assert {f}([]) is None", "assert {f}([-1, -2]) == -2"]),
    T("moving_average", "computes the average of every window of k consecutive numbers",
      "averages each slice of length k as the window slides along the list",
      [("moving_average", "numbers", "k"), ("rolling_mean", "values", "window"), ("smooth", "data", "size")],
      ["Write a Python function {f}({a}, {b}) that returns the list of averages of each window of {b} consecutive numbers in {a}.",
       "Python: {f}({a}, {b}). [1, 2, 3, 4] with window 2 gives [1.5, 2.5, 3.5]; a list shorter than the window gives [].",
       "I need {f}({a}, {b}) to smooth a series of readings with a simple moving average.",
       "Can you write {f}({a}, {b})? Plain Python, no numpy."],
      """
      def {f}({a}: list[float], {b}: int) -> list[float]:
          return [sum({a}[i : i + {b}]) / {b} for i in range(len({a}) - {b} + 1)]
      """,
      ["assert {f}([1, 2, 3, 4], 2) == [1.5, 2.5, 3.5]", "assert {f}([5], 2) == []", "assert {f}([2, 4, 6], 3) == [4.0]"]),
    T("rotate_right", "rotates a list to the right by k positions",
      "takes k modulo the length and joins the last k items with the rest",
      [("rotate", "items", "k"), ("rotate_right", "values", "steps"), ("shift_list", "data", "n")],
      ["Write a Python function {f}({a}, {b}) that rotates {a} to the right by {b} places: [1, 2, 3, 4] by 1 -> [4, 1, 2, 3]. {b} may exceed the length.",
       "Python: {f}({a}, {b}) -> a new list rotated right; an empty list stays empty.",
       "I need {f}({a}, {b}) to rotate a playlist so the last songs come first.",
       "Can you write {f}({a}, {b})? Don't modify the input list."],
      """
      def {f}({a}: list, {b}: int) -> list:
          if not {a}:
              return []
          {b} %= len({a})
          return {a}[-{b}:] + {a}[:-{b}] if {b} else list({a})
      """,
      ["assert {f}([1, 2, 3, 4], 1) == [4, 1, 2, 3]", "assert {f}([1, 2, 3], 5) == [2, 3, 1]", "assert {f}([], 2) == []",
       "assert {f}([1, 2], 2) == [1, 2]"]),
    T("running_total", "returns the running totals of a list of numbers",
      "accumulates the sums with itertools.accumulate",
      [("running_total", "numbers"), ("cumulative_sum", "values"), ("prefix_sums", "amounts")],
      ["Write a Python function {f}({a}) that returns the running totals of {a}: [1, 2, 3] -> [1, 3, 6].",
       "Python: {f}({a}) -> list, each element the sum of all items up to it.",
       "I need {f}({a}) to show a balance after each transaction.",
       "Can you write {f}({a})? An empty list gives []."],
      """
      from itertools import accumulate

      def {f}({a}: list[float]) -> list[float]:
          return list(accumulate({a}))
      """,
      ["assert {f}([1, 2, 3]) == [1, 3, 6]", "assert {f}([]) == []", "assert {f}([5, -5, 2]) == [5, 0, 2]"]),
    T("count_evens", "counts the even integers in a list",
      "sums one for every number whose remainder modulo 2 is zero",
      [("count_evens", "numbers"), ("even_count", "values"), ("how_many_even", "nums")],
      ["Write a Python function {f}({a}) that returns how many even numbers are in {a}.",
       "Python: {f}({a}) -> int. [1, 2, 4, 7] gives 2.",
       "I need {f}({a}) that counts the even integers in a list (zero and negatives included).",
       "Can you write {f}({a})? One line is fine."],
      """
      def {f}({a}: list[int]) -> int:
          return sum(1 for n in {a} if n % 2 == 0)
      """,
      ["assert {f}([1, 2, 4, 7]) == 2", "assert {f}([]) == 0", "assert {f}([0, -2, -3]) == 2"]),
    T("value_range", "returns the difference between the largest and smallest number, 0 for an empty list",
      "subtracts min from max and returns 0 when the list is empty",
      [("value_range", "numbers"), ("spread", "values"), ("max_minus_min", "data")],
      ["Write a Python function {f}({a}) that returns the largest value of {a} minus the smallest; return 0 for an empty list.",
       "Python: {f}({a}). [3, 9, 1] gives 8.",
       "I need {f}({a}) to measure how spread out some temperatures are (max minus min).",
       "Can you write {f}({a})? Empty input returns 0."],
      """
      def {f}({a}: list[float]) -> float:
          return max({a}) - min({a}) if {a} else 0
      """,
      ["assert {f}([3, 9, 1]) == 8", "assert {f}([]) == 0", "assert {f}([4]) == 0", "assert {f}([-2, 2]) == 4"]),
    T("merge_sorted", "merges two sorted lists into one sorted list",
      "lets heapq.merge walk both sorted lists and collects the result",
      [("merge_sorted", "left", "right"), ("merge_lists", "a", "b"), ("combine_sorted", "first", "second")],
      ["Write a Python function {f}({a}, {b}) that merges two already sorted lists into one sorted list.",
       "Python: {f}({a}, {b}). [1, 4, 9] and [2, 3, 10] give [1, 2, 3, 4, 9, 10].",
       "I need {f}({a}, {b}) to combine two sorted lists of timestamps.",
       "Can you write {f}({a}, {b})? Keep duplicates."],
      """
      from heapq import merge

      def {f}({a}: list, {b}: list) -> list:
          return list(merge({a}, {b}))
      """,
      ["assert {f}([1, 4, 9], [2, 3, 10]) == [1, 2, 3, 4, 9, 10]", "assert {f}([], [1]) == [1]", "assert {f}([2, 2], [2]) == [2, 2, 2]"]),
    T("binary_search", "finds the index of a value in a sorted list with binary search, or -1",
      "uses bisect_left and checks that the found position really holds the value",
      [("binary_search", "items", "target"), ("find_index", "sorted_values", "value"), ("search_sorted", "data", "x")],
      ["Write a Python function {f}({a}, {b}) that returns the index of {b} in the sorted list {a} using binary search, or -1 if it is missing.",
       "Python: {f}({a}, {b}) -> int. ([1, 3, 5, 7], 5) gives 2; ([1, 3], 4) gives -1.",
       "I need {f}({a}, {b}) for fast lookups in a long sorted list.",
       "Can you write {f}({a}, {b})? The bisect module is fine."],
      """
      from bisect import bisect_left

      def {f}({a}: list, {b}) -> int:
          i = bisect_left({a}, {b})
          return i if i < len({a}) and {a}[i] == {b} else -1
      """,
      ["assert {f}([1, 3, 5, 7], 5) == 2", "assert {f}([1, 3], 4) == -1", "assert {f}([], 1) == -1", "assert {f}([2, 4, 6], 2) == 0"]),
    T("two_sum", "finds the indices of two numbers that add up to a target",
      "remembers each number's index in a dict and looks up the complement",
      [("two_sum", "numbers", "target"), ("pair_indices", "values", "total"), ("find_pair", "nums", "goal")],
      ["Write a Python function {f}({a}, {b}) that returns a tuple (i, j), i < j, of indices whose numbers add up to {b}, or None. Return the pair whose j is smallest.",
       "Python: {f}({a}, {b}). ([2, 7, 11, 15], 9) gives (0, 1); ([1, 2], 10) gives None.",
       "I need {f}({a}, {b}) to find two prices in a list that together match a budget exactly.",
       "Can you write {f}({a}, {b}) in one pass with a dictionary?"],
      """
      def {f}({a}: list[int], {b}: int) -> tuple[int, int] | None:
          seen = {}
          for j, n in enumerate({a}):
              if {b} - n in seen:
                  return seen[{b} - n], j
              seen.setdefault(n, j)
          return None
      """,
      ["assert {f}([2, 7, 11, 15], 9) == (0, 1)", "assert {f}([3, 2, 4], 6) == (1, 2)", "assert {f}([1, 2], 10) is None",
       "assert {f}([3, 3], 6) == (0, 1)"]),
    T("zip_dict", "builds a dict from a list of keys and a list of values",
      "zips the two lists and passes the pairs to dict",
      [("zip_dict", "keys", "values"), ("make_dict", "names", "numbers"), ("pair_up", "labels", "items")],
      ["Write a Python function {f}({a}, {b}) that returns a dict mapping each item of {a} to the item of {b} at the same position (stop at the shorter list).",
       "Python: {f}(['a', 'b'], [1, 2]) -> {'a': 1, 'b': 2}. Write {f}({a}, {b}).",
       "I need {f}({a}, {b}) to combine column names and a row of values into a dictionary.",
       "Can you write {f}({a}, {b})? One line."],
      """
      def {f}({a}: list, {b}: list) -> dict:
          return dict(zip({a}, {b}))
      """,
      ["assert {f}(['a', 'b'], [1, 2]) == {'a': 1, 'b': 2}", "assert {f}([], []) == {}", "assert {f}(['x', 'y'], [9]) == {'x': 9}"]),
    T("group_by_initial", "groups words by their first letter",
      "appends each word to a list under its lowercased first letter with setdefault",
      [("group_by_initial", "words"), ("by_first_letter", "names"), ("index_words", "items")],
      ["Write a Python function {f}({a}) that groups the words of {a} by their first letter (lowercase key), keeping the word order inside each group.",
       "Python: {f}(['apple', 'avocado', 'banana']) -> {'a': ['apple', 'avocado'], 'b': ['banana']}. Write {f}({a}).",
       "I need {f}({a}) to build an index of names by initial for a contact list.",
       "Can you write {f}({a})? Empty strings can be skipped."],
      """
      def {f}({a}: list[str]) -> dict[str, list[str]]:
          groups = {}
          for word in {a}:
              if word:
                  groups.setdefault(word[0].lower(), []).append(word)
          return groups
      """,
      ["assert {f}(['apple', 'avocado', 'banana']) == {'a': ['apple', 'avocado'], 'b': ['banana']}", "assert {f}([]) == {}",
       "assert {f}(['Bob', 'bea', '']) == {'b': ['Bob', 'bea']}"]),
    T("most_common", "returns the most frequent item of a list, the earliest on ties, or None",
      "counts the items with collections.Counter and takes the top entry",
      [("most_common", "items"), ("mode", "values"), ("most_frequent", "data")],
      ["Write a Python function {f}({a}) that returns the item that occurs most often in {a}; on a tie the one seen first; None for an empty list.",
       "Python: {f}({a}). ['b', 'a', 'b'] gives 'b'.",
       "I need {f}({a}) to find the most popular answer in a list of survey answers.",
       "Can you write {f}({a})? Use the standard library."],
      """
      from collections import Counter

      def {f}({a}: list):
          if not {a}:
              return None
          return Counter({a}).most_common(1)[0][0]
      """,
      ["assert {f}(['b', 'a', 'b']) == 'b'", "assert {f}([]) is None", "assert {f}([1, 2, 2, 1]) == 1", "assert {f}([3]) == 3"]),
    T("invert_dict", "swaps the keys and values of a dict",
      "builds a new dict with a comprehension over the items",
      [("invert", "mapping"), ("invert_dict", "d"), ("swap_keys_values", "table")],
      ["Write a Python function {f}({a}) that returns a new dict with the keys and values of {a} swapped (values are unique).",
       "Python: {f}({'a': 1, 'b': 2}) -> {1: 'a', 2: 'b'}. Write {f}({a}).",
       "I need {f}({a}) to turn a code-to-name table into a name-to-code table.",
       "Can you write {f}({a}) as a dict comprehension?"],
      """
      def {f}({a}: dict) -> dict:
          return {value: key for key, value in {a}.items()}
      """,
      ["assert {f}({'a': 1, 'b': 2}) == {1: 'a', 2: 'b'}", "assert {f}({}) == {}"]),
    T("merge_counts", "merges two dicts of counts, adding the values of shared keys",
      "copies the first dict and adds each value of the second with get(key, 0)",
      [("merge_counts", "first", "second"), ("add_tallies", "a", "b"), ("combine_totals", "left", "right")],
      ["Write a Python function {f}({a}, {b}) that merges two dicts of numbers: keys in both get their values added.",
       "Python: {f}({'x': 1, 'y': 2}, {'y': 3, 'z': 4}) -> {'x': 1, 'y': 5, 'z': 4}. Write {f}({a}, {b}).",
       "I need {f}({a}, {b}) to combine word counts from two documents.",
       "Can you write {f}({a}, {b})? Don't change the input dicts."],
      """
      def {f}({a}: dict, {b}: dict) -> dict:
          merged = dict({a})
          for key, value in {b}.items():
              merged[key] = merged.get(key, 0) + value
          return merged
      """,
      ["assert {f}({'x': 1, 'y': 2}, {'y': 3, 'z': 4}) == {'x': 1, 'y': 5, 'z': 4}", "assert {f}({}, {}) == {}",
       "d = {'a': 1}; {f}(d, {'a': 1}); assert d == {'a': 1}"]),
    T("filter_scores", "keeps the entries of a dict whose value is at least a minimum",
      "filters the items with a dict comprehension",
      [("filter_scores", "scores", "minimum"), ("passing", "grades", "threshold"), ("at_least", "values", "limit")],
      ["Write a Python function {f}({a}, {b}) that returns only the entries of the dict {a} whose value is at least {b}.",
       "Python: {f}({'ana': 8, 'bo': 5}, 6) -> {'ana': 8}. Write {f}({a}, {b}).",
       "I need {f}({a}, {b}) to keep the students who scored {b} or more.",
       "Can you write {f}({a}, {b})? Return a new dict."],
      """
      def {f}({a}: dict[str, float], {b}: float) -> dict[str, float]:
          return {name: value for name, value in {a}.items() if value >= {b}}
      """,
      ["assert {f}({'ana': 8, 'bo': 5}, 6) == {'ana': 8}", "assert {f}({'a': 6}, 6) == {'a': 6}", "assert {f}({}, 1) == {}"]),
    T("keys_by_value", "lists the keys of a dict ordered by value, largest first",
      "sorts the keys with key=dict.get in reverse, which keeps ties in their original order",
      [("keys_by_value", "counts"), ("rank_keys", "scores"), ("top_keys", "totals")],
      ["Write a Python function {f}({a}) that returns the keys of {a} sorted by their values from highest to lowest (ties keep their original order).",
       "Python: {f}({'a': 1, 'b': 3, 'c': 2}) -> ['b', 'c', 'a']. Write {f}({a}).",
       "I need {f}({a}) to make a leaderboard of names from a dict of points.",
       "Can you write {f}({a})? One line with sorted."],
      """
      def {f}({a}: dict) -> list:
          return sorted({a}, key={a}.get, reverse=True)
      """,
      ["assert {f}({'a': 1, 'b': 3, 'c': 2}) == ['b', 'c', 'a']", "assert {f}({}) == []", "assert {f}({'x': 2, 'y': 2}) == ['x', 'y']"]),
    T("deep_get", "reads a value from nested dicts by a dotted path",
      "walks the path key by key and returns None as soon as one is missing",
      [("deep_get", "data", "path"), ("get_path", "config", "dotted"), ("lookup", "tree", "key_path")],
      ["Write a Python function {f}({a}, {b}) that returns the value at the dotted path {b} in the nested dict {a}, e.g. 'db.host', or None if any key is missing.",
       "Python: {f}({'a': {'b': 1}}, 'a.b') -> 1 and {f}({'a': {}}, 'a.b') -> None. Write {f}({a}, {b}).",
       "I need {f}({a}, {b}) to read settings like 'server.port' from a loaded JSON config.",
       "Can you write {f}({a}, {b})? Values that are not dicts end the walk."],
      """
      def {f}({a}: dict, {b}: str):
          current = {a}
          for key in {b}.split("."):
              if not isinstance(current, dict) or key not in current:
                  return None
              current = current[key]
          return current
      """,
      ["assert {f}({'a': {'b': 1}}, 'a.b') == 1", "assert {f}({'a': {}}, 'a.b') is None", "assert {f}({'a': 5}, 'a.b') is None",
       "assert {f}({'db': {'host': 'x'}}, 'db') == {'host': 'x'}"]),
    T("word_counts", "counts how often each word occurs in a text, case-insensitively",
      "lowercases the text, splits it on whitespace and counts with collections.Counter",
      [("word_counts", "text"), ("count_words", "document"), ("word_frequency", "s")],
      ["Write a Python function {f}({a}) that returns a dict mapping each lowercase word of {a} to how often it occurs (words are split on whitespace).",
       "Python: {f}('the cat the Dog') -> {'the': 2, 'cat': 1, 'dog': 1}. Write {f}({a}).",
       "I need {f}({a}) to count word frequencies in a paragraph, ignoring case.",
       "Can you write {f}({a})? No punctuation handling needed."],
      """
      from collections import Counter

      def {f}({a}: str) -> dict[str, int]:
          return dict(Counter({a}.lower().split()))
      """,
      ["assert {f}('the cat the Dog') == {'the': 2, 'cat': 1, 'dog': 1}", "assert {f}('') == {}", "assert {f}('A a A') == {'a': 3}"]),
    T("sum_field", "adds up one field over a list of dicts, treating a missing field as 0",
      "sums row.get(key, 0) over the rows",
      [("sum_field", "rows", "key"), ("total_by", "records", "field"), ("column_total", "items", "name")],
      ["Write a Python function {f}({a}, {b}) that returns the sum of the value under {b} in every dict of the list {a}; dicts without that key count as 0.",
       "Python: {f}([{'price': 2}, {'price': 3}, {}], 'price') -> 5. Write {f}({a}, {b}).",
       "I need {f}({a}, {b}) to total one column of rows loaded from a CSV as dicts.",
       "Can you write {f}({a}, {b})? One line."],
      """
      def {f}({a}: list[dict], {b}: str) -> float:
          return sum(row.get({b}, 0) for row in {a})
      """,
      ["assert {f}([{'price': 2}, {'price': 3}, {}], 'price') == 5", "assert {f}([], 'x') == 0", "assert {f}([{'n': 1.5}, {'n': 1.5}], 'n') == 3.0"]),
    T("sort_people", "sorts (name, age) pairs by age, then by name, and returns the names",
      "sorts the pairs with a key of (age, name) and keeps the names",
      [("names_by_age", "people"), ("sort_by_age", "pairs"), ("youngest_first", "members")],
      ["Write a Python function {f}({a}) that takes a list of (name, age) tuples and returns the names sorted by age, youngest first; equal ages sort by name.",
       "Python: {f}([('Ana', 30), ('Bo', 25), ('Al', 30)]) -> ['Bo', 'Al', 'Ana']. Write {f}({a}).",
       "I need {f}({a}) to list team members from youngest to oldest (alphabetical on equal ages).",
       "Can you write {f}({a})? Return a list of names."],
      """
      def {f}({a}: list[tuple[str, int]]) -> list[str]:
          return [name for name, age in sorted({a}, key=lambda p: (p[1], p[0]))]
      """,
      ["assert {f}([('Ana', 30), ('Bo', 25), ('Al', 30)]) == ['Bo', 'Al', 'Ana']", "assert {f}([]) == []"]),
    T("transpose", "transposes a matrix given as a list of rows",
      "zips the rows together and turns each column tuple into a list",
      [("transpose", "matrix"), ("flip_rows_columns", "grid"), ("columns", "rows")],
      ["Write a Python function {f}({a}) that transposes {a}, a list of equal-length rows: [[1, 2, 3], [4, 5, 6]] -> [[1, 4], [2, 5], [3, 6]].",
       "Python: {f}({a}) -> list of lists, rows become columns.",
       "I need {f}({a}) to turn a table of rows into a table of columns.",
       "Can you write {f}({a}) with zip?"],
      """
      def {f}({a}: list[list]) -> list[list]:
          return [list(column) for column in zip(*{a})]
      """,
      ["assert {f}([[1, 2, 3], [4, 5, 6]]) == [[1, 4], [2, 5], [3, 6]]", "assert {f}([]) == []", "assert {f}([[7]]) == [[7]]"]),
    T("diagonal_sum", "adds up the main diagonal of a square matrix",
      "sums the element at position i of row i",
      [("diagonal_sum", "matrix"), ("trace", "grid"), ("sum_diagonal", "square")],
      ["Write a Python function {f}({a}) that returns the sum of the main diagonal (top-left to bottom-right) of the square matrix {a}.",
       "Python: {f}([[1, 2], [3, 4]]) -> 5. Write {f}({a}).",
       "I need {f}({a}) for the trace of a square list-of-lists matrix.",
       "Can you write {f}({a})? An empty matrix gives 0."],
      """
      def {f}({a}: list[list[float]]) -> float:
          return sum(row[i] for i, row in enumerate({a}))
      """,
      ["assert {f}([[1, 2], [3, 4]]) == 5", "assert {f}([]) == 0", "assert {f}([[1, 0, 0], [0, 2, 0], [9, 9, 3]]) == 6"]),
]
