"""Numbers, columns, rows and the person's data that a request states end up in the view as stated."""

from __future__ import annotations

import pytest

from mol_local.genui import stated
from mol_local.genui.asked import asked_kinds
from mol_local.genui.document import parse_document
from mol_local.genui.ground import ground


@pytest.mark.parametrize(("text", "want"), [
    ("water tracker - 4 out of 10 glasses", (4, 10)),
    ("how far am I: 2,715/5000 dollars of savings", (2715, 5000)),
    ("a steps tracker with a goal of 12,000 steps; I'm at 4728", (4728, 12000)),
    ("a progress bar for reading out of 250 pages", (None, 250)),
    ("progress toward 1000 dollars with 250 saved", (250, 1000)),
    ("I've done 30 of 20 laps", (None, None)),  # more done than the goal: not taken
    ("a progress bar", (None, None)),
])
def test_the_progress_a_request_states(text: str, want: tuple) -> None:
    assert stated.progress(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("a pain level slider between 0 and 10, starting at 9", (0, 10, 9)),
    ("build me energy slider (1 to 10) set to 8 please", (1, 10, 8)),
    ("slider for budget, 0-500", (0, 500, None)),
    ("a volume slider from 0 to 10 set to 11", (0, 10, None)),  # outside the range: not taken
    ("a slider", (None, None, None)),
])
def test_the_range_and_start_a_slider_request_states(text: str, want: tuple) -> None:
    assert stated.slider(text) == want


@pytest.mark.parametrize(("text", "cols"), [
    ("A job applications table with columns company, role, status, date applied, contact",
     ["company", "role", "status", "date applied", "contact"]),
    ("a table for my reading list with title, author, status, and rating columns", ["title", "author", "status", "rating"]),
    ("table for subscriptions. columns: service; price; renewal date", ["service", "price", "renewal date"]),
    ("my week as a table (day, activity): Monday yoga", ["day", "activity"]),
    ("give me table of cities and their countries. city | country. rows: Lima, Peru", ["city", "country"]),
    ("a savings dashboard: progress toward 1000 dollars with 250 saved, and a table with date and amount columns",
     ["date", "amount"]),
    ("a table of my notes", []),
])
def test_the_columns_a_table_request_lists(text: str, cols: list[str]) -> None:
    assert stated.columns(text) == cols


@pytest.mark.parametrize(("text", "rows"), [
    ("table of cities. city | country. rows: Lima, Peru; Oslo, Norway please", [["Lima", "Peru"], ["Oslo", "Norway"]]),
    ("a table of cities with city and country columns: Accra (Ghana), Lima (Peru) and Hanoi (Vietnam)",
     [["Accra", "Ghana"], ["Lima", "Peru"], ["Hanoi", "Vietnam"]]),
    ("a table of books with book and author columns: Dracula - Bram Stoker, Emma - Jane Austen",
     [["Dracula", "Bram Stoker"], ["Emma", "Jane Austen"]]),
    ("table of cities. city | country. rows: Lima, Peru, South America; Oslo, Norway", []),  # a row of 3 cells
])
def test_the_rows_a_table_request_writes_out(text: str, rows: list[list[str]]) -> None:
    assert stated.rows(text, 2) == rows


@pytest.mark.parametrize(("text", "src"), [
    ("I want what you know about me, as a table.", "memories"),
    ("give me a table of my notes", "notes"),
    ("my reminders in a checklist I can tick off", "reminders"),
    ("a table of cities", None),
    ("my notes and my reminders in a table", None),  # two named: the model's call
])
def test_the_persons_data_a_view_is_asked_to_show(text: str, src: str | None) -> None:
    assert stated.source(text) == src


def test_a_tracker_or_how_far_am_i_asks_for_a_progress_bar() -> None:
    assert asked_kinds("how far am I: 112/120 pages of reading") == ("ProgressBar",)
    assert asked_kinds("a water tracker - 4 out of 10 glasses") == ("ProgressBar",)
    assert asked_kinds("a tracking table for my workouts with day and weight") == ("Table",)


def test_a_tracker_that_names_what_each_entry_holds_is_a_table_of_those_columns() -> None:
    assert stated.table("Create a reading tracker with title, author and pages read") == (["title", "author", "pages read"], [])
    assert stated.logged_fields("a workout log: exercise, sets, reps") == ["exercise", "sets", "reps"]
    assert stated.logged_fields("a water tracker with 8 glasses and 2 mugs") == []  # numbers: progress
    assert stated.logged_fields("a table with title and author") == []  # no tracker or log: the table's own columns


