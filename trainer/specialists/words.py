"""Our own word lists for the L0/L1 templates: things to be reminded of, notes, facts about a person.

Written for this project (no benchmark text). Each list is long enough that
held-out templates meet mostly unseen combinations.
"""

from __future__ import annotations

TASKS = (
    "call the dentist", "pay the electricity bill", "water the plants", "pick up the kids from school",
    "take my medication", "send the report to Sara", "buy a birthday present for Tom", "renew my passport",
    "book a haircut", "call my mother", "take the bins out", "check the oven", "submit the expense claim",
    "feed the cat", "return the library books", "move the car", "stretch", "book the restaurant",
    "email the landlord", "order more coffee", "charge my laptop", "back up my photos", "call the bank",
    "pick up the dry cleaning", "walk the dog", "confirm the flight", "pay the rent", "text Jamie back",
    "buy milk", "start the laundry", "prepare the slides", "cancel the gym trial", "reply to Ana",
    "go to the pharmacy", "check the tyre pressure", "sign the school form", "call the plumber",
    "pack my gym bag", "defrost the chicken", "update my CV", "water the garden", "book a vet appointment",
    "print the tickets", "collect the parcel", "phone grandma", "review the contract", "pay the phone bill",
    "join the team call", "lock the shed", "buy flowers for Mia",
)

APPOINTMENTS = (
    "the dentist appointment", "a meeting with my manager", "the school play", "my physio session",
    "the parents' evening", "a call with the accountant", "the team stand-up", "lunch with Ana",
    "the haircut", "my flight check-in", "the vet appointment", "the yoga class", "a job interview",
    "the car service", "the piano lesson", "dinner with Sam", "the doctor's appointment", "the client demo",
    "the football match", "the book club",
)

NOTE_FACTS = (
    ("plumber", "the plumber comes on Friday at 10"), ("wifi", "the wifi password is BlueHarbor42"),
    ("gate code", "the gate code for the allotment is 4471"), ("Ana's birthday", "Ana's birthday is on 14 March"),
    ("bike lock", "the bike lock combination is 0912"), ("parking", "I parked on level 3, space 27"),
    ("paint colour", "the living room paint is Farrow Ash No. 5"), ("boiler", "the boiler was serviced in October"),
    ("insurance", "the car insurance renews on 2 May"), ("recipe", "grandma's soup needs two leeks and a bay leaf"),
    ("gift ideas", "gift ideas for Tom: a chess set or running socks"), ("locker", "my gym locker is number 112"),
    ("doctor", "Dr Patel's surgery number is 0161 555 0199"), ("shoe size", "Mia's shoe size is 31"),
    ("books", "books to read: Piranesi and The Dispossessed"), ("window", "the window cleaner comes every other Tuesday"),
    ("meter", "the gas meter reading was 4521 in November"), ("neighbour", "the neighbour at number 8 has our spare key"),
    ("train", "the 7:42 train is usually on platform 2"), ("tyres", "the front tyres were replaced in June"),
    ("vaccinations", "the dog's vaccinations are due in April"), ("fridge", "the fridge filter is model WF-22"),
    ("pin", "the office printer PIN is 3308"), ("hotel", "the hotel booking reference is KX7731"),
    ("seeds", "sow the tomato seeds in early March"), ("tax", "the tax return deadline is 31 January"),
)

PERSON_FACTS = (  # (what, question word, value, how it is said)
    ("dog", "called", "Biscuit", "my dog is called {v}"), ("cat", "called", "Pepper", "my cat is called {v}"),
    ("sister", "called", "Lena", "my sister is called {v}"), ("partner", "called", "Jonas", "my partner is called {v}"),
    ("favourite fruit", "", "mango", "my favourite fruit is {v}"), ("favourite colour", "", "green", "my favourite colour is {v}"),
    ("hometown", "", "Porto", "my hometown is {v}"), ("job", "", "a nurse", "my job is {v}"),
    ("son", "called", "Leo", "my son is called {v}"), ("daughter", "called", "Ada", "my daughter is called {v}"),
    ("favourite band", "", "Radiohead", "my favourite band is {v}"), ("car", "", "a blue Fiat", "my car is {v}"),
    ("allergy", "", "peanuts", "I am allergic to {v}"), ("birthday", "", "12 July", "my birthday is on {v}"),
    ("boss", "called", "Ingrid", "my boss is called {v}"), ("best friend", "called", "Omar", "my best friend is called {v}"),
    ("favourite food", "", "ramen", "my favourite food is {v}"), ("team", "", "Celtic", "my football team is {v}"),
    ("blood type", "", "O negative", "my blood type is {v}"), ("shoe size", "", "42", "my shoe size is {v}"),
)

VALUES = {  # other values for the same facts, so the model copies from the tail instead of memorising
    "dog": ("Rufus", "Mochi", "Hazel", "Bruno", "Pip"), "cat": ("Luna", "Milo", "Tiger", "Olive"),
    "sister": ("Clara", "Noor", "Bea", "Yuki"), "partner": ("Sam", "Priya", "Tomas", "Elif"),
    "favourite fruit": ("kiwi", "cherries", "figs", "pears"), "favourite colour": ("yellow", "navy blue", "orange"),
    "hometown": ("Leeds", "Lyon", "Gdansk", "Cork"), "job": ("a teacher", "an engineer", "a chef", "a pilot"),
    "son": ("Max", "Ravi", "Theo", "Finn"), "daughter": ("Iris", "Zoe", "Maya", "Nell"),
    "favourite band": ("Blur", "ABBA", "Khruangbin"), "car": ("a red Golf", "a grey Prius", "an old Volvo"),
    "allergy": ("shellfish", "pollen", "penicillin"), "birthday": ("3 March", "28 November", "9 June"),
    "boss": ("Marco", "Helen", "Kofi"), "best friend": ("Jess", "Ahmed", "Lucia"),
    "favourite food": ("paella", "dumplings", "lasagne"), "team": ("Ajax", "Everton", "Boca Juniors"),
    "blood type": ("A positive", "B negative", "AB positive"), "shoe size": ("38", "44", "39"),
}
