"""L2 templates: small classes and stateful helpers. Written for this recipe; tests set up and assert by hand."""

from __future__ import annotations

from trainer.specialists.code_template import T

BANK = [
    T("counter_class", "counts up from zero with increment, value and reset methods",
      "keeps the count in an attribute that increment raises and reset sets back to zero",
      [("Counter",), ("Tally",), ("ClickCounter",)],
      ["Write a Python class {f} with methods increment() (add one), value() (return the count) and reset() (back to 0). It starts at 0.",
       "Python: a small class {f}; c = {f}(); c.increment(); c.value() -> 1. Also a reset() method.",
       "I need a class {f} for counting button clicks: increment(), value(), reset().",
       "Can you write class {f}? A counter starting at zero with increment, value and reset."],
      """
      class {f}:
          def __init__(self) -> None:
              self.count = 0

          def increment(self) -> None:
              self.count += 1

          def value(self) -> int:
              return self.count

          def reset(self) -> None:
              self.count = 0
      """,
      ["c = {f}(); assert c.value() == 0", "c = {f}(); c.increment(); c.increment(); assert c.value() == 2",
       "c = {f}(); c.increment(); c.reset(); assert c.value() == 0"]),
    T("stack_class", "is a stack with push, pop, peek and is_empty",
      "stores the items in a list and uses its end as the top",
      [("Stack",), ("PlateStack",), ("LifoStack",)],
      ["Write a Python class {f} with push(item), pop() (remove and return the top), peek() (return the top without removing it) and is_empty().",
       "Python: class {f}, a last-in-first-out stack. pop() on an empty stack may raise IndexError.",
       "I need a class {f} for an undo history: push, pop, peek and is_empty methods.",
       "Can you write class {f}? A simple stack backed by a list."],
      """
      class {f}:
          def __init__(self) -> None:
              self.items = []

          def push(self, item) -> None:
              self.items.append(item)

          def pop(self):
              return self.items.pop()

          def peek(self):
              return self.items[-1]

          def is_empty(self) -> bool:
              return not self.items
      """,
      ["s = {f}(); assert s.is_empty() is True", "s = {f}(); s.push(1); s.push(2); assert s.pop() == 2 and s.peek() == 1",
       "s = {f}(); s.push('a'); s.pop(); assert s.is_empty() is True"]),
    T("bank_account", "is a bank account with a balance, deposit and withdraw that refuses overdrafts",
      "keeps a balance attribute and raises ValueError when a withdrawal is larger than the balance",
      [("BankAccount",), ("Account",), ("Wallet",)],
      ["Write a Python class {f} with a balance attribute starting at 0, deposit(amount) and withdraw(amount); withdraw raises ValueError if the balance is too low.",
       "Python: class {f}. a = {f}(); a.deposit(50); a.withdraw(20); a.balance == 30. Overdrafts raise ValueError.",
       "I need a class {f} for a budgeting exercise: deposit, withdraw (no overdraft allowed) and a balance attribute.",
       "Can you write class {f}? Raise ValueError when withdrawing more than the balance."],
      """
      class {f}:
          def __init__(self) -> None:
              self.balance = 0

          def deposit(self, amount: float) -> None:
              self.balance += amount

          def withdraw(self, amount: float) -> None:
              if amount > self.balance:
                  raise ValueError("insufficient funds")
              self.balance -= amount
      """,
      ["a = {f}(); assert a.balance == 0", "a = {f}(); a.deposit(50); a.withdraw(20); assert a.balance == 30",
       "a = {f}(); a.deposit(5)\ntry:\n    a.withdraw(10)\nexcept ValueError:\n    pass\nelse:\n    raise AssertionError('no ValueError')\nassert a.balance == 5"]),
    T("rectangle", "is a rectangle with width and height and methods for area and perimeter",
      "stores the two sides and computes the area and the perimeter from them",
      [("Rectangle",), ("Rect",), ("Box2D",)],
      ["Write a Python class {f} created as {f}(width, height) with methods area() and perimeter().",
       "Python: class {f}; {f}(3, 4).area() -> 12 and {f}(3, 4).perimeter() -> 14.",
       "I need a class {f} for a floor-plan tool: width and height, area() and perimeter().",
       "Can you write class {f}(width, height)? Two methods, area and perimeter."],
      """
      class {f}:
          def __init__(self, width: float, height: float) -> None:
              self.width = width
              self.height = height

          def area(self) -> float:
              return self.width * self.height

          def perimeter(self) -> float:
              return 2 * (self.width + self.height)
      """,
      ["r = {f}(3, 4); assert r.area() == 12", "r = {f}(3, 4); assert r.perimeter() == 14", "r = {f}(2.5, 2); assert r.area() == 5.0"]),
    T("point_class", "is a 2D point dataclass with a distance_to method",
      "declares x and y as dataclass fields and uses math.hypot for the distance",
      [("Point",), ("Vec2",), ("Location",)],
      ["Write a Python dataclass {f} with fields x and y and a method distance_to(other) returning the Euclidean distance.",
       "Python: class {f}(x, y) as a dataclass; {f}(0, 0).distance_to({f}(3, 4)) -> 5.0.",
       "I need a small {f} class with x, y and distance_to for a map feature.",
       "Can you write class {f}? Use @dataclass so points compare by value."],
      """
      import math
      from dataclasses import dataclass

      @dataclass
      class {f}:
          x: float
          y: float

          def distance_to(self, other: "{f}") -> float:
              return math.hypot(self.x - other.x, self.y - other.y)
      """,
      ["assert {f}(0, 0).distance_to({f}(3, 4)) == 5.0", "assert {f}(1, 2) == {f}(1, 2)", "p = {f}(2, 2); assert p.distance_to(p) == 0"]),
    T("queue_class", "is a first-in-first-out queue with enqueue, dequeue and len",
      "wraps a collections.deque, appending on the right and popping from the left",
      [("Queue",), ("TaskQueue",), ("FifoQueue",)],
      ["Write a Python class {f} with enqueue(item), dequeue() (remove and return the oldest item) and __len__.",
       "Python: class {f}, first in first out. q.enqueue(1); q.enqueue(2); q.dequeue() -> 1; len(q) -> 1.",
       "I need a class {f} for a print queue: enqueue, dequeue and len().",
       "Can you write class {f}? Use collections.deque inside."],
      """
      from collections import deque

      class {f}:
          def __init__(self) -> None:
              self.items = deque()

          def enqueue(self, item) -> None:
              self.items.append(item)

          def dequeue(self):
              return self.items.popleft()

          def __len__(self) -> int:
              return len(self.items)
      """,
      ["q = {f}(); assert len(q) == 0", "q = {f}(); q.enqueue(1); q.enqueue(2); assert q.dequeue() == 1 and len(q) == 1"]),
    T("inventory", "tracks item quantities with add, remove and quantity methods",
      "keeps a dict of quantities, refuses to remove more than is in stock and reports 0 for unknown items",
      [("Inventory",), ("Stock",), ("Pantry",)],
      ["Write a Python class {f} with add(name, qty), remove(name, qty) and quantity(name). quantity of an unknown item is 0; removing more than there is raises ValueError.",
       "Python: class {f}. inv.add('rice', 3); inv.remove('rice', 1); inv.quantity('rice') -> 2.",
       "I need a class {f} to track what is in my pantry: add, remove (no negative stock) and quantity.",
       "Can you write class {f}? Store the counts in a dict."],
      """
      class {f}:
          def __init__(self) -> None:
              self.counts = {}

          def add(self, name: str, qty: int) -> None:
              self.counts[name] = self.counts.get(name, 0) + qty

          def remove(self, name: str, qty: int) -> None:
              if qty > self.counts.get(name, 0):
                  raise ValueError(f"not enough {name}")
              self.counts[name] -= qty

          def quantity(self, name: str) -> int:
              return self.counts.get(name, 0)
      """,
      ["inv = {f}(); inv.add('rice', 3); inv.remove('rice', 1); assert inv.quantity('rice') == 2", "inv = {f}(); assert inv.quantity('salt') == 0",
       "inv = {f}()\ntry:\n    inv.remove('salt', 1)\nexcept ValueError:\n    pass\nelse:\n    raise AssertionError('no ValueError')"]),
    T("shopping_cart", "is a shopping cart with add(name, price, qty), total and item count",
      "keeps (price, quantity) per item name and sums price times quantity for the total",
      [("ShoppingCart",), ("Cart",), ("Basket",)],
      ["Write a Python class {f} with add(name, price, qty=1), total() returning the sum of price * qty, and count() returning the number of items including quantities.",
       "Python: class {f}. cart.add('tea', 2.5, 2); cart.add('milk', 1); cart.total() -> 6.0; cart.count() -> 3.",
       "I need a class {f} for a small shop script: add items with a price and quantity, then total() and count().",
       "Can you write class {f}? Adding the same name again adds to its quantity."],
      """
      class {f}:
          def __init__(self) -> None:
              self.lines = {}

          def add(self, name: str, price: float, qty: int = 1) -> None:
              _, held = self.lines.get(name, (price, 0))
              self.lines[name] = (price, held + qty)

          def total(self) -> float:
              return sum(price * qty for price, qty in self.lines.values())

          def count(self) -> int:
              return sum(qty for _, qty in self.lines.values())
      """,
      ["c = {f}(); c.add('tea', 2.5, 2); c.add('milk', 1); assert c.total() == 6.0 and c.count() == 3",
       "c = {f}(); assert c.total() == 0 and c.count() == 0", "c = {f}(); c.add('egg', 0.5); c.add('egg', 0.5, 3); assert c.count() == 4"]),
    T("temperature_log", "records temperatures and reports the highest, lowest and average",
      "keeps the readings in a list and answers with max, min and sum divided by the count",
      [("TemperatureLog",), ("Readings",), ("WeatherLog",)],
      ["Write a Python class {f} with record(value), highest(), lowest() and average(); all three return None before any reading.",
       "Python: class {f}. log.record(10); log.record(20); log.average() -> 15.0; log.highest() -> 20.",
       "I need a class {f} for a weather station script: record readings and get highest, lowest and average.",
       "Can you write class {f}? Return None from the queries when nothing was recorded."],
      """
      class {f}:
          def __init__(self) -> None:
              self.values = []

          def record(self, value: float) -> None:
              self.values.append(value)

          def highest(self) -> float | None:
              return max(self.values, default=None)

          def lowest(self) -> float | None:
              return min(self.values, default=None)

          def average(self) -> float | None:
              return sum(self.values) / len(self.values) if self.values else None
      """,
      ["t = {f}(); t.record(10); t.record(20); assert t.average() == 15.0 and t.highest() == 20 and t.lowest() == 10",
       "t = {f}(); assert t.highest() is None and t.average() is None"]),
    T("todo_list", "is a to-do list with add, complete and pending methods",
      "stores each task with a done flag and lists the tasks whose flag is still false",
      [("TodoList",), ("Tasks",), ("Checklist",)],
      ["Write a Python class {f} with add(task), complete(task) and pending() returning the tasks not yet completed, in the order they were added.",
       "Python: class {f}. t.add('wash'); t.add('cook'); t.complete('wash'); t.pending() -> ['cook'].",
       "I need a class {f} to keep my chores: add, complete and pending.",
       "Can you write class {f}? Completing an unknown task raises KeyError."],
      """
      class {f}:
          def __init__(self) -> None:
              self.done = {}

          def add(self, task: str) -> None:
              self.done[task] = False

          def complete(self, task: str) -> None:
              if task not in self.done:
                  raise KeyError(task)
              self.done[task] = True

          def pending(self) -> list[str]:
              return [task for task, finished in self.done.items() if not finished]
      """,
      ["t = {f}(); t.add('wash'); t.add('cook'); t.complete('wash'); assert t.pending() == ['cook']",
       "t = {f}(); assert t.pending() == []",
       "t = {f}()\ntry:\n    t.complete('nope')\nexcept KeyError:\n    pass\nelse:\n    raise AssertionError('no KeyError')"]),
]
