"""Meal ideas from what the person has (mol_local/turn/cook_with.py)."""

from __future__ import annotations

from datetime import date

from mol_local.turn.cook_with import cook_with_answer
from mol_local.turn.meals import meals, stem

DAY = date(2026, 12, 6)


def test_what_can_i_make_with_named_ingredients_is_answered_from_meals_that_use_them(scripted_runtime) -> None:
    """`mol chat "What can I make with chicken, rice and peppers?"` got "You can make chicken, rice and peppers with
    salt and pepper."; now the meals that use the most of them, each saying which."""
    rt, scripted = scripted_runtime(["You can make chicken, rice and peppers with salt and pepper."])
    result = rt.session().run_turn("What can I make with chicken, rice and peppers?")
    lines = result.answer.splitlines()
    assert lines[0] == "With chicken, rice and peppers you could make:"
    assert lines[1] == "- Chicken and pepper stir-fry with rice (uses all three)"
    assert len(lines) == 4 and all(line.startswith("- ") and "chicken" in line.lower() for line in lines[1:])
    assert scripted.outputs == ["You can make chicken, rice and peppers with salt and pepper."]  # the model was not asked


def test_the_ingredients_may_follow_the_question_or_come_first() -> None:
    """`mol chat "What should I cook tonight? I have rice, eggs and spinach"` got "You should cook dinner tonight."."""
    tonight = cook_with_answer("What should I cook tonight? I have rice, eggs and spinach", [], DAY)
    assert tonight is not None and tonight.splitlines()[:2] == ["With rice, eggs and spinach you could make:",
                                                                "- Egg fried rice with spinach (uses all three)"]
    first = cook_with_answer("I have some eggs, potatoes and an onion. What can I make with them?", [], DAY)
    assert first is not None and first.splitlines()[:2] == ["With eggs, potatoes and onion you could make:", "- Spanish omelette (uses all three)"]
    leftover = cook_with_answer("I've got leftover rice and some broccoli, any ideas for dinner?", [], DAY)
    assert leftover is not None and leftover.splitlines()[1] == "- Salmon with rice and broccoli (uses both)"
    mince = cook_with_answer("Suggest a recipe using mince and tinned tomatoes", [], DAY)
    assert mince is not None and set(mince.splitlines()[1:3]) == {"- Beef chilli with rice (uses both)", "- Spaghetti bolognese (uses both)"}


def test_what_the_meals_do_not_know_is_said_and_a_request_naming_no_food_is_left_to_the_model() -> None:
    some = cook_with_answer("What can I make with quinoa, eggs and kale?", [], DAY)
    assert some is not None and some.endswith("(I know no everyday meal with quinoa and kale.)")
    assert all("(uses eggs)" in line for line in some.splitlines()[1:-1])
    for asked in ("What can I make with Python?", "What can I cook with a slow cooker?", "What should I have for dinner?",
                  "I have chicken and rice", "What can I make with my kids this weekend?"):
        assert cook_with_answer(asked, [], DAY) is None, asked


def test_the_ideas_keep_to_the_diet_and_allergies_told() -> None:
    veg = cook_with_answer("What can I make with chicken, rice and peppers?", ["The user is vegetarian."], DAY)
    assert veg is not None and veg.startswith("With chicken, rice and peppers you could make (you're vegetarian):")
    named = [line[2:line.index(" (")].lower() for line in veg.splitlines()[1:]]
    vegetarian = {m.name.lower() for m in meals() if m.diet & {"vegan", "vegetarian"}}
    assert named and set(named) <= vegetarian
    nuts = cook_with_answer("Any dinner ideas with noodles?", ["The user is allergic to peanuts."], DAY)
    assert nuts is not None and "peanut" not in nuts.lower().split("(no peanuts)", 1)[1]
    vegan = cook_with_answer("What can I make with eggs?", ["The user is vegan."], DAY)
    assert vegan == "Nothing I know made with eggs fits (you're vegan)."


def test_every_meal_lists_the_ingredients_its_name_says() -> None:
    """A meal is found by what it `has`: a name word that is an ingredient elsewhere must be in its own list."""
    ingredients = {stem(h) for m in meals() for h in m.has}
    for meal in meals():
        said = {stem(w) for w in meal.name.lower().replace(",", " ").split()} & ingredients
        assert said <= {stem(h) for h in meal.has}, meal.name


def test_plurals_meet_their_singular() -> None:
    assert [stem(w) for w in ("tomatoes", "noodles", "berries", "peaches", "eggs", "rice", "hummus", "glass")] == \
        ["tomato", "noodle", "berry", "peach", "egg", "rice", "hummus", "glass"]