def _doc(components: list[dict], state: dict, actions: dict | None = None):
    return parse_document({"catalog": "1", "title": "T", "components": components, "state": state,
                           "actions": actions or {}})


def test_a_progress_bar_shows_the_stated_amount_out_of_the_stated_goal() -> None:
    doc = _doc([{"id": "bar", "type": "ProgressBar", "label": "Savings", "bind": "saved", "max": 100}], {"saved": 2})
    fixes = ground(doc, "how far am I: 2,715/5000 dollars of savings")
    assert doc.component("bar")["max"] == 5000 and doc.state["saved"] == 2715 and len(fixes) == 2
    parse_document(doc.to_json())


def test_a_slider_has_the_stated_range_and_start() -> None:
    doc = _doc([{"id": "s", "type": "Slider", "label": "Energy", "bind": "energy", "min": 8, "max": 10}], {"energy": 8})
    ground(doc, "build me energy slider (1 to 10) set to 3 please")
    assert (doc.component("s")["min"], doc.component("s")["max"], doc.state["energy"]) == (1, 10, 3)
    doc = _doc([{"id": "s", "type": "Slider", "label": "Pain", "bind": "p", "min": 0, "max": 100}], {"p": 50})
    ground(doc, "a pain slider from 0 to 10")  # no start named: the model's 50 is outside, so the low end
    assert (doc.component("s")["max"], doc.state["p"]) == (10, 0)
    parse_document(doc.to_json())


def test_a_table_gets_the_listed_columns_and_rows_in_the_persons_words() -> None:
    doc = _doc([{"id": "t", "type": "Table", "label": "Plants", "bind": "rows", "columns": ["Plant", "Water"]}],
               {"rows": []})
    fixes = ground(doc, "give me table of plants. plant | water. rows: aloe, every two weeks; mint, every other day")
    assert doc.state["rows"] == [["aloe", "every two weeks"], ["mint", "every other day"]]
    assert doc.component("t")["columns"] == ["Plant", "Water"] and fixes == [
        "table 't' holds the 2 rows the request wrote out"]
    doc = _doc([{"id": "t", "type": "Table", "label": "Cities", "bind": "rows", "columns": ["City"]}],
               {"rows": [["Lima", "Peru"], ["Oslo", "Nepa"]]})
    ground(doc, "table of cities. city | country. rows: Lima, Peru; Oslo, Norway; Kyoto, Japan")
    assert doc.component("t")["columns"] == ["City", "Country"] and doc.state["rows"][1] == ["Oslo", "Norway"]
    parse_document(doc.to_json())


