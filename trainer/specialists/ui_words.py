"""Our own word lists for the L3 (Generative UI) templates.

Written for this project (no benchmark or public data set text). Every string
is short ASCII so that, capitalised, it fits the generation grammar's
48-character strings; each pool is long enough that a held-out template meets
mostly unseen combinations.
"""

from __future__ import annotations

# (how the user says it, the title the view gets) -> things one packs
TRIPS: dict[tuple[str, str], tuple[str, ...]] = {
    ("a ski trip", "Ski trip"): ("gloves", "goggles", "helmet", "thermal socks", "ski pass", "lip balm", "neck warmer"),
    ("a beach holiday", "Beach holiday"): ("swimsuit", "sunscreen", "towel", "sunglasses", "flip-flops", "sun hat"),
    ("a camping weekend", "Camping weekend"): ("tent", "sleeping bag", "head torch", "matches", "camping stove",
                                               "bug spray", "water filter"),
    ("a business trip", "Business trip"): ("laptop", "charger", "suit", "notebook", "business cards", "travel adapter"),
    ("a day hike", "Day hike"): ("water bottle", "rain jacket", "map", "trail snacks", "first aid kit", "compass"),
    ("a city break in Rome", "Rome city break"): ("walking shoes", "camera", "power bank", "guidebook", "umbrella",
                                                  "museum tickets"),
    ("a music festival", "Festival"): ("earplugs", "wristband", "poncho", "power bank", "cash", "wet wipes"),
    ("a trip with the baby", "Trip with the baby"): ("nappies", "wipes", "bottles", "blanket", "spare clothes", "pram"),
    ("a fishing trip", "Fishing trip"): ("rod", "bait", "tackle box", "waders", "cooler", "fishing licence"),
    ("a wedding weekend", "Wedding weekend"): ("suit", "dress shoes", "gift", "card", "hair dryer", "tie"),
    ("a winter cabin stay", "Cabin stay"): ("wool jumper", "board games", "firewood", "slippers", "hot chocolate"),
}

GROCERIES = ("eggs", "milk", "bread", "butter", "apples", "bananas", "rice", "pasta", "coffee", "tea", "cheese",
             "tomatoes", "onions", "garlic", "yogurt", "chicken", "spinach", "oats", "lemons", "olive oil", "carrots",
             "peppers", "flour", "honey", "tofu", "beans", "cucumber", "orange juice")

TODO_DAYS = (("today", "Today"), ("tomorrow", "Tomorrow"), ("Saturday", "Saturday"), ("Monday", "Monday"),
             ("the weekend", "Weekend"), ("this week", "This week"))
TODOS = ("call the plumber", "pay rent", "book flights", "reply to emails", "clean the fridge", "water the plants",
         "buy stamps", "renew insurance", "fix the bike", "post the parcel", "back up photos", "send the invoice",
         "book a haircut", "return library books", "call grandma", "order printer ink", "clean the car",
         "update my CV", "pick up the dry cleaning", "pay the gas bill")

ROUTINES: dict[tuple[str, str], tuple[str, ...]] = {
    ("morning", "Morning routine"): ("drink water", "stretch", "make the bed", "shower", "breakfast", "check calendar"),
    ("evening", "Evening routine"): ("tidy kitchen", "set alarm", "read", "lay out clothes", "brush teeth", "journal"),
    ("kids' bedtime", "Bedtime routine"): ("bath", "pyjamas", "brush teeth", "story", "lights out"),
    ("workday start", "Workday start"): ("check email", "plan the day", "stand-up", "review tasks", "fill water"),
    ("Sunday reset", "Sunday reset"): ("meal prep", "laundry", "plan the week", "clean the desk", "long walk"),
}

EVENTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("my birthday party", "Birthday party"): ("balloons", "cake", "invitations", "playlist", "snacks", "candles"),
    ("a job interview", "Job interview"): ("printed CV", "directions", "outfit", "questions to ask", "portfolio"),
    ("the marathon", "Marathon day"): ("bib number", "energy gels", "running shoes", "charged watch", "safety pins"),
    ("Thanksgiving dinner", "Thanksgiving"): ("turkey", "stuffing", "cranberry sauce", "pies", "extra chairs"),
    ("the house viewing", "House viewing"): ("questions list", "tape measure", "ID", "mortgage letter"),
    ("the exam", "Exam day"): ("pens", "calculator", "student card", "water", "ruler"),
    ("the school trip", "School trip"): ("packed lunch", "consent form", "raincoat", "bus money"),
}

CHORES = ("vacuum", "dishes", "laundry", "mop the floor", "clean the bathroom", "take out recycling", "dust shelves",
          "change the sheets", "wipe the counters", "clean windows", "descale the kettle", "empty the bins")

