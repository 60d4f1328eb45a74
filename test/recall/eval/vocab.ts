// The pools the generator draws from: people, places, pets, jobs, hobbies and the other
// things two friends tell each other about over months of chats. Written for this project.

/** A first name, its short form (what the friend calls them in greetings) and pronouns. */
export interface Person {
  name: string;
  short: string;
  they: "he" | "she";
}

const p = (name: string, short: string, they: "he" | "she"): Person => ({ name, short, they });

export const PEOPLE: readonly Person[] = [
  p("Caroline", "Caro", "she"),
  p("Melanie", "Mel", "she"),
  p("Jonathan", "Jon", "he"),
  p("Gina", "Gina", "she"),
  p("Deborah", "Deb", "she"),
  p("Nathaniel", "Nate", "he"),
  p("Andrew", "Andy", "he"),
  p("Audrey", "Audrey", "she"),
  p("Joanna", "Jo", "she"),
  p("Timothy", "Tim", "he"),
  p("Evangeline", "Evie", "she"),
  p("Samuel", "Sam", "he"),
  p("Maria", "Maria", "she"),
  p("Jolene", "Jo", "she"),
  p("Calvin", "Cal", "he"),
  p("Priya", "Priya", "she"),
  p("Tobias", "Toby", "he"),
  p("Rosalind", "Ros", "she"),
  p("Marcus", "Marc", "he"),
  p("Isabel", "Izzy", "she"),
  p("Benjamin", "Ben", "he"),
  p("Harriet", "Hattie", "she"),
  p("Daniel", "Dan", "he"),
  p("Yuki", "Yuki", "she"),
  p("Oliver", "Ollie", "he"),
  p("Beatrice", "Bea", "she"),
  p("Theodore", "Theo", "he"),
  p("Fatima", "Fati", "she"),
  p("Gabriel", "Gabe", "he"),
  p("Lucia", "Lu", "she"),
  p("Matthew", "Matt", "he"),
  p("Nadia", "Nadia", "she"),
  p("Patrick", "Pat", "he"),
  p("Elena", "Ellie", "she"),
  p("Victor", "Vic", "he"),
  p("Zoe", "Zoe", "she"),
];

/** Relatives the speakers mention, with the word the question may use instead. */
export const RELATIVES: readonly { word: string; also: string; they: "he" | "she" }[] = [
  { word: "sister", also: "sibling", they: "she" },
  { word: "brother", also: "sibling", they: "he" },
  { word: "cousin", also: "cousin", they: "she" },
  { word: "aunt", also: "relative", they: "she" },
  { word: "uncle", also: "relative", they: "he" },
  { word: "best friend", also: "closest friend", they: "she" },
  { word: "roommate", also: "flatmate", they: "he" },
  { word: "grandmother", also: "grandma", they: "she" },
];

export const OTHER_NAMES = [
  "Lucinda",
  "Tomasz",
  "Rafael",
  "Ingrid",
  "Kwame",
  "Soren",
  "Anika",
  "Mateo",
  "Delphine",
  "Ravi",
  "Greta",
  "Ossian",
  "Leonie",
  "Bashir",
  "Carmen",
  "Dmitri",
  "Imogen",
  "Kenji",
  "Marisol",
  "Pieter",
  "Ayesha",
  "Fergus",
  "Ottilie",
  "Hamid",
];

export const PETS: readonly { species: string; young: string; also: string; breeds: string[] }[] = [
  {
    species: "dog",
    young: "puppy",
    also: "pup",
    breeds: ["golden retriever", "beagle", "corgi", "border collie", "dachshund", "husky", "labrador"],
  },
  { species: "cat", young: "kitten", also: "cat", breeds: ["tabby", "siamese", "maine coon", "ragdoll", "bengal"] },
  { species: "rabbit", young: "bunny", also: "rabbit", breeds: ["lop-eared", "dutch", "lionhead"] },
  { species: "parrot", young: "parrot", also: "bird", breeds: ["african grey", "cockatiel", "budgie"] },
];
export const PET_NAMES = [
  "Luna",
  "Biscuit",
  "Pepper",
  "Oscar",
  "Mochi",
  "Juniper",
  "Ziggy",
  "Clover",
  "Bandit",
  "Nutmeg",
  "Pickles",
  "Waffles",
  "Hazel",
  "Milo",
  "Sprout",
  "Toffee",
  "Indigo",
  "Marble",
  "Noodle",
  "Basil",
  "Rocket",
  "Olive",
  "Tofu",
  "Pretzel",
];
export const PET_HABITS = [
  "chasing the vacuum cleaner",
  "sleeping in the laundry basket",
  "stealing socks",
  "sitting on my keyboard",
  "watching birds from the window",
  "splashing in puddles",
  "hiding under the couch",
  "greeting the mail carrier",
];