@pytest.mark.parametrize(("text", "cols", "rows"), [
    ("A table of my weekly workouts: Monday run, Wednesday swim, Friday yoga",  # tried with mol chat: the three
     ["Day", "Workout"], [["Monday", "run"], ["Wednesday", "swim"], ["Friday", "yoga"]]),  # were its columns, no row
    ("a table of my monthly costs: rent 900, food 300 and bus 60", ["Item", "Cost"], [["rent", "900"], ["food", "300"], ["bus", "60"], ["Total", "1,260"]]),
    ("a budget: rent 900, food 300", ["Item", "Amount"], [["rent", "900"], ["food", "300"], ["Total", "1,200"]]),  # (test_grid: "Make a budget")
    ("Make a table of my monthly costs: rent £900, food £300.50", ["Item", "Cost"], [["rent", "£900"], ["food", "£300.50"], ["Total", "£1,200.50"]]),
    ("a table of my scores: maths 90, art 70", ["Item", "Score"], [["maths", "90"], ["art", "70"]]),  # not costs: no total
    ("table for the week: pasta on Monday, tacos on Tuesday", ["Day", "Plan"], [["Monday", "pasta"], ["Tuesday", "tacos"]]),
    ("a table with columns day and sport: Monday run, Friday yoga", ["day", "sport"], [["Monday", "run"], ["Friday", "yoga"]]),
    ("a table of my week: Monday run, gym on Friday, Sunday", [], []),  # one item pairs nothing: not a keyed list
    ("Make a table of books: Dune by Frank Herbert, Emma by Jane Austen, Ulysses by James Joyce",  # mol chat: the titles
     ["Book", "Author"], [["Dune", "Frank Herbert"], ["Emma", "Jane Austen"], ["Ulysses", "James Joyce"]]),  # were columns
    ("a table of my favourite songs: Yesterday by The Beatles and Hurt by Johnny Cash",
     ["Song", "Artist"], [["Yesterday", "The Beatles"], ["Hurt", "Johnny Cash"]]),
    ("make a table: Dune by Frank Herbert, Emma", [], []),  # one item names no maker
    ("Make a weekly workout schedule with running on Monday, swimming on Wednesday and yoga on Friday",  # mol chat: L1 set a
     ["Day", "Workout"], [["Monday", "running"], ["Wednesday", "swimming"], ["Friday", "yoga"]]),  # reminder, L3 drew toggles
    ("Make me a cleaning rota: Monday bathroom, Thursday kitchen", ["Day", "Cleaning"], [["Monday", "bathroom"], ["Thursday", "kitchen"]]),
])
def test_a_keyed_list_is_two_columns_and_a_row_per_item(text: str, cols: list[str], rows: list[list[str]]) -> None:
    assert stated.keyed_rows(text)[1] == rows
    if not rows:
        return
    assert stated.table(text) == (cols, rows)
    doc = _doc([{"id": "t", "type": "Table", "label": "W", "bind": "rows", "columns": ["Monday run", "Wednesday swim"]}],
               {"rows": []})
    ground(doc, text)
    assert (doc.state["rows"], doc.component("t")["columns"]) == (rows, [c[:1].upper() + c[1:] for c in cols])
    parse_document(doc.to_json())


def test_two_tables_are_left_to_the_model() -> None:
    doc = _doc([{"id": "a", "type": "Table", "label": "A", "bind": "ra", "columns": ["X"]},
                {"id": "b", "type": "Table", "label": "B", "bind": "rb", "columns": ["Y"]}], {"ra": [], "rb": []})
    assert ground(doc, "tables with columns city and country") == []


def test_a_table_of_what_you_know_about_me_shows_the_memories() -> None:
    doc = _doc([{"id": "t", "type": "Table", "label": "Me", "bind": "rows", "columns": ["Title", "Body"]}],
               {"rows": [["Invented", "row"]]})
    fixes = ground(doc, "I want what you know about me, as a table.")
    table = doc.component("t")
    assert table["source"] == "memories" and "bind" not in table and "rows" not in doc.state
    assert fixes == ["table 't' shows your memories", "table 't' headed Memory, Kind"]  # a memory has no title or body
    parse_document(doc.to_json())


def test_a_checklist_is_bound_only_to_reminders_the_one_source_that_can_be_ticked() -> None:
    doc = _doc([{"id": "c", "type": "Checklist", "label": "Notes", "bind": "items"}], {"items": []})
    assert ground(doc, "a checklist of my notes") == []
    ground(doc, "a checklist of my reminders")
    assert doc.component("c")["source"] == "reminders"


@pytest.mark.parametrize(("text", "want"), [
    ("a card for Today with these lines: pick up Leo at 4; dentist at 3pm; call Mum", ("Today", [
        "pick up Leo at 4", "dentist at 3pm", "call Mum"])),
    ("Could you set up Goals card: read twelve books and learn to bake bread?", ("Goals", [
        "read twelve books", "learn to bake bread"])),
    ('build me a card titled Today that says "gym at 6, then dinner" please', ("Today", ["gym at 6, then dinner"])),
    ("a markdown card with notes from the design review: move to Slack", (None, [])),
])
def test_the_lines_a_card_request_writes_out(text: str, want: tuple) -> None:
    assert stated.card_lines(text) == want


@pytest.mark.parametrize(("text", "names"), [
    ("A pet profile form: age and a toggle for gift wrap", ["gift wrap"]),
    ("a settings panel with dark mode, offline mode and location switches", ["dark mode", "offline mode", "location"]),
    ("show a card of on/off switches: auto-save, vibration, and dark mode", ["auto-save", "vibration", "dark mode"]),
    ("a form with name and email", []),
])
def test_what_each_switch_a_request_names_is_for(text: str, names: list[str]) -> None:
    assert stated.switch_names(text) == names