MOVING = ("book the van", "pack boxes", "redirect mail", "cancel internet", "label boxes", "defrost the freezer",
          "take meter readings", "hand back keys", "update my address", "measure the sofa")

DISHES: dict[str, tuple[str, ...]] = {
    "pancakes": ("flour", "eggs", "milk", "butter", "sugar", "salt"),
    "guacamole": ("avocados", "lime", "red onion", "coriander", "chili", "salt"),
    "tomato pasta": ("pasta", "tomatoes", "garlic", "basil", "olive oil", "parmesan"),
    "banana bread": ("bananas", "flour", "eggs", "butter", "brown sugar", "baking soda"),
    "stir fry": ("noodles", "peppers", "soy sauce", "ginger", "garlic", "broccoli"),
    "chili": ("kidney beans", "mince", "chopped tomatoes", "onion", "chili powder", "cumin"),
    "green smoothie": ("spinach", "banana", "almond milk", "chia seeds", "mango"),
}

SUBJECTS: dict[str, tuple[str, ...]] = {
    "biology": ("cells", "genetics", "evolution", "ecology", "photosynthesis", "enzymes"),
    "history": ("the Tudors", "World War One", "the Cold War", "the Romans", "the Industrial Revolution"),
    "chemistry": ("acids", "bonding", "moles", "electrolysis", "the periodic table", "rates"),
    "maths": ("algebra", "geometry", "fractions", "probability", "statistics", "vectors"),
    "Spanish": ("verbs", "numbers", "food words", "past tense", "greetings", "directions"),
    "physics": ("forces", "waves", "electricity", "energy", "magnetism", "optics"),
}

# subject -> (title, columns in a sensible order)
TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "budget": ("Budget", ("category", "amount", "due date", "paid")),
    "reading list": ("Reading list", ("title", "author", "status", "rating")),
    "workout log": ("Workout log", ("day", "exercise", "sets", "reps", "weight")),
    "plant care": ("Plant care", ("plant", "water every", "light", "last watered")),
    "subscriptions": ("Subscriptions", ("service", "price", "renewal date", "shared with")),
    "job applications": ("Job applications", ("company", "role", "status", "date applied", "contact")),
    "medication": ("Medication", ("medicine", "dose", "time", "with food")),
    "contacts": ("Contacts", ("name", "phone", "email", "birthday")),
    "meal plan": ("Meal plan", ("day", "breakfast", "lunch", "dinner")),
    "travel itinerary": ("Itinerary", ("date", "city", "hotel", "notes")),
    "shared expenses": ("Shared expenses", ("date", "item", "amount", "paid by")),
    "chore rota": ("Chore rota", ("chore", "person", "day")),
}

# (what the rows are, title, first column, second column, rows)
PAIRS: tuple[tuple[str, str, str, str, tuple[tuple[str, str], ...]], ...] = (
    ("books and their authors", "Books", "book", "author",
     (("Dune", "Frank Herbert"), ("Emma", "Jane Austen"), ("Beloved", "Toni Morrison"), ("Dracula", "Bram Stoker"),
      ("The Hobbit", "Tolkien"), ("Middlemarch", "George Eliot"))),
    ("chores and who does them", "Chores", "chore", "person",
     (("dishes", "Sam"), ("laundry", "Alex"), ("bins", "Priya"), ("hoovering", "Jo"), ("cooking", "Lee"),
      ("shopping", "Mia"))),
    ("my week of training", "Training week", "day", "activity",
     (("Monday", "yoga"), ("Tuesday", "swimming"), ("Wednesday", "rest"), ("Thursday", "running"),
      ("Friday", "climbing"), ("Saturday", "cycling"))),
    ("plants and how often to water them", "Watering", "plant", "water",
     (("basil", "daily"), ("cactus", "monthly"), ("fern", "twice a week"), ("orchid", "weekly"),
      ("aloe", "every two weeks"), ("mint", "every other day"))),
    ("cafe items and prices", "Cafe prices", "item", "price",
     (("coffee", "3.50"), ("bagel", "2.20"), ("juice", "4.00"), ("muffin", "2.80"), ("tea", "2.00"),
      ("toastie", "5.50"))),
    ("family birthdays", "Birthdays", "name", "birthday",
     (("Mum", "12 May"), ("Tom", "3 August"), ("Aunt Rosa", "19 June"), ("Grandpa", "1 March"),
      ("Lily", "30 October"))),
    ("cities and their countries", "Cities", "city", "country",
     (("Lisbon", "Portugal"), ("Kyoto", "Japan"), ("Oslo", "Norway"), ("Lima", "Peru"), ("Accra", "Ghana"),
      ("Hanoi", "Vietnam"))),
)