export const JOBS: readonly { job: string; also: string }[] = [
  { job: "pediatric nurse", also: "nurse" },
  { job: "data analyst", also: "analyst" },
  { job: "graphic designer", also: "designer" },
  { job: "high school chemistry teacher", also: "teacher" },
  { job: "sous chef", also: "cook" },
  { job: "landscape architect", also: "architect" },
  { job: "physical therapist", also: "therapist" },
  { job: "software engineer", also: "programmer" },
  { job: "veterinary technician", also: "vet tech" },
  { job: "marine biologist", also: "scientist" },
  { job: "social worker", also: "counselor" },
  { job: "paramedic", also: "first responder" },
  { job: "accountant", also: "bookkeeper" },
  { job: "librarian", also: "archivist" },
  { job: "electrician", also: "tradesperson" },
];
export const COMPANIES = [
  "Brightwater Clinic",
  "Northwind Analytics",
  "Halcyon Studio",
  "Ridgemont High",
  "Copper Kettle Bistro",
  "Greenline Design",
  "Summit Physio",
  "Lumen Labs",
  "Maple Street Animal Hospital",
  "Tidewater Institute",
  "Harbor Family Services",
  "Metro Ambulance",
  "Fairbanks & Cole",
  "Eastside Public Library",
  "Voltworks",
];
export const COMMUTES = ["bike", "bus", "train", "car", "ferry", "scooter"];

export const CITIES = [
  "Lisbon",
  "Denver",
  "Portland",
  "Edinburgh",
  "Austin",
  "Montreal",
  "Melbourne",
  "Rotterdam",
  "Kyoto",
  "Valencia",
  "Asheville",
  "Halifax",
  "Tucson",
  "Bergen",
  "Savannah",
  "Ljubljana",
  "Wellington",
  "Boise",
  "Porto",
  "Quebec City",
];
export const TRIPS: readonly { place: string; sight: string }[] = [
  { place: "Iceland", sight: "the northern lights" },
  { place: "Japan", sight: "the temples in Nara" },
  { place: "Peru", sight: "Machu Picchu" },
  { place: "Croatia", sight: "the old walls of Dubrovnik" },
  { place: "Morocco", sight: "the souks of Marrakech" },
  { place: "Norway", sight: "the fjords" },
  { place: "Vietnam", sight: "Ha Long Bay" },
  { place: "Scotland", sight: "the Isle of Skye" },
  { place: "Greece", sight: "the sunsets on Santorini" },
  { place: "Canada", sight: "Lake Louise" },
  { place: "Mexico", sight: "the pyramids at Teotihuacan" },
  { place: "Portugal", sight: "the tiles in Sintra" },
  { place: "New Zealand", sight: "the glowworm caves" },
  { place: "Chile", sight: "the Atacama desert" },
  { place: "Italy", sight: "the Dolomites" },
];
export const TRIP_HIGHLIGHTS = [
  "a sunrise hike",
  "a cooking class with a local family",
  "snorkeling with sea turtles",
  "a night at a mountain hut",
  "a hot air balloon ride",
  "a boat tour along the coast",
  "a street food tour",
  "a horseback ride on the beach",
];