def test_nested_empty_cards_become_one_card_of_the_lines_written_out() -> None:
    doc = _doc([{"id": "card", "type": "Card", "label": "Today", "children": ["a", "b"]},
                {"id": "a", "type": "Card", "label": "Today", "children": []},
                {"id": "b", "type": "Card", "label": "Today", "children": []}], {})
    fixes = ground(doc, "a card for Today with these lines: pick up Leo at 4; dentist at 3pm; call Mum")
    assert [c["type"] for c in doc.components] == ["Card", "Text", "Text", "Text"]
    assert [c.get("text") for c in doc.components[1:]] == ["pick up Leo at 4", "dentist at 3pm", "call Mum"]
    assert doc.parents == {"line_1": "card", "line_2": "card", "line_3": "card"} and fixes
    assert ground(doc, "a card for Today with these lines: pick up Leo at 4; dentist at 3pm; call Mum") == []


def test_a_card_beside_other_views_is_left_to_the_model() -> None:
    doc = _doc([{"id": "card", "type": "Card", "label": "Today", "children": ["t"]},
                {"id": "t", "type": "Timer", "label": "T", "bind": "left", "seconds": 60}], {"left": 60})
    assert ground(doc, "a card for Today with these lines: tea; coffee") == []


def test_switches_get_the_named_labels_and_a_missing_one_is_added_off() -> None:
    doc = _doc([{"id": "panel", "type": "Card", "label": "Settings", "children": ["dark", "on_switch"]},
                {"id": "dark", "type": "Toggle", "label": "Dark mode", "bind": "dark"},
                {"id": "on_switch", "type": "Toggle", "label": "On switch", "bind": "on"}], {"dark": False, "on": True})
    fixes = ground(doc, "a settings panel with dark mode, offline mode and location switches")
    labels = [c["label"] for c in doc.components if c["type"] == "Toggle"]
    assert labels == ["Dark mode", "Offline mode", "Location"] and doc.state["location"] is False
    assert doc.component("panel")["children"] == ["dark", "on_switch", "location"] and len(fixes) == 2
    parse_document(doc.to_json())


def test_a_switch_written_twice_is_dropped_and_the_one_left_gets_its_name() -> None:
    doc = _doc([{"id": "form", "type": "Form", "label": "Sign-up", "children": ["email", "sw"], "action": "save"},
                {"id": "email", "type": "Input", "label": "Email", "bind": "email"},
                {"id": "sw", "type": "Toggle", "label": "On switch", "bind": "on"},
                {"id": "sw_2", "type": "Toggle", "label": "On switch", "bind": "on"}], {"email": "", "on": False},
               {"save": {"kind": "submit", "target": "form", "payload": {}, "visibility": "noai"}})
    fixes = ground(doc, "a volunteer sign-up form with email, plus an on/off switch for subscribe")
    assert [c["id"] for c in doc.components] == ["form", "email", "sw"] and doc.component("sw")["label"] == "Subscribe"
    assert fixes == ["dropped the repeated Toggle 'sw_2'", "switch 'sw' labelled 'Subscribe' as the request named it"]


@pytest.mark.parametrize(("text", "want"), [
    ("Show a picker to choose a weekend activity from museum; hiking; cinema; picnic", ["museum", "hiking", "cinema", "picnic"]),
    ("help me pick the team lunch venue: the deli, the Thai place or the canteen", ["the deli", "the Thai place", "the canteen"]),
    ("choose my coffee order from espresso; latte; flat white, plus a 10 minute timer to decide", ["espresso", "latte", "flat white"]),
    ("a poll for a colour for the bedroom with options terracotta or sage green", ["terracotta", "sage green"]),
    ("a picker", []),
])
def test_the_choices_a_picker_request_lists(text: str, want: list[str]) -> None:
    assert stated.options(text) == want


def test_a_lone_picker_offers_the_listed_choices_and_a_form_is_left_alone() -> None:
    doc = _doc([{"id": "p", "type": "Select", "label": "Museum", "bind": "choice", "options": ["Hike", "Cinema"]}],
               {"choice": "Hike"})
    fixes = ground(doc, "Show a picker to choose a weekend activity from museum; hiking; cinema; picnic")
    assert doc.component("p")["options"] == ["Museum", "Hiking", "Cinema", "Picnic"] and doc.state["choice"] == ""
    assert fixes == ["picker 'p' offers the 4 choices the request listed"]
    form = _doc([{"id": "f", "type": "Form", "label": "F", "children": ["d"], "action": "go"},
                 {"id": "d", "type": "Select", "label": "Dept", "bind": "d", "options": ["x", "y"]}], {"d": ""},
                {"go": {"kind": "submit", "target": "f", "payload": {}, "visibility": "noai"}})
    ground(form, "a form: name and skills, and a department dropdown (billing or sales)")
    assert form.component("d")["options"] == ["x", "y"]


