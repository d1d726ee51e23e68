"""Our own word lists for the L1 (personal agent) templates: lead times, day plans, dishes, packing, budgets.

Written for this project (no benchmark text). Dish names never contain an
ingredient they lack, and the words a check rules out ("mushroom", "egg",
"chicken") appear only in the dishes that really hold them, so a `not` check
on an answer is a check on the plan itself.
"""

from __future__ import annotations

LEADS = (  # (how the person says it, minutes): `before` is copied verbatim, the tool counts it back
    ("30 minutes", 30), ("15 minutes", 15), ("an hour", 60), ("1 hour", 60), ("half an hour", 30),
    ("45 minutes", 45), ("2 hours", 120), ("20 minutes", 20), ("10 minutes", 10), ("90 minutes", 90),
    ("30 min", 30), ("a day", 1440),
)

PLAN_ITEMS = (  # things a person fits into a free day
    "gym", "lunch with Ana", "groceries", "laundry", "call mum", "haircut", "swimming", "coffee with Sam",
    "study for the exam", "clean the flat", "a walk in the park", "the cinema with Jo", "bake bread",
    "return the library books", "the farmers' market", "fix the bike", "yoga", "visit grandma",
    "football practice", "meal prep", "pay the bills", "tidy the garden", "dinner with Priya", "a run",
    "piano practice", "the hardware store", "wash the car", "read for an hour", "call the insurance",
    "pick up the dry cleaning",
)
PLAN_DAYS = (  # (as in "plan my ...", as in "a schedule for ...", the note's title)
    ("my Saturday", "Saturday", "Saturday plan"), ("my Sunday", "Sunday", "Sunday plan"), ("tomorrow", "tomorrow", "Plan for tomorrow"),
    ("my day off", "my day off", "Day off plan"), ("next Friday", "next Friday", "Plan for next Friday"),
    ("the bank holiday", "the bank holiday", "Bank holiday plan"), ("my Monday", "Monday", "Monday plan"),
)
BUDGET_PLACES = ("Lisbon", "Edinburgh", "Rome", "Prague", "Copenhagen", "Seville", "Amsterdam", "Budapest", "Galway", "Vienna")

# (dish, meal, vegan?, ingredients that matter for the exclusions below)
DISHES = (
    ("porridge with banana and cinnamon", "breakfast", True, ()),
    ("scrambled eggs on toast", "breakfast", False, ("egg",)),
    ("Greek yoghurt with honey and berries", "breakfast", False, ()),
    ("avocado toast with chilli flakes", "breakfast", True, ()),
    ("overnight oats with apple", "breakfast", True, ()),
    ("peanut butter toast with sliced banana", "breakfast", True, ("peanut",)),
    ("a spinach and cheese omelette", "breakfast", False, ("egg", "cheese")),
    ("granola with oat milk and pear", "breakfast", True, ()),
    ("fried mushrooms on sourdough", "breakfast", True, ("mushroom",)),
    ("pancakes with maple syrup", "breakfast", False, ("egg",)),
    ("tomato and basil bruschetta", "breakfast", True, ("tomato",)),
    ("lentil soup with crusty bread", "lunch", True, ()),
    ("a falafel wrap with hummus", "lunch", True, ()),
    ("a halloumi and roasted pepper salad", "lunch", False, ("cheese",)),
    ("tomato soup with a cheese toastie", "lunch", False, ("tomato", "cheese")),
    ("a chickpea and cucumber salad", "lunch", True, ()),
    ("a mushroom and spinach quesadilla", "lunch", False, ("mushroom", "cheese")),
    ("a rice bowl with tofu and edamame", "lunch", True, ()),
    ("a carrot and ginger soup", "lunch", True, ()),
    ("a caprese sandwich", "lunch", False, ("tomato", "cheese")),
    ("noodle salad with peanut dressing", "lunch", True, ("peanut",)),
    ("a bean burrito bowl", "lunch", True, ()),
    ("a couscous salad with roasted courgette", "lunch", True, ()),
    ("vegetable curry with rice", "dinner", True, ()),
    ("mushroom risotto", "dinner", False, ("mushroom", "cheese")),
    ("spaghetti with tomato sauce", "dinner", True, ("tomato",)),
    ("a sweet potato and black bean chilli", "dinner", True, ()),
    ("spinach and ricotta cannelloni", "dinner", False, ("cheese",)),
    ("tofu stir-fry with broccoli", "dinner", True, ()),
    ("a lentil shepherd's pie", "dinner", True, ()),
    ("aubergine parmigiana", "dinner", False, ("cheese", "tomato")),
    ("a mushroom stroganoff", "dinner", False, ("mushroom",)),
    ("a chickpea and spinach stew", "dinner", True, ()),
    ("satay noodles with peanuts", "dinner", True, ("peanut",)),
    ("a vegetable paella", "dinner", True, ()),
    ("butternut squash soup with bread", "dinner", True, ()),
    ("egg fried rice with peas", "dinner", False, ("egg",)),
)
EXCLUSIONS = (  # (the word the answer must not contain, how the person says it, how a memory says it, the plural)
    ("mushroom", "without mushrooms", "The user doesn't eat mushrooms", "mushrooms"),
    ("cheese", "with no cheese", "The user doesn't eat cheese", "cheese"),
    ("tomato", "with no tomatoes", "The user can't eat tomatoes", "tomatoes"),
    ("peanut", "with nothing containing peanuts", "The user is allergic to peanuts", "peanuts"),
    ("egg", "with no eggs", "The user is allergic to eggs", "eggs"),
)
MEAT = ("chicken", "beef", "pork", "bacon", "salmon", "tuna")
ANIMAL = ("cheese", "egg", "yoghurt", "honey", "halloumi", "ricotta")
MEALS = ("breakfast", "lunch", "dinner")

TRIPS = {  # trip -> (what it always needs, where people go for it)
    "a beach holiday": (("a swimsuit", "sunscreen", "sunglasses", "sandals"), ("Crete", "Valencia", "the Algarve", "Cornwall")),
    "a ski trip": (("thermal layers", "a warm hat", "ski socks", "lip balm"), ("the Alps", "the Dolomites", "Andorra")),
    "a city break": (("comfortable shoes", "a small backpack", "an umbrella"), ("Lisbon", "Vienna", "Kraków", "Bologna", "Berlin")),
    "a hiking trip": (("walking boots", "a rain jacket", "a water bottle", "blister plasters"), ("the Lake District", "Snowdonia", "the Black Forest")),
    "a work conference": (("a smart shirt", "business cards", "a notebook", "a laptop charger"), ("Berlin", "Edinburgh", "Oslo", "Madrid")),
    "a camping trip": (("a sleeping bag", "a head torch", "insect repellent", "a warm fleece"), ("Brittany", "Galway", "the Highlands")),
    "a family wedding": (("the suit", "smart shoes", "the gift", "a clothes brush"), ("Porto", "Dublin", "Seville")),
}
NAMED_ITEMS = (  # things a person insists on, named in the request
    "my passport", "my reading glasses", "my inhaler", "the kids' tablets", "my camera", "a good book",
    "my headphones", "my medication", "a phone charger", "the travel adapter", "my running shoes",
    "the board game", "my journal", "a power bank", "my swimming goggles", "the dog's lead", "earplugs",
    "my e-reader", "a spare pair of glasses", "my yoga mat",
)
CURRENCIES = ("€", "£", "$")