/** Hobbies taken up in a class, with the word a question may use. */
export const CLASSES: readonly { hobby: string; also: string }[] = [
  { hobby: "pottery", also: "ceramics" },
  { hobby: "salsa dancing", also: "dance" },
  { hobby: "rock climbing", also: "climbing" },
  { hobby: "watercolor painting", also: "painting" },
  { hobby: "woodworking", also: "carpentry" },
  { hobby: "improv comedy", also: "comedy" },
  { hobby: "sourdough baking", also: "bread baking" },
  { hobby: "figure drawing", also: "art" },
  { hobby: "kickboxing", also: "martial arts" },
  { hobby: "beekeeping", also: "keeping bees" },
  { hobby: "photography", also: "taking pictures" },
  { hobby: "candle making", also: "crafting" },
];
export const INSTRUMENTS = [
  "cello",
  "ukulele",
  "saxophone",
  "banjo",
  "violin",
  "drums",
  "harp",
  "trumpet",
  "piano",
  "mandolin",
];
export const SONGS = [
  "Clair de Lune",
  "Hallelujah",
  "a Beatles medley",
  "the Moonlight Sonata",
  "Fly Me to the Moon",
  "an old Irish jig",
];

export const BOOKS: readonly { title: string; author: string; genre: string }[] = [
  { title: "The Glass Orchard", author: "Mira Castellanos", genre: "mystery" },
  { title: "Salt and Lantern", author: "Owen Bright", genre: "fantasy" },
  { title: "A Year of Small Rivers", author: "Hana Okoye", genre: "memoir" },
  { title: "The Cartographer's Daughter", author: "Lena Vos", genre: "historical fiction" },
  { title: "Signal Fire", author: "Dev Anand Rao", genre: "science fiction" },
  { title: "Quiet Hours", author: "Teresa Lund", genre: "poetry" },
  { title: "The Long Table", author: "Marco Bellini", genre: "cookbook" },
  { title: "Northbound", author: "Aileen Shaw", genre: "thriller" },
];

export const INJURIES: readonly { part: string; hurt: string }[] = [
  { part: "ankle", hurt: "sprained" },
  { part: "wrist", hurt: "fractured" },
  { part: "knee", hurt: "twisted" },
  { part: "shoulder", hurt: "dislocated" },
  { part: "back", hurt: "strained" },
  { part: "finger", hurt: "broke" },
];
export const INJURY_CAUSES = [
  "playing volleyball",
  "slipping on ice",
  "moving a couch",
  "skateboarding with my nephew",
  "falling off a ladder",
  "tripping on the stairs",
];

export const RACES: readonly { race: string; also: string }[] = [
  { race: "half marathon", also: "half-marathon race" },
  { race: "10K", also: "ten kilometre race" },
  { race: "marathon", also: "full marathon" },
  { race: "sprint triathlon", also: "triathlon" },
  { race: "charity 5K", also: "fun run" },
  { race: "200-mile bike ride", also: "cycling event" },
];
export const CARS = [
  "Subaru Outback",
  "Honda Civic",
  "Toyota RAV4",
  "Volkswagen Golf",
  "Mazda Miata",
  "Ford Bronco",
  "Kia Niro",
  "Volvo wagon",
];
export const COLORS = ["dark green", "bright red", "silver", "navy blue", "pearl white", "mustard yellow"];

export const KID_THEMES = ["dinosaur", "space", "mermaid", "superhero", "pirate", "unicorn", "jungle", "robot"];
export const KID_NAMES: readonly { name: string; child: "son" | "daughter" }[] = [
  ...["Amara", "Ivy", "Nora", "Maya", "Ruby", "Stella"].map((name) => ({ name, child: "daughter" as const })),
  ...["Felix", "Leo", "Jasper", "Otis", "Ezra", "Hugo"].map((name) => ({ name, child: "son" as const })),
];