def test_one_stated_goal_is_one_bar_of_the_stated_numbers() -> None:
    """In the app: "Items" at 0 % and "Dollars saved" at 100 % (2715 of a made-up 2500)."""
    doc = _doc([{"id": "box", "type": "Card", "label": "Savings", "children": ["bar", "bar_2"]},
                {"id": "bar", "type": "ProgressBar", "label": "Items", "bind": "items"},
                {"id": "bar_2", "type": "ProgressBar", "label": "Dollars saved", "bind": "saved", "max": 2500}],
               {"items": 0, "saved": 2715})
    fixes = ground(doc, "how far am I: 2,715/5000 dollars of savings")
    assert [c["id"] for c in doc.components] == ["box", "bar"] and doc.component("box")["children"] == ["bar"]
    assert fixes[0] == "dropped the other progress bar 'bar_2': the request states one goal"
    assert doc.component("bar")["max"] == 5000 and doc.state["items"] == 2715
    parse_document(doc.to_json())


def test_two_stated_goals_leave_the_bars_to_the_model() -> None:
    assert stated.progress("a steps bar out of 10000 and a water bar out of 8") == (None, None)
    doc = _doc([{"id": "a", "type": "ProgressBar", "label": "Steps", "bind": "a", "max": 10000},
                {"id": "b", "type": "ProgressBar", "label": "Water", "bind": "b", "max": 8}], {"a": 0, "b": 0})
    assert ground(doc, "a steps bar out of 10000 and a water bar out of 8") == []


def test_rows_written_out_replace_a_source_the_request_does_not_name() -> None:
    doc = _doc([{"id": "t", "type": "Table", "label": "City", "columns": ["City", "Country"], "source": "memories"}], {})
    fixes = ground(doc, "give me table of cities and their countries. city | country. rows: Lima, Peru; Oslo, Norway")
    table = doc.component("t")
    assert "source" not in table and doc.state[table["bind"]] == [["Lima", "Peru"], ["Oslo", "Norway"]]
    assert fixes[0] == "table 't' shows the rows written out, not your memories"
    parse_document(doc.to_json())


def test_a_table_of_a_source_is_headed_for_the_cells_its_rows_have() -> None:
    doc = _doc([{"id": "t", "type": "Table", "label": "Me", "columns": ["People to contact"], "source": "memories"}], {})
    assert ground(doc, "I want what you know about me, as a table.") == ["table 't' headed Memory, Kind"]
    assert doc.component("t")["columns"] == ["Memory", "Kind"]
    reminders = _doc([{"id": "t", "type": "Table", "label": "My reminders", "columns": ["Title", "Body"], "source": "reminders"}], {})
    assert ground(reminders, "Show my reminders as a table") == ["table 't' headed Reminder, Due"]  # mol chat: a note's headings


def test_what_is_added_to_a_list_is_the_list() -> None:
    """Tried with mol chat: "Add milk to my shopping list" came back as Milk and Water."""
    from mol_local.genui.ground import named_list

    assert named_list("Add milk to my shopping list") == (["milk"], True)
    assert named_list("add eggs and bread to the shopping list") == (["eggs", "bread"], True)
    assert named_list("Create a habit tracker for drinking water, exercise and reading") == (["drinking water", "exercise", "reading"], False)
    doc = _doc([{"id": "c", "type": "Checklist", "label": "Shop", "bind": "items"}],
               {"items": [{"label": "Milk", "done": False}, {"label": "Water", "done": False}]})
    ground(doc, "Add milk to my shopping list")
    assert doc.state["items"] == [{"label": "Milk", "done": False}]