# form purpose -> (title, input field labels)
FORMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "contact": ("Contact us", ("name", "email", "phone", "message", "company")),
    "bug report": ("Bug report", ("title", "steps", "expected result", "actual result")),
    "address": ("Address", ("street", "city", "postcode", "country")),
    "guest book": ("Guest book", ("name", "message", "hometown")),
    "feedback": ("Feedback", ("name", "comment", "suggestion")),
    "table booking": ("Table booking", ("name", "date", "time", "party size")),
    "weight log": ("Weight log", ("date", "weight", "note")),
    "expense": ("Expense", ("amount", "description", "date", "shop")),
    "job application": ("Job application", ("full name", "email", "portfolio link", "start date")),
    "pet profile": ("Pet profile", ("pet name", "breed", "age", "vet")),
    "volunteer sign-up": ("Volunteer sign-up", ("name", "email", "availability", "skills")),
}
PRIVATE_FORMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "journal": ("Journal", ("date", "entry", "mood", "grateful for")),
    "therapy notes": ("Therapy notes", ("date", "topic", "feelings", "next steps")),
    "symptom diary": ("Symptom diary", ("date", "symptom", "severity", "medication taken")),
    "password hint": ("Password hints", ("site", "username", "hint")),
    "dream diary": ("Dream diary", ("date", "dream", "people in it")),
}
# dropdown field -> options
CHOICES: dict[str, tuple[str, ...]] = {
    "priority": ("low", "medium", "high", "urgent"),
    "size": ("small", "medium", "large"),
    "meal": ("meat", "fish", "vegetarian", "vegan"),
    "category": ("food", "transport", "rent", "fun", "bills"),
    "severity": ("minor", "major", "critical"),
    "rating": ("poor", "okay", "good", "great"),
    "delivery": ("standard", "express", "pickup"),
    "shirt size": ("S", "M", "L", "XL"),
    "room type": ("single", "double", "suite"),
    "department": ("sales", "support", "billing"),
    "frequency": ("daily", "weekly", "monthly"),
}
SWITCHES = ("newsletter", "remember me", "attending", "plus one", "gift wrap", "urgent", "public", "reminders by email",
            "subscribe", "terms accepted")
SETTINGS = ("dark mode", "notifications", "sounds", "auto-save", "location", "vibration", "two-factor login",
            "large text", "spell check", "offline mode")

# timer purpose -> (label, typical minutes)
TIMERS: dict[str, tuple[str, tuple[int, ...]]] = {
    "pomodoro": ("Pomodoro", (25, 30, 45, 50)),
    "tea": ("Tea", (3, 4, 5)),
    "boiled egg": ("Boiled egg", (6, 7, 9, 10)),
    "pasta": ("Pasta", (9, 10, 11, 12)),
    "meditation": ("Meditation", (5, 10, 15, 20)),
    "break": ("Break", (5, 10, 15)),
    "study": ("Study", (30, 40, 50, 60)),
    "nap": ("Nap", (15, 20, 25, 30)),
    "bread proving": ("Proving", (45, 60, 90)),
    "laundry": ("Laundry", (40, 55, 60, 75)),
    "reading": ("Reading", (15, 20, 30)),
    "focus": ("Focus", (20, 25, 40, 90)),
}
EXERCISES = ("plank", "wall sit", "jumping jacks", "stretching", "burpees", "breathing", "skipping", "side plank")
EXERCISE_SECONDS = (20, 30, 40, 45, 60, 90)
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
                10: "ten", 11: "eleven", 12: "twelve", 15: "fifteen", 20: "twenty", 25: "twenty-five", 30: "thirty",
                40: "forty", 45: "forty-five", 50: "fifty", 60: "sixty", 90: "ninety"}

# tracker -> (view title, unit, the bar's label, possible goals)
TRACKERS: dict[str, tuple[str, str, str, tuple[int, ...]]] = {
    "water": ("Water", "glasses", "Glasses of water", (6, 8, 10)),
    "steps": ("Steps", "steps", "Steps", (5000, 8000, 10000, 12000)),
    "reading": ("Reading", "pages", "Pages read", (120, 250, 300, 420)),
    "savings": ("Savings", "dollars", "Dollars saved", (500, 1000, 2500, 5000)),
    "running": ("Running", "km", "Kilometres run", (20, 42, 50, 100)),
    "push-up": ("Push-ups", "push-ups", "Push-ups done", (20, 50, 100)),
    "study": ("Study", "hours", "Hours studied", (10, 20, 40)),
    "fruit and veg": ("Fruit and veg", "portions", "Portions eaten", (5, 7)),
    "writing": ("Writing", "words", "Words written", (500, 1000, 2000)),
}
# slider -> (label, min, max)
SLIDERS: dict[str, tuple[str, int, int]] = {
    "volume": ("Volume", 0, 100),
    "brightness": ("Brightness", 0, 10),
    "rating": ("Rating", 1, 5),
    "thermostat": ("Temperature", 16, 28),
    "mood": ("Mood", 1, 10),
    "pain level": ("Pain level", 0, 10),
    "spice level": ("Spice level", 1, 5),
    "difficulty": ("Difficulty", 1, 10),
    "budget": ("Budget", 0, 500),
    "energy": ("Energy", 1, 10),
}