export const EVENTS: readonly { what: string; venue: string }[] = [
  { what: "jazz concert", venue: "Blue Door Theater" },
  { what: "charity gala", venue: "Riverside Hall" },
  { what: "poetry reading", venue: "Oak Street Books" },
  { what: "film festival", venue: "Paramount Cinema" },
  { what: "food truck festival", venue: "Harbor Park" },
  { what: "science fair", venue: "city museum" },
  { what: "pride parade", venue: "downtown" },
  { what: "comedy show", venue: "Laugh Factory" },
  { what: "farmers market", venue: "Union Square" },
  { what: "art exhibition", venue: "Modern Art Gallery" },
  { what: "tech meetup", venue: "Foundry Coworking" },
  { what: "wine tasting", venue: "Hillside Vineyard" },
];
export const VOLUNTEERING: readonly { place: string; task: string }[] = [
  { place: "animal shelter", task: "walking the dogs" },
  { place: "food bank", task: "sorting donations" },
  { place: "soup kitchen", task: "serving lunch" },
  { place: "community garden", task: "building raised beds" },
  { place: "children's hospital", task: "reading to the kids" },
  { place: "beach cleanup", task: "picking up plastic" },
  { place: "senior center", task: "teaching a computer class" },
];
export const DISHES = [
  "ramen",
  "paella",
  "croissants",
  "lasagna",
  "dumplings",
  "pad thai",
  "bagels",
  "mole sauce",
  "baklava",
  "tamales",
  "pierogi",
  "curry",
];
export const PLANTS = [
  "tomatoes and basil",
  "sunflowers",
  "strawberries",
  "lavender",
  "peppers and zucchini",
  "tulip bulbs",
  "a lemon tree",
  "kale and carrots",
];
export const ALLERGIES: readonly { food: string; dish: string }[] = [
  { food: "shellfish", dish: "shrimp scampi" },
  { food: "peanuts", dish: "satay skewers" },
  { food: "gluten", dish: "a bowl of spaghetti" },
  { food: "dairy", dish: "a cheese pizza" },
  { food: "eggs", dish: "an omelette" },
  { food: "tree nuts", dish: "pecan pie" },
];
export const FIELDS: readonly { field: string; career: string }[] = [
  { field: "counseling psychology", career: "a therapist" },
  { field: "environmental science", career: "a conservation scientist" },
  { field: "nursing", career: "a nurse" },
  { field: "computer science", career: "a software developer" },
  { field: "architecture", career: "an architect" },
  { field: "journalism", career: "a reporter" },
  { field: "early childhood education", career: "a preschool teacher" },
  { field: "law", career: "a lawyer" },
];
export const LANGUAGES: readonly { language: string; country: string }[] = [
  { language: "Italian", country: "Italy" },
  { language: "Japanese", country: "Japan" },
  { language: "Portuguese", country: "Brazil" },
  { language: "Korean", country: "South Korea" },
  { language: "German", country: "Germany" },
  { language: "Spanish", country: "Spain" },
  { language: "Greek", country: "Greece" },
  { language: "Swedish", country: "Sweden" },
];
export const RESTAURANTS = [
  "Little Saigon Kitchen",
  "Marigold Cafe",
  "The Rusty Spoon",
  "Casa Lupita",
  "Noodle Barn",
  "Ember & Oak",
  "Sakura House",
];
export const SHARED = [
  "hiking",
  "board games",
  "gardening",
  "yoga",
  "baking",
  "camping",
  "karaoke",
  "swimming",
  "cycling",
  "birdwatching",
];
export const FEARS: readonly { fear: string; avoid: string }[] = [
  { fear: "heights", avoid: "a glass-floor skywalk" },
  { fear: "deep water", avoid: "a scuba diving trip" },
  { fear: "spiders", avoid: "a tour of a reptile and insect zoo" },
  { fear: "crowds", avoid: "a stadium concert" },
  { fear: "flying", avoid: "a long-haul flight" },
  { fear: "the dark", avoid: "a cave expedition" },
];
export const DIETS: readonly { diet: string; avoid: string }[] = [
  { diet: "vegan", avoid: "a cheeseburger" },
  { diet: "vegetarian", avoid: "a steak" },
  { diet: "pescatarian", avoid: "pork ribs" },
  { diet: "sugar-free", avoid: "a slice of chocolate cake" },
];
export const OUTDOORS = [
  "trail running in the hills",
  "kayaking on the lake",
  "camping under the stars",
  "mountain biking",
  "a long hike in the forest",
  "paddleboarding at the bay",
];
