"""Training requests for the route adapter: our own, written for this recipe.

Each slot has request templates and filler pools; expanding them with a seeded
RNG gives several hundred varied requests per slot. The split is by template:
every 6th template of a slot never reaches training, so the held-out score
measures requests phrased in ways the adapter never saw, not just new fillers.
The shared dev set (../shared/eval/route_dev.jsonl) is never read here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

POOLS: dict[str, list[str]] = {
    "topic": ["black holes", "the French Revolution", "photosynthesis", "inflation", "volcanoes", "the immune system",
              "tides", "the stock market", "jazz", "the Roman Empire", "rainbows", "DNA", "electric cars", "coffee",
              "the water cycle", "earthquakes", "vaccines", "the printing press", "bees", "the northern lights"],
    "lang": ["French", "Spanish", "German", "Japanese", "Italian", "Portuguese", "Korean", "Dutch", "Chinese", "Greek"],
    "phrase": ["good morning", "where is the train station", "I am allergic to nuts", "how much does this cost",
               "see you tomorrow", "thank you very much", "the bill, please", "I am lost", "happy birthday"],
    "thing": ["a goldfish", "a new bakery", "a hiking club", "a podcast about history", "a black puppy", "a sailboat",
              "a small café", "a book club", "a vegetable garden", "a robot vacuum"],
    "person": ["my sister", "my boss", "my landlord", "my partner", "my dad", "a coworker", "my neighbour",
               "my son's coach", "my dentist", "my best friend"],
    "event": ["a dentist appointment", "a job interview", "my daughter's recital", "a team meeting", "a flight to Lisbon",
              "a parent-teacher conference", "a yoga class", "a doctor's visit", "a conference in Berlin", "a wedding"],
    "place": ["Lisbon", "Kyoto", "the Lake District", "Barcelona", "Vancouver", "Prague", "Mexico City", "Iceland",
              "the Amalfi coast", "Seoul", "Yellowstone", "Edinburgh"],
    "n": ["two", "three", "four", "five", "six"],
    "days": ["three days", "a long weekend", "five days", "a week", "ten days", "two weeks"],
    "money": ["500 dollars", "1,200 euros", "300 pounds", "2,000 dollars", "800 euros", "a tight budget"],
    "diet": ["vegetarian", "low-carb", "dairy-free", "high-protein", "nut-free", "vegan", "kid-friendly"],
    "constraint": ["my night shifts", "school pickup at 3pm", "my physio on Thursdays", "a tight budget",
                   "my partner's travel", "the kids' swimming lessons", "my evening classes", "a broken car"],
    "plang": ["Python", "JavaScript", "TypeScript", "Go", "Rust", "Java", "C++", "Ruby", "Kotlin", "C#", "PHP"],
    "task": ["reverses a string", "checks if a number is prime", "reads a CSV and sums a column", "parses a date",
             "finds duplicate files", "flattens a nested list", "counts word frequencies", "retries an HTTP call",
             "validates a phone number", "computes a moving average", "renames photos by date", "merges two dicts"],
    "error": ["IndexError: list index out of range", "KeyError: 'id'", "undefined is not a function",
              "NullPointerException", "ModuleNotFoundError: No module named 'yaml'", "segmentation fault",
              "permission denied when running my script", "CORS error in the browser console", "borrow checker error"],
    "tool": ["git", "docker", "nginx", "systemd", "cron", "kubectl", "ssh", "make", "npm", "pip", "postgres"],
    "game": ["snake", "tic-tac-toe", "pong", "a memory card game", "breakout", "a quiz game", "minesweeper"],
    "data": ["my expenses", "my workouts", "my reading list", "my chores", "my medications", "my job applications",
             "my plants", "my habits", "my study hours", "my water intake", "my sleep", "my subscriptions"],
    "widget": ["checklist", "tracker", "dashboard", "card", "form", "table", "timer", "picker", "progress bar", "kanban board"],
    "ui_what": ["a countdown to my vacation", "a pomodoro timer", "a unit converter", "a mood tracker", "a color picker",
                "a tip calculator", "a stopwatch", "a currency converter", "a dice roller", "a grocery checklist"],
}

TEMPLATES: dict[str, list[str]] = {
    "L0": [
        "What is {topic}?", "Explain {topic} like I'm ten.", "Tell me a fun fact about {topic}.",
        "How do you say '{phrase}' in {lang}?", "Translate '{phrase}' into {lang}.",
        "Can you summarize the history of {topic} in a few sentences?", "Why does {topic} matter?",
        "Write a short poem about {thing}.", "Suggest a name for {thing}.", "Hello! How are you today?",
        "Thanks, that was really helpful.", "What can you do for me?", "Who are you?",
        "Rewrite this to sound more polite: send me the report now.", "Fix the grammar: me and him goes to the store yesterday.",
        "Summarize this: the meeting moved to Thursday and lunch will be provided.",
        "Remind me at 6pm to call {person}.", "Set a reminder to water the plants tomorrow morning.",
        "What did I say about {event} earlier?", "Is it true that {topic} affects the weather?",
        "Give me a word that means happy.", "What's the difference between {topic} and {thing}?",
        "Tell me a joke about {thing}.", "How tall is Mount Everest?", "What year did the Berlin Wall fall?",
        "Hmm, not sure what I need.", "Can you help me with something?", "Write a haiku about {topic}.",
        "What's the capital of Australia?", "How many minutes are in a day?", "Define the word 'serendipity'.",
        "Is a tomato a fruit or a vegetable?", "Recommend a classic novel to read.", "Make this sentence shorter: I am writing to let you know that I will be late.",
        "解释一下{topic}是什么。", "用{lang}怎么说'{phrase}'？", "你好，你能做什么？", "给我讲个笑话。",
        "What's a nice way to say no to an invitation?", "Describe the taste of {thing} in one line.",
        "Quick question: why is the sky blue?", "Note down that I like oat milk.", "Look up my note about {event}.",
    ],
    "L1": [
        "Plan a {days} trip to {place} for {n} people on {money}.", "Plan my week around {event} and {constraint}.",
        "Help me reschedule {event} because of {constraint}.", "Make a {diet} meal plan for {n} people for a week.",
        "Build me a monthly budget: rent 1,400, salary 3,800, and I want to save {money}.",
        "Draft a message to {person} asking to move {event} and propose two other times.",
        "Help me coordinate {event} with {person} given {constraint}.",
        "Organize a birthday party for {n} kids on {money} next Saturday.",
        "I have {event} and {event} on the same day; help me sort out the logistics.",
        "Write to {person} to negotiate a later deadline, explaining {constraint}.",
        "Create a study plan for my exams over {days} that fits around {constraint}.",
        "Help me split the household chores fairly between {n} people.",
        "Plan a {diet} grocery list and meals for {days} under {money}.",
        "My flight to {place} was cancelled; help me rebook, tell the hotel, and update my plans.",
        "Find a time for a family call across three time zones this weekend.",
        "Work out a savings plan to afford a trip to {place} in six months.",
        "Help me prepare for moving house next month: utilities, movers, and school change.",
        "Coordinate a carpool for {n} families for the school term.",
        "Plan my mother's visit for {days}, she can't climb stairs and loves museums.",
        "Help me balance {event}, my gym routine, and {constraint} this week.",
        "Draft an email to {person} to resolve a billing dispute and plan the follow-ups.",
        "Help me decide between two job offers considering commute, salary and childcare.",
        "Plan a surprise weekend for {person} in {place} on {money}.",
        "Schedule my medication reminders and doctor follow-ups for the next month.",
        "Organize a team dinner for {n} colleagues with different diets on {money}.",
        "Help me plan a {diet} diet for my dad after his surgery, with shopping and cooking days.",
        "I need to renew my passport before a trip to {place}; plan the steps and deadlines.",
        "Help me figure out a weekly schedule for the kids' activities and {constraint}.",
        "帮我安排下周的日程，周三有{event}，还要接孩子。", "帮我计划一次去{place}的{days}旅行，预算{money}。",
        "Plan the logistics for hosting {n} relatives over the holidays.",
        "Write a message to {person} about sharing costs for the trip to {place} and suggest a fair split.",
        "Help me cut my monthly spending by {money} and track it over the next quarter.",
        "Plan a wedding anniversary dinner and book a babysitter around {constraint}.",
        "Plan a weekend of errands: car service, pharmacy pickup and {event}.",
    ],
    "L2": [
        "Write a {plang} function that {task}.", "Write a {plang} script that {task}.",
        "How do I fix this {plang} error: {error}?", "Explain this error: {error}.",
        "Refactor this {plang} code to be cleaner: def f(a):\n  for i in range(len(a)): print(a[i])",
        "What does `{tool}` do and how do I use it to deploy my app?", "My {tool} command fails with {error}; what now?",
        "Write a SQL query that finds the top 5 customers by total orders.",
        "Write a unit test in {plang} for a function that {task}.", "Create a simple {game} game in HTML and JavaScript.",
        "Make a small web page with a contact form in HTML and CSS.", "How do I undo my last commit in git?",
        "Write a bash one-liner that {task}.", "Write a Dockerfile for a {plang} web service.",
        "Convert this Python loop to use map: result = []\nfor x in items: result.append(x * 3)",
        "Explain what this regex does: ^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{{2,}}$",
        "Write a GitHub Actions workflow that runs tests for a {plang} project.",
        "Why is my {plang} program so slow when it {task}?", "Implement a linked list in {plang}.",
        "Write a cron entry that backs up my home folder every night.", "Set up an nginx config that proxies to port 8000.",
        "What's the difference between a list and a tuple in Python?", "Add type hints to this function: def add(a, b): return a + b",
        "Write a YAML config for docker-compose with redis and a {plang} worker.",
        "Debug this: my React component re-renders forever.", "Write a CSS rule to center a div horizontally and vertically.",
        "Port this function from {plang} to Python: it {task}.", "Write a REST endpoint in {plang} that returns the current time.",
        "How do I resolve a merge conflict in git?", "Write a makefile with build, test and clean targets.",
        "Write a SQL migration that adds an index on users.email.", "用{plang}写一个函数，{task}。", "这段代码报错：{error}，怎么修？",
        "Optimize this SQL: SELECT * FROM orders WHERE YEAR(created) = 2024.", "Write a {plang} class for a bank account with deposit and withdraw.",
        "Write a shell script to rename all .txt files to .md.",
    ],
    "L3": [
        "Show {data} as a {widget}.", "Make a {widget} for {data}.", "Give me a {widget} to track {data}.",
        "Create {ui_what} panel for me.", "Build me {ui_what} widget here in the app.", "Show me {ui_what}.",
        "Display {data} as cards with an edit button.", "Render {data} as a table I can sort.",
        "Put {data} in a checklist I can tick off.", "Make a form to log {data}.", "Show a progress dashboard for {data}.",
        "Create an interactive card showing today's weather and my first meeting.",
        "Give me a picker to choose a restaurant for tonight.", "Show a timer I can start and pause.",
        "Make a kanban board for my home renovation tasks.", "Turn {data} into a chart with filters.",
        "Create a card with a countdown to {event}.", "Show my week as a calendar view with {event} highlighted.",
        "Build a small panel with sliders to set my daily goals.", "Give me a form with a date field and a notes box for {event}.",
        "Display {data} grouped by category with toggles.", "Make an editable table of {data}.",
        "Show a poll card to pick a date for {event}.", "Create a widget that shows {data} with a +1 button.",
        "把{data}做成一个表格。", "给我一个可以勾选的清单，内容是{data}。", "做一个倒计时卡片，倒数到{event}。",
        "Show a tracker with one checkbox per day for {data}.", "Lay out {data} as a dashboard with three tiles.",
        "Give me {ui_what} with big buttons.", "Show {data} as a list with a delete button on each row.",
        "Make a settings panel with switches for {data}.", "Present {data} as a timeline view.",
    ],
}


def _expand(template: str, rng: random.Random) -> str:
    return re.sub(r"\{([a-z_]+)\}", lambda m: rng.choice(POOLS[m.group(1)]), template)


def _held_out(index: int) -> bool:
    return index % 6 == 5


def requests(split: str, *, per_slot: int = 320, seed: int = 7) -> Iterator[dict]:
    """Yield {"text", "slot"} rows for `train` or `heldout` (templates never shared between them)."""
    if split not in ("train", "heldout"):
        raise ValueError(f"split must be train or heldout, not {split!r}")
    rng = random.Random(f"{seed}:{split}")
    for slot, templates in TEMPLATES.items():
        chosen = [t for i, t in enumerate(templates) if _held_out(i) == (split == "heldout")]
        want = per_slot if split == "train" else max(20, per_slot // 6)
        seen: set[str] = set()
        attempts = 0
        while len(seen) < want and attempts < want * 50:
            attempts += 1
            text = _expand(rng.choice(chosen), rng)
            if text not in seen:
                seen.add(text)
                yield {"text": text, "slot": slot}