# what is picked -> (label, options)
PICKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "tonight's dinner": ("Tonight's dinner", ("pizza", "curry", "salad", "tacos", "sushi", "soup")),
    "a movie genre": ("Movie genre", ("comedy", "horror", "drama", "sci-fi", "documentary")),
    "the team lunch venue": ("Team lunch", ("the Thai place", "the deli", "the burger bar", "the canteen")),
    "a colour for the bedroom": ("Bedroom colour", ("sage green", "warm white", "navy", "terracotta")),
    "a weekend activity": ("Weekend activity", ("hiking", "museum", "cinema", "board games", "picnic")),
    "today's workout": ("Workout", ("yoga", "running", "swimming", "weights", "cycling")),
    "a holiday destination": ("Holiday", ("Lisbon", "Crete", "Kyoto", "Iceland", "Marrakech")),
    "a board game": ("Board game", ("chess", "Catan", "Scrabble", "Monopoly", "Dixit")),
    "my coffee order": ("Coffee order", ("latte", "flat white", "espresso", "cappuccino", "mocha")),
    "a pizza topping": ("Pizza topping", ("mushrooms", "pepperoni", "olives", "peppers", "pineapple")),
    "a dog name": ("Dog name", ("Pepper", "Biscuit", "Luna", "Milo", "Olive")),
}

# card title -> lines it may show
CARDS: dict[str, tuple[str, ...]] = {
    "Today": ("dentist at 3pm", "gym at 6", "call Mum", "buy bread", "finish the report", "pick up Leo at 4"),
    "Reminder": ("bins go out on Tuesday", "passport expires in May", "water the ferns", "car MOT next week"),
    "Quote of the day": ("one step at a time", "done is better than perfect", "be kind to yourself"),
    "Wi-Fi": ("network: Home5G", "password is on the fridge", "guest network: Visitors"),
    "Weekend plan": ("Saturday market", "Sunday brunch with Ana", "clean the garage", "film night"),
    "House rules": ("shoes off inside", "no phones at dinner", "lights off by ten", "feed the cat first"),
    "Trip info": ("flight at 7:40", "gate closes 7:10", "hotel check-in at 3", "taxi booked"),
    "Goals": ("run a 10k", "read twelve books", "learn to bake bread", "save for a bike"),
}
MEETINGS = ("team meeting", "project kickoff", "board review", "1:1 with Dana", "design review", "retro")
MEETING_POINTS = ("budget approved", "launch in May", "Sam owns QA", "hire one dev", "demo on Friday", "move to Slack",
                  "freeze on the 9th", "new logo ok")

# tabs: (how the user calls them, tab label, items)
TAB_LISTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("work", "Work", ("emails", "report", "team call", "invoices", "slides")),
    ("home", "Home", ("dishes", "laundry", "groceries", "bins", "plants")),
    ("school", "School", ("homework", "permission slip", "PE kit", "library book")),
    ("garden", "Garden", ("mow the lawn", "weed beds", "prune roses", "water pots")),
    ("errands", "Errands", ("post office", "bank", "pharmacy", "key cutting")),
    ("car", "Car", ("oil check", "tyre pressure", "car wash", "insurance")),
)
GRID_LABELS = (("today", "tomorrow", "later"), ("to do", "doing", "done"), ("morning", "afternoon", "evening"),
               ("urgent", "soon", "someday"), ("breakfast", "lunch", "dinner"), ("Monday", "Wednesday", "Friday"),
               ("ideas", "in progress", "finished"))
GIFT_PEOPLE = (("my dad", "Gifts for Dad"), ("my sister", "Gifts for my sister"), ("a coworker", "Coworker gift"),
               ("my best friend", "Gifts for my friend"), ("the kids", "Gifts for the kids"))
GIFTS = ("scarf", "book", "board game", "candles", "plant", "headphones", "socks", "coffee beans", "puzzle",
         "chocolate", "mug", "concert tickets")
