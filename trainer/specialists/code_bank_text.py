"""L2 templates: string handling. Written for this recipe; tests carry hand-written expected values."""

from __future__ import annotations

from trainer.specialists.code_template import T

BANK = [
    T("palindrome", "checks whether a string reads the same backwards, ignoring case",
      "lowercases the text and compares it with its reverse",
      [("is_palindrome", "s"), ("palindrome", "word"), ("reads_both_ways", "text")],
      ["Write a Python function {f}({a}) that returns True if {a} reads the same forwards and backwards, ignoring case.",
       "I need {f}({a}): True when the word is a palindrome, where upper and lower case count as equal.",
       "python function {f}({a}) -> bool: is it a palindrome? case-insensitive please",
       "Could you write {f}({a}) in Python? It should tell me whether a string is a palindrome without caring about capital letters."],
      """
      def {f}({a}: str) -> bool:
          {a} = {a}.lower()
          return {a} == {a}[::-1]
      """,
      ["assert {f}('Level') is True", "assert {f}('abc') is False", "assert {f}('') is True", "assert {f}('Noon') is True"]),
    # the same task with other requirements: the answer must follow what was asked, not the nearest memorised one
    T("palindrome_spaces", "checks whether a string is a palindrome, ignoring case and spaces",
      "removes the spaces, lowercases what is left and compares it with its reverse",
      [("is_palindrome", "s"), ("is_phrase_palindrome", "phrase"), ("palindrome", "text")],
      ["Write a Python function {f}({a}) that ignores case and spaces and tells me if {a} is a palindrome.",
       "I need {f}({a}) -> bool: is the phrase a palindrome when spaces and capitals don't count?",
       "python: {f}({a}), True if {a} reads the same both ways ignoring spaces and upper/lower case",
       "Can you write {f}({a})? 'Never odd or even' should count as a palindrome, so skip spaces and ignore case."],
      """
      def {f}({a}: str) -> bool:
          letters = {a}.replace(" ", "").lower()
          return letters == letters[::-1]
      """,
      ["assert {f}('Never odd or even') is True", "assert {f}('Step on no pets') is True", "assert {f}('ab a') is True",
       "assert {f}('hello there') is False", "assert {f}('') is True"]),
    T("palindrome_letters", "checks whether a string is a palindrome counting only letters and digits, ignoring case",
      "keeps the letters and digits, lowercased, and compares them with their reverse",
      [("is_palindrome", "s"), ("is_sentence_palindrome", "sentence"), ("palindrome", "text")],
      ["Write {f}({a}) in Python: is {a} a palindrome if you ignore punctuation, spaces and case?",
       "I want a function {f}({a}) that says whether a sentence is a palindrome, looking only at letters and digits, case-insensitive.",
       "python function {f}({a}) -> bool: palindrome check that skips punctuation and spaces and ignores capitals",
       "Could you write {f}({a})? 'A man, a plan, a canal: Panama' must come out True, so only letters and numbers count."],
      """
      def {f}({a}: str) -> bool:
          kept = [ch.lower() for ch in {a} if ch.isalnum()]
          return kept == kept[::-1]
      """,
      ["assert {f}('A man, a plan, a canal: Panama') is True", "assert {f}('No lemon, no melon!') is True",
       "assert {f}('Was it a car or a cat I saw?') is True", "assert {f}('Hello, world') is False", "assert {f}('?!') is True"]),
    T("palindrome_exact", "checks whether a string is exactly the same reversed, case and spaces included",
      "compares the string with its reverse as it is",
      [("is_palindrome", "s"), ("is_mirror", "text"), ("same_reversed", "word")],
      ["Write a Python function {f}({a}) that returns True only if {a} is exactly the same backwards, case-sensitive.",
       "I need {f}({a}): a strict palindrome check where capital letters and spaces count.",
       "python: {f}({a}) -> bool, is the string identical to its reverse? Don't change case.",
       "Can you write {f}({a})? 'Level' is NOT a palindrome for me (capital L), but 'level' is."],
      """
      def {f}({a}: str) -> bool:
          return {a} == {a}[::-1]
      """,
      ["assert {f}('level') is True", "assert {f}('Level') is False", "assert {f}('a b a') is True",
       "assert {f}('ab a') is False", "assert {f}('') is True"]),
    T("count_vowels", "counts the vowels in a string, in either case",
      "sums one for every character found in 'aeiou' after lowercasing",
      [("count_vowels", "text"), ("vowel_count", "s"), ("num_vowels", "word")],
      ["Write a Python function {f}({a}) that returns how many vowels (a, e, i, o, u, upper or lower case) are in {a}.",
       "Give me {f}({a}) in Python: count the vowels in a string, case-insensitive.",
       "I want a function {f}({a}) returning the number of vowels aeiou in the text, counting capitals too.",
       "python: {f}({a}) -> int, number of vowels in {a}"],
      """
      def {f}({a}: str) -> int:
          return sum(1 for ch in {a}.lower() if ch in "aeiou")
      """,
      ["assert {f}('banana') == 3", "assert {f}('SKY') == 0", "assert {f}('Ocean') == 3", "assert {f}('') == 0"]),
    T("reverse_words", "reverses the order of the words in a sentence",
      "splits the sentence on whitespace, reverses the list and joins it with single spaces",
      [("reverse_words", "sentence"), ("flip_words", "text"), ("words_backwards", "line")],
      ["Write a Python function {f}({a}) that returns the words of {a} in reverse order, separated by single spaces.",
       "Python please: {f}({a}) turns 'one two three' into 'three two one'.",
       "I need {f}({a}) which reverses the word order of a sentence (not the letters).",
       "Can you write {f}({a})? It should give back the same words, last word first, joined by one space."],
      """
      def {f}({a}: str) -> str:
          return " ".join(reversed({a}.split()))
      """,
      ["assert {f}('one two three') == 'three two one'", "assert {f}('hello') == 'hello'",
       "assert {f}('  a   b ') == 'b a'", "assert {f}('') == ''"]),
    T("capitalize_words", "makes the first letter of every word uppercase",
      "uppercases the first character of each word and keeps the rest as it was",
      [("capitalize_words", "text"), ("title_words", "s"), ("cap_each", "sentence")],
      ["Write a Python function {f}({a}) that uppercases the first letter of every word in {a} and leaves the other letters alone.",
       "Python: {f}({a}) should turn 'hello big world' into 'Hello Big World'. Words are separated by spaces; keep the rest of each word unchanged.",
       "I need a helper {f}({a}) that capitalizes each word's first letter without lowercasing the others.",
       "Please write {f}({a}) which returns the sentence with every word starting with a capital letter (single spaces between words)."],
      """
      def {f}({a}: str) -> str:
          return " ".join(w[:1].upper() + w[1:] for w in {a}.split())
      """,
      ["assert {f}('hello big world') == 'Hello Big World'", "assert {f}('a bC') == 'A BC'", "assert {f}('') == ''"]),
    T("remove_whitespace", "removes every whitespace character from a string",
      "splits on any whitespace and joins the pieces with nothing between them",
      [("remove_whitespace", "s"), ("strip_spaces", "text"), ("squash", "value")],
      ["Write a Python function {f}({a}) that returns {a} with all spaces, tabs and newlines removed.",
       "I need {f}({a}) in Python to delete every whitespace character from a string.",
       "python helper {f}({a}): drop all whitespace, e.g. ' a b\\tc ' -> 'abc'",
       "Could you write {f}({a})? It takes a string and gives it back without any whitespace at all."],
      """
      def {f}({a}: str) -> str:
          return "".join({a}.split())
      """,
      ["assert {f}(' a b\\tc ') == 'abc'", "assert {f}('no-spaces') == 'no-spaces'", "assert {f}('x\\ny z') == 'xyz'", "assert {f}('   ') == ''"]),
    T("char_frequency", "counts how often each character appears in a string",
      "counts the characters with collections.Counter and returns a plain dict",
      [("char_frequency", "text"), ("letter_counts", "s"), ("count_chars", "word")],
      ["Write a Python function {f}({a}) that returns a dict mapping each character of {a} to how many times it occurs.",
       "Python: {f}({a}) -> dict of character counts, e.g. 'aab' gives {'a': 2, 'b': 1}.",
       "I need {f}({a}) which counts every character in a string and returns the counts as a dictionary.",
       "Can you write {f}({a})? Return a dictionary of how often each character appears."],
      """
      from collections import Counter

      def {f}({a}: str) -> dict:
          return dict(Counter({a}))
      """,
      ["assert {f}('aab') == {'a': 2, 'b': 1}", "assert {f}('') == {}", "assert {f}('a a') == {'a': 2, ' ': 1}"]),
    T("anagram", "checks whether two strings are anagrams, ignoring spaces and case",
      "compares the sorted lowercase letters of both strings with the spaces removed",
      [("is_anagram", "first", "second"), ("anagrams", "a", "b"), ("same_letters", "word1", "word2")],
      ["Write a Python function {f}({a}, {b}) that returns True if {a} and {b} are anagrams of each other, ignoring spaces and capital letters.",
       "Python: {f}({a}, {b}) -> bool. Two phrases are anagrams if they use the same letters; spaces and case do not matter.",
       "I need {f}({a}, {b}) to tell whether one word can be rearranged into the other (case-insensitive, spaces ignored).",
       "Could you write {f}({a}, {b})? It should check for anagrams like 'Listen' and 'Silent'."],
      """
      def {f}({a}: str, {b}: str) -> bool:
          def letters(s: str) -> list[str]:
              return sorted(s.replace(" ", "").lower())
          return letters({a}) == letters({b})
      """,
      ["assert {f}('Listen', 'Silent') is True", "assert {f}('dormitory', 'dirty room') is True",
       "assert {f}('abc', 'abd') is False", "assert {f}('aab', 'ab') is False"]),
    T("truncate", "cuts text to a maximum length, ending with '...' when cut",
      "keeps short text and otherwise joins the first limit - 3 characters with '...'",
      [("truncate", "text", "limit"), ("shorten", "s", "max_len"), ("clip_text", "message", "width")],
      ["Write a Python function {f}({a}, {b}) that returns {a} unchanged if it has at most {b} characters; otherwise cut it so the result is exactly {b} characters long and ends with '...'.",
       "Python: {f}({a}, {b}). Long strings get cut to {b} characters total, the last three being '...'; short ones stay as they are.",
       "I need {f}({a}, {b}) for a UI label: if the text is longer than {b}, keep the start and put '...' at the end so the whole thing is {b} long.",
       "Can you write {f}({a}, {b})? e.g. ('hello world', 8) -> 'hello...', ('hi', 5) -> 'hi'."],
      """
      def {f}({a}: str, {b}: int) -> str:
          if len({a}) <= {b}:
              return {a}
          return {a}[: {b} - 3] + "..."
      """,
      ["assert {f}('hello world', 8) == 'hello...'", "assert {f}('hi', 5) == 'hi'", "assert {f}('abcdef', 6) == 'abcdef'",
       "assert {f}('abcdefg', 6) == 'abc...'"]),
    T("longest_word", "returns the longest word of a sentence, the first one on ties",
      "takes max over the words with key=len, which keeps the first of equally long words",
      [("longest_word", "sentence"), ("find_longest", "text"), ("biggest_word", "line")],
      ["Write a Python function {f}({a}) that returns the longest word in {a}. If several are equally long, return the first; return '' for an empty string.",
       "Python: {f}({a}) -> str, the longest word (first one wins ties, '' if there are no words).",
       "I need {f}({a}) which finds the longest word in a sentence split on spaces.",
       "Could you write {f}({a})? Give back the word with the most letters; on a tie the earliest one."],
      """
      def {f}({a}: str) -> str:
          return max({a}.split(), key=len, default="")
      """,
      ["assert {f}('the quick brown fox') == 'quick'", "assert {f}('a bb cc') == 'bb'", "assert {f}('') == ''",
       "assert {f}('one') == 'one'"]),
    T("acronym", "builds an uppercase acronym from the first letters of the words",
      "joins the uppercased first letter of every word",
      [("acronym", "phrase"), ("make_acronym", "text"), ("initial_letters", "name")],
      ["Write a Python function {f}({a}) that returns the acronym of {a}: the first letter of each word, uppercased.",
       "Python: {f}('portable network graphics') should return 'PNG'. Write {f}({a}).",
       "I need {f}({a}) to turn a phrase into its capital-letter abbreviation.",
       "Can you write {f}({a})? Take the first letter of every word and make them capitals."],
      """
      def {f}({a}: str) -> str:
          return "".join(word[0].upper() for word in {a}.split())
      """,
      ["assert {f}('portable network graphics') == 'PNG'", "assert {f}('As Soon As Possible') == 'ASAP'", "assert {f}('') == ''"]),
    T("snake_to_camel", "converts a snake_case name to camelCase",
      "keeps the first part and capitalizes every later part before joining them",
      [("snake_to_camel", "name"), ("to_camel_case", "identifier"), ("camelize", "s")],
      ["Write a Python function {f}({a}) that converts a snake_case string like 'max_retry_count' to camelCase 'maxRetryCount'.",
       "Python: {f}({a}) turns 'user_id' into 'userId'.",
       "I need {f}({a}) to rename snake_case identifiers to camelCase.",
       "Could you write {f}({a})? Underscore-separated words become one word where each later part starts with a capital."],
      """
      def {f}({a}: str) -> str:
          first, *rest = {a}.split("_")
          return first + "".join(part.capitalize() for part in rest)
      """,
      ["assert {f}('user_id') == 'userId'", "assert {f}('max_retry_count') == 'maxRetryCount'", "assert {f}('name') == 'name'"]),
    T("camel_to_snake", "converts a camelCase name to snake_case",
      "puts an underscore before each capital letter and lowercases it",
      [("camel_to_snake", "name"), ("to_snake_case", "identifier"), ("snakify", "s")],
      ["Write a Python function {f}({a}) that converts a camelCase string like 'parseJsonFile' into snake_case 'parse_json_file'.",
       "Python: {f}({a}) turns 'getValue' into 'get_value'.",
       "I need {f}({a}) to rename camelCase identifiers to snake_case.",
       "Can you write {f}({a})? Every capital letter becomes an underscore followed by the lowercase letter."],
      """
      def {f}({a}: str) -> str:
          return "".join("_" + ch.lower() if ch.isupper() else ch for ch in {a})
      """,
      ["assert {f}('getValue') == 'get_value'", "assert {f}('parseJsonFile') == 'parse_json_file'", "assert {f}('x') == 'x'"]),
    T("caesar", "applies a Caesar shift to the letters of a text",
      "rotates each ASCII letter modulo 26 within its case and keeps other characters",
      [("caesar", "text", "shift"), ("shift_letters", "message", "n"), ("rotate_text", "s", "k")],
      ["Write a Python function {f}({a}, {b}) that applies a Caesar cipher: shift every letter of {a} by {b} places, wrapping around z, keeping upper/lower case; other characters stay the same.",
       "Python: {f}({a}, {b}). 'abc', 1 -> 'bcd'; 'Zz', 1 -> 'Aa'; punctuation unchanged.",
       "I need {f}({a}, {b}) for a little cipher game: move letters {b} steps along the alphabet (wrap around), keep case.",
       "Could you write {f}({a}, {b})? A Caesar shift that also works with negative shifts."],
      """
      def {f}({a}: str, {b}: int) -> str:
          out = []
          for ch in {a}:
              if ch.isalpha() and ch.isascii():
                  base = ord("A") if ch.isupper() else ord("a")
                  ch = chr((ord(ch) - base + {b}) % 26 + base)
              out.append(ch)
          return "".join(out)
      """,
      ["assert {f}('abc', 1) == 'bcd'", "assert {f}('Zz', 1) == 'Aa'", "assert {f}('Hi, you!', 3) == 'Kl, brx!'",
       "assert {f}('bcd', -1) == 'abc'"]),
    T("mask_card", "masks every character but the last four with '#'",
      "repeats '#' for all but the last four characters and appends those four",
      [("mask_card", "number"), ("mask", "digits"), ("hide_number", "card")],
      ["Write a Python function {f}({a}) that replaces every character of the string {a} except the last four with '#'. Strings of four or fewer characters stay as they are.",
       "Python: {f}('1234567890') -> '######7890'. Write {f}({a}).",
       "I need {f}({a}) to hide a card number on a receipt: only the last 4 characters visible, the rest '#'.",
       "Can you write {f}({a})? Mask everything but the final four characters with #."],
      """
      def {f}({a}: str) -> str:
          return "#" * max(len({a}) - 4, 0) + {a}[-4:]
      """,
      ["assert {f}('1234567890') == '######7890'", "assert {f}('123') == '123'", "assert {f}('abcd') == 'abcd'", "assert {f}('12345') == '#2345'"]),
    T("pangram", "checks whether a sentence uses every letter of the alphabet",
      "checks that the set of lowercase ASCII letters is contained in the sentence's lowercased characters",
      [("is_pangram", "sentence"), ("pangram", "text"), ("has_all_letters", "s")],
      ["Write a Python function {f}({a}) that returns True if {a} contains every letter from a to z at least once (case-insensitive).",
       "Python: {f}({a}) -> bool, is the sentence a pangram?",
       "I need {f}({a}) to check if a text uses all 26 letters of the English alphabet.",
       "Could you write {f}({a})? True when every letter a-z appears, in any case."],
      """
      import string

      def {f}({a}: str) -> bool:
          return set(string.ascii_lowercase) <= set({a}.lower())
      """,
      ["assert {f}('The quick brown fox jumps over the lazy dog') is True", "assert {f}('hello world') is False", "assert {f}('') is False"]),
    T("run_length", "compresses runs of repeated characters into character-count pairs",
      "groups equal neighbouring characters with itertools.groupby and writes each character with its run length",
      [("run_length", "text"), ("compress", "s"), ("rle_encode", "data")],
      ["Write a Python function {f}({a}) that run-length encodes {a}: 'aaabcc' becomes 'a3b1c2'.",
       "Python: {f}({a}) -> str. Replace each run of the same character with the character and the run length.",
       "I need {f}({a}) for simple compression: every group of equal consecutive characters becomes char + count.",
       "Can you write {f}({a})? e.g. 'zzzz' gives 'z4' and '' gives ''."],
      """
      from itertools import groupby

      def {f}({a}: str) -> str:
          return "".join(f"{ch}{len(list(run))}" for ch, run in groupby({a}))
      """,
      ["assert {f}('aaabcc') == 'a3b1c2'", "assert {f}('zzzz') == 'z4'", "assert {f}('') == ''", "assert {f}('abab') == 'a1b1a1b1'"]),
    T("dedupe_chars", "removes repeated characters, keeping the first occurrence of each",
      "builds a dict from the characters, which keeps first occurrences in order, and joins its keys",
      [("dedupe_chars", "text"), ("unique_chars", "s"), ("drop_repeats", "word")],
      ["Write a Python function {f}({a}) that removes duplicate characters from {a}, keeping only the first time each one appears.",
       "Python: {f}('banana') should return 'ban'. Write {f}({a}).",
       "I need {f}({a}) which keeps each character once, in the order of first appearance.",
       "Could you write {f}({a})? Remove letters that already appeared earlier in the string."],
      """
      def {f}({a}: str) -> str:
          return "".join(dict.fromkeys({a}))
      """,
      ["assert {f}('banana') == 'ban'", "assert {f}('abc') == 'abc'", "assert {f}('') == ''", "assert {f}('aAa') == 'aA'"]),
    T("first_unique_char", "returns the first character that appears only once, or None",
      "counts the characters and returns the first one whose count is one",
      [("first_unique", "text"), ("first_non_repeating", "s"), ("lonely_char", "word")],
      ["Write a Python function {f}({a}) that returns the first character of {a} that occurs exactly once, or None if there is none.",
       "Python: {f}({a}). For 'swiss' it returns 'w'; for 'aabb' it returns None.",
       "I need {f}({a}) to find the first non-repeating character in a string.",
       "Can you write {f}({a})? Give the earliest character that is not repeated anywhere, else None."],
      """
      from collections import Counter

      def {f}({a}: str) -> str | None:
          counts = Counter({a})
          return next((ch for ch in {a} if counts[ch] == 1), None)
      """,
      ["assert {f}('swiss') == 'w'", "assert {f}('aabb') is None", "assert {f}('x') == 'x'", "assert {f}('') is None"]),
    T("slugify", "turns a title into a lowercase URL slug joined by hyphens",
      "finds the runs of lowercase letters and digits with a regular expression and joins them with '-'",
      [("slugify", "title"), ("make_slug", "text"), ("url_slug", "heading")],
      ["Write a Python function {f}({a}) that turns {a} into a URL slug: lowercase, runs of letters and digits joined by single hyphens, everything else dropped.",
       "Python: {f}('Hello, World!') -> 'hello-world'. Write {f}({a}).",
       "I need {f}({a}) for blog URLs: '  Python 3 Tips ' should become 'python-3-tips'.",
       "Could you write {f}({a})? Lowercase the title and keep only ASCII letters and digits, separated by '-'."],
      """
      import re

      def {f}({a}: str) -> str:
          return "-".join(re.findall(r"[a-z0-9]+", {a}.lower()))
      """,
      ["assert {f}('Hello, World!') == 'hello-world'", "assert {f}('  Python 3 Tips ') == 'python-3-tips'", "assert {f}('!!!') == ''"]),
    T("initials", "returns a person's initials with a dot after each",
      "takes the uppercased first letter of each name part and adds a dot after it",
      [("initials", "full_name"), ("name_initials", "name"), ("get_initials", "person")],
      ["Write a Python function {f}({a}) that returns the initials of {a}, each uppercased and followed by a dot: 'Ada Lovelace' -> 'A.L.'.",
       "Python: {f}({a}) -> str like 'G.B.S.' for 'george bernard shaw'.",
       "I need {f}({a}) to print initials on name badges (capital letter plus '.' per name).",
       "Can you write {f}({a})? Every word of the name gives its first letter, uppercase, with a dot."],
      """
      def {f}({a}: str) -> str:
          return "".join(part[0].upper() + "." for part in {a}.split())
      """,
      ["assert {f}('Ada Lovelace') == 'A.L.'", "assert {f}('george bernard shaw') == 'G.B.S.'", "assert {f}('') == ''"]),
]