def test_a_written_out_table_labelled_with_a_kind_word_gets_the_title() -> None:
    """The app: "Make a weekly workout schedule with running on Monday, …" drew the right rows under the label "Checklist"."""
    doc = _doc([{"id": "t", "type": "Table", "label": "Checklist", "bind": "rows", "columns": ["Day", "Workout"]}], {"rows": []})
    doc.title = "Weekly workout"
    ground(doc, "Make a weekly workout schedule with running on Monday, swimming on Wednesday and yoga on Friday")
    assert doc.component("t")["label"] == "Weekly workout" and len(doc.state["rows"]) == 3
    kept = _doc([{"id": "t", "type": "Table", "label": "My week", "bind": "rows", "columns": ["Day", "Workout"]}], {"rows": []})
    ground(kept, "Make a weekly workout schedule with running on Monday, swimming on Wednesday and yoga on Friday")
    assert kept.component("t")["label"] == "My week"


def test_a_bar_labelled_with_a_word_from_nowhere_takes_the_title() -> None:
    """`mol chat`: "Track my water intake: 3 of 8 glasses today" drew a progress bar labelled "Gratitude"."""
    doc = _doc([{"id": "p", "type": "ProgressBar", "label": "Gratitude", "bind": "done", "max": 8}], {"done": 3})
    doc.title = "Water intake"
    ground(doc, "Track my water intake: 3 of 8 glasses today")
    assert doc.component("p")["label"] == "Water intake"
    kept = _doc([{"id": "p", "type": "ProgressBar", "label": "Glasses", "bind": "done", "max": 8}], {"done": 3})
    kept.title = "Water intake"
    ground(kept, "Track my water intake: 3 of 8 glasses today")
    assert kept.component("p")["label"] == "Glasses"


def test_tracking_a_stated_fraction_asks_for_a_progress_bar() -> None:
    """The app: "Track my water intake: 3 of 8 glasses today" drew a checklist of "Glasses" and "Liquorics"."""
    from mol_local.genui.asked import asked_kinds

    assert asked_kinds("Track my water intake: 3 of 8 glasses today") == ("ProgressBar",)
    assert asked_kinds("track my expenses: rent 900, food 300") == () and asked_kinds("I want to track my reading") == ()


def test_an_empty_box_beside_a_view_is_dropped() -> None:
    """The app: "Track my water intake: 3 of 8 glasses today" drew an empty "Items" card above the progress bar."""
    doc = _doc([{"id": "box", "type": "Card", "label": "Items", "children": []},
                {"id": "p", "type": "ProgressBar", "label": "Intake", "bind": "done", "max": 8}], {"done": 3})
    ground(doc, "Track my water intake: 3 of 8 glasses today")
    assert [c["id"] for c in doc.components] == ["p"]
    parse_document(doc.to_json())
    alone = _doc([{"id": "box", "type": "Card", "label": "Items", "children": []}], {})
    ground(alone, "a card")
    assert [c["id"] for c in alone.components] == ["box"]


def test_a_counted_list_of_things_is_one_column_with_a_row_each() -> None:
    """`mol chat "Make a table of my three favourite films: Alien, Heat, Up"`: the films were the columns, the rows
    ["Alien", "Heat"], ["Heat", "Up"]."""
    doc = _doc([{"id": "table", "type": "Table", "label": "Favourite films", "bind": "rows", "columns": ["Alien", "Heat", "Up"]}],
               {"rows": [["Alien", "Heat"], ["Heat", "Up"]]})
    ground(doc, "Make a table of my three favourite films: Alien, Heat, Up")
    assert doc.component("table")["columns"] == ["Film"] and doc.state["rows"] == [["Alien"], ["Heat"], ["Up"]]
    parse_document(doc.to_json())
    assert stated.counted_list("a table of my two cats: Tom, Felix, Ginger") is None  # two said, three listed
    assert stated.table("Make a table with columns: day, activity") == (["day", "activity"], [])


def test_things_compared_at_a_price_are_a_row_each_under_their_noun_and_price() -> None:
    """`mol chat`: "Make a table comparing three phones: iPhone 15 at £799, …" had rows "iPhone 15 at" | "£799" under Item | Amount."""
    from mol_local.genui.stated import table

    assert table("Make a table comparing three phones: iPhone 15 at £799, Pixel 8 at £699 and Galaxy S24 at £749") == (
        ["Phone", "Price"], [["iPhone 15", "£799"], ["Pixel 8", "£699"], ["Galaxy S24", "£749"]])
    assert table("Make a table of my costs: rent is 900, food costs 300") == (["Item", "Cost"], [["rent", "900"], ["food", "300"], ["Total", "1,200"]])
