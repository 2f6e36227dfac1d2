"""The attribute pool: the 25 categories of the ZebraLogic paper (Appendix B), ten values each,
and the English noun phrase that names "the person with value v" for each category.

Values are distinct across all categories (no "Alice" both as a name and as a child's name), so
every clue reads unambiguously; phrases are checked English ("bouquet", "whose child is named").
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import certify


@dataclass(frozen=True)
class Attribute:
    name: str  # as in the answer JSON, e.g. "Drink"
    intro: str  # "Each person has a unique favorite drink"
    phrase: str  # "the person who drinks {v}"
    values: tuple[str, ...]

    def who(self, v: str) -> str:
        return self.phrase.format(v=v)


def _a(name: str, intro: str, phrase: str, values: str) -> Attribute:
    return Attribute(name, intro, phrase, tuple(x.strip() for x in values.split(",")))


ATTRIBUTES: tuple[Attribute, ...] = (
    _a(
        "Name",
        "Each person has a unique name",
        "{v}",
        "Eric, Peter, Arnold, Bob, Alice, Carol, Daniel, Emma, Frank, Grace",
    ),
    _a(
        "Color",
        "Each person has a unique favorite color",
        "the person who loves {v}",
        "red, green, blue, yellow, white, purple, orange, pink, brown, gray",
    ),
    _a(
        "Nationality",
        "Each person has a unique nationality",
        "the {v}",
        "Norwegian, Dane, Brit, German, Swede, Spaniard, Italian, Dutchman, Pole, Greek",
    ),
    _a(
        "Animal",
        "Each person keeps a unique kind of animal",
        "the person who keeps {v}",
        "horses, zebras, snails, birds, bees, goats, sheep, chickens, ducks, llamas",
    ),
    _a(
        "Drink",
        "Each person has a unique favorite drink",
        "the person who drinks {v}",
        "water, milk, tea, coffee, juice, beer, lemonade, soda, cocoa, wine",
    ),
    _a(
        "Cigar",
        "Each person smokes a unique brand of cigar",
        "the person who smokes {v}",
        "Dunhill, Blue Master, Pall Mall, Prince, Blends, Cohiba, Montecristo, Romeo y Julieta, Davidoff, Partagas",
    ),
    _a(
        "Food",
        "Each person has a unique favorite food",
        "the person whose favorite food is {v}",
        "pizza, sushi, tacos, pasta, curry, stew, salad, soup, burgers, dumplings",
    ),
    _a(
        "Flower",
        "Each person has a unique favorite flower",
        "the person who loves a bouquet of {v}",
        "roses, tulips, lilies, daisies, orchids, carnations, sunflowers, irises, peonies, violets",
    ),
    _a(
        "PhoneModel",
        "Each person uses a unique phone model",
        "the person who uses a {v}",
        "iPhone 13, Pixel 6, Galaxy S21, OnePlus 9, Xperia 5, Moto G, Nokia X20, Redmi Note 10, Zenfone 8, Huawei P50",
    ),
    _a(
        "Children",
        "Each person has a child with a unique name",
        "the person whose child is named {v}",
        "Bella, Fred, Meredith, Samantha, Timothy, Oliver, Ruby, Leo, Nora, Kevin",
    ),
    _a(
        "Smoothie",
        "Each person has a unique favorite smoothie",
        "the person who likes {v} smoothies",
        "cherry, desert, dragonfruit, lime, watermelon, blueberry, mango, strawberry, banana, kiwi",
    ),
    _a(
        "Birthday",
        "Each person has a birthday in a unique month",
        "the person born in {v}",
        "January, February, March, April, May, June, July, August, September, October",
    ),
    _a(
        "Occupation",
        "Each person has a unique occupation",
        "the {v}",
        "doctor, engineer, teacher, artist, lawyer, nurse, chef, pilot, farmer, writer",
    ),
    _a(
        "Height",
        "Each person has a unique height",
        "the person who is {v} tall",
        "150 cm, 155 cm, 160 cm, 165 cm, 170 cm, 175 cm, 180 cm, 185 cm, 190 cm, 195 cm",
    ),
    _a(
        "CarModel",
        "Each person drives a unique car model",
        "the person who drives a {v}",
        "Tesla Model 3, Ford F-150, Toyota Camry, BMW 3 Series, Honda Civic, Audi A4, Kia Soul, Mazda 3, Volvo XC60, Subaru Outback",
    ),
    _a(
        "FavoriteSport",
        "Each person has a unique favorite sport",
        "the person who plays {v}",
        "soccer, tennis, basketball, baseball, volleyball, hockey, golf, cricket, rugby, badminton",
    ),
    _a(
        "MusicGenre",
        "Each person has a unique favorite music genre",
        "the person who loves {v} music",
        "rock, jazz, pop, classical, hip-hop, country, blues, reggae, folk, metal",
    ),
    _a(
        "BookGenre",
        "Each person has a unique favorite book genre",
        "the person who reads {v} books",
        "mystery, fantasy, romance, science fiction, biography, history, poetry, horror, travel, culinary",
    ),
    _a(
        "HairColor",
        "Each person has a unique hair color",
        "the person with {v} hair",
        "black, blonde, auburn, chestnut, silver, copper, platinum, ginger, jet-black, strawberry-blond",
    ),
    _a(
        "Mother",
        "Each person has a mother with a unique name",
        "the person whose mother is named {v}",
        "Holly, Janelle, Kailyn, Aniya, Sarah, Penny, Tamara, Yolanda, Beatrice, Miriam",
    ),
    _a(
        "HouseStyle",
        "Each person lives in a house of a unique style",
        "the person living in a {v} house",
        "colonial, Victorian, ranch, craftsman, modern, Tudor, Mediterranean, cottage, farmhouse, Gothic",
    ),
    _a(
        "Education",
        "Each person has a unique level of education",
        "the person with a {v}",
        "high school diploma, bachelor's degree, master's degree, doctorate, associate's degree, trade school certificate, "
        "MBA, law degree, medical degree, teaching certificate",
    ),
    _a(
        "Hobby",
        "Each person has a unique hobby",
        "the person who enjoys {v}",
        "photography, cooking, gardening, painting, knitting, hiking, fishing, chess, pottery, woodworking",
    ),
    _a(
        "Vacation",
        "Each person prefers a unique kind of vacation",
        "the person who prefers {v} vacations",
        "beach, mountain, city, cruise, camping, cultural, ski, safari, road trip, island",
    ),
    _a(
        "Pet",
        "Each person owns a unique pet",
        "the person who owns a pet {v}",
        "cat, dog, hamster, rabbit, guinea pig, ferret, turtle, parrot, lizard, goldfish",
    ),
)

BY_NAME = {a.name: a for a in ATTRIBUTES}
certify(
    len(ATTRIBUTES) == 25 and all(len(a.values) >= 10 for a in ATTRIBUTES),
    "len(ATTRIBUTES) == 25 and all(len(a.values) >= 10 for a in ATTRIBUTES)",
)
_ALL = [v for a in ATTRIBUTES for v in a.values]
certify(len(_ALL) == len(set(_ALL)), "values must be distinct across categories")
