// Life events the friends tell each other about, each on a date: see topic-kit.ts for the placeholders and fields.
import { once, pickFresh, pronouns, q, type Topic } from "./topic-kit.js";
import * as V from "./vocab.js";

export const EVENT_TOPICS: readonly Topic[] = [
  {
    name: "pet",
    most: 2,
    dated: true,
    draw(r, fresh) {
      const pet = r.pick(V.PETS);
      return {
        pet: pickFresh(r, V.PET_NAMES, fresh),
        species: pet.species,
        young: pet.young,
        also: pet.also,
        breed: r.pick(pet.breeds),
        habit: r.pick(V.PET_HABITS),
        ...pronouns("pet", r.pick(["he", "she"] as const)),
      };
    },
    state: [
      "Guess what, {you}! We adopted a {breed} {young} {when}. We named {pet_them} {pet}.",
      "Big news: there's a new member of the family. We adopted a little {breed} {species} from the shelter {when} - {pet} is {pet_their} name.",
      "I finally did it, I got a {species}! {pet} is a {breed} and I picked {pet_them} up {when}.",
    ],
    react: [
      "Aww, {pet} is such a cute name! How is {pet_they} settling in?",
      "No way, congrats! I've always wanted a {species}. Send pictures!",
    ],
    detail: [
      "{pet} is doing great. {pet_They} has a funny habit of {habit}.",
      "Settling in fine! Mostly {pet_they} spends the day {habit}, it cracks me up.",
    ],
    ask: [
      once(
        q(
          "single-hop",
          ["state"],
          "a {breed} {species} named {pet}",
          "What kind of pet did {me} adopt?",
          "What animal did {me} bring home?",
          "What breed of {species} did {me} get?",
        ),
      ),
      q(
        "single-hop",
        ["state"],
        "{pet}",
        "What is the name of {me}'s {breed}?",
        "What did {me} call {their} new {also}?",
      ),
      q(
        "single-hop",
        ["detail"],
        "{habit}",
        "What funny thing does {pet} like to do?",
        "What odd behaviour does {me}'s {also} {pet} have?",
      ),
      q("multi-hop", ["state", "detail"], "{habit}", "What odd habit does the {breed} that {me} adopted have?"),
      q("temporal", ["state"], "{when_answer}", "When did {me} get {pet}?", "When did {me} adopt {their} {also}?"),
      q(
        "open-domain",
        ["state"],
        "yes",
        "Would {me} be considered an animal lover?",
        "Is {me} likely to enjoy a visit to a pet cafe?",
      ),
    ],
    many: { q: ["What pets does {me} have?", "Which animals has {me} adopted?"], a: "{all:pet}" },
  },
  {
    name: "job",
    most: 1,
    dated: true,
    draw: (r, fresh) => ({
      ...pickFresh(r, V.JOBS, fresh, (j) => j.job),
      company: pickFresh(r, V.COMPANIES, fresh),
      commute: r.pick(V.COMMUTES),
      minutes: String(10 + 5 * r.int(8)),
    }),
    state: [
      "I have news - I accepted a new job {when}! I'm going to be a {job} at {company}.",
      "So {when} I signed the contract with {company}. Officially a {job} now, new job here I come!",
    ],
    react: [
      "That's amazing! You've worked so hard for this. How's the commute?",
      "Congrats, that's huge! Is it far from home?",
    ],
    detail: [
      "The commute is not bad at all, about {minutes} minutes by {commute}.",
      "It's easy, {minutes} minutes door to door if I take the {commute} to work.",
    ],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{job}",
        "What does {me} do for a living?",
        "What is {me}'s new job?",
        "What job did {me} accept?",
      ),
      q("single-hop", ["state"], "{company}", "Which employer hired {me}?", "Which company gave {me} a new job?"),
      q(
        "single-hop",
        ["detail"],
        "by {commute}",
        "How does {me} get to work?",
        "How does {me} commute to the office?",
        "What is {me}'s commute like?",
      ),
      q("multi-hop", ["state", "detail"], "{minutes} minutes", "How long is {me}'s commute to {company}?"),
      q(
        "temporal",
        ["state"],
        "{when_answer}",
        "When did {me} accept the position at {company}?",
        "When did {me} become a {also}?",
      ),
      q(
        "open-domain",
        ["state"],
        "likely {job}-related",
        "What kind of continuing education might {me} be interested in?",
      ),
    ],
  },
  {
    name: "move",
    most: 1,
    dated: true,
    draw: (r, fresh) => ({
      city: pickFresh(r, V.CITIES, fresh),
      rooms: r.pick(["a single bedroom", "two bedrooms", "three bedrooms"]),
    }),
    state: [
      "We finally moved into our new place in {city} {when}! Boxes everywhere.",
      "The moving truck came {when} - we officially live in {city} now.",
    ],
    react: [
      "Welcome to the new chapter! What's the apartment like?",
      "So exciting! Do you like the neighbourhood so far?",
    ],
    detail: [
      "It's small, {rooms}, but the light in the mornings is gorgeous.",
      "We love it. {rooms} and a tiny balcony with a view.",
    ],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{city}",
        "Which city did {me} relocate to?",
        "Where does {me} live now?",
        "Where did {me} move to?",
      ),
      q("multi-hop", ["state", "detail"], "{rooms}", "How many bedrooms does {me}'s home in {city} have?"),
      q("temporal", ["state"], "{when_answer}", "When did {me} move to {city}?", "When did {me} move house?"),
    ],
  },
  {
    name: "class",
    most: 2,
    dated: true,
    draw: (r, fresh) => ({
      ...pickFresh(r, V.CLASSES, fresh, (x) => x.hobby),
      teacher: pickFresh(r, V.OTHER_NAMES, fresh),
    }),
    state: [
      "I signed up for a {hobby} class at the community center - the first session was {when}.",
      "{when} I went to my first {hobby} lesson. I'm terrible at it but loving it.",
    ],
    react: ["Oh fun! Who's teaching it?", "That sounds like a blast. Is the instructor nice?"],
    detail: [
      "{teacher} runs it, {teacher} is super patient with beginners like me.",
      "The teacher is {teacher}. {teacher} says I have a good eye, which I doubt!",
    ],
    ask: [
      once(
        q(
          "single-hop",
          ["state"],
          "{hobby}",
          "What class did {me} enroll in?",
          "What new activity did {me} take up?",
          "What lessons did {me} sign up for?",
        ),
      ),
      q(
        "multi-hop",
        ["state", "detail"],
        "{teacher}",
        "Who teaches {me}'s {also} class?",
        "Who is {me}'s instructor for {hobby}?",
      ),
      q(
        "temporal",
        ["state"],
        "{when_answer}",
        "When did {me} start learning {hobby}?",
        "When was {me}'s first {hobby} session?",
      ),
      q("open-domain", ["state"], "yes", "Does {me} enjoy trying creative or physical hobbies?"),
    ],
    many: { q: ["Which classes has {me} signed up for?", "What lessons has {me} been taking?"], a: "{all:hobby}" },
  },
  {
    name: "trip",
    most: 3,
    dated: true,
    draw: (r, fresh) => ({
      ...pickFresh(r, V.TRIPS, fresh, (x) => x.place),
      highlight: r.pick(V.TRIP_HIGHLIGHTS),
      days: String(4 + r.int(10)),
      with: r.pick(V.RELATIVES).word,
    }),
    state: [
      "I just got back from my trip to {place} {when}! {days} days with my {with}.",
      "{when} I flew home from {place}, still jet lagged. My {with} and I saw {sight} on our trip.",
    ],
    react: ["Welcome back! What was the best part?", "Jealous! Tell me everything, what did you do?"],
    detail: ["Honestly the highlight was {highlight}. I'd go back tomorrow.", "Best part? {highlight}, no contest."],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{place}",
        "Where did {me} travel with {their} {with}?",
        "Which country did {me} visit with {their} {with}?",
        "Where did {me} go on a trip with {their} {with}?",
      ),
      q("multi-hop", ["state", "detail"], "{highlight}", "What was the best part of {me}'s holiday in {place}?"),
      q("temporal", ["state"], "{when_answer}", "When did {me} go to {place}?", "When was {me}'s vacation in {place}?"),
    ],
    many: { q: ["Which countries has {me} visited?", "Where has {me} been on trips?"], a: "{all:place}" },
  },
  {
    name: "injury",
    most: 1,
    dated: true,
    draw: (r) => ({ ...r.pick(V.INJURIES), cause: r.pick(V.INJURY_CAUSES), weeks: String(2 + r.int(5)) }),
    state: [
      "Ugh, I {hurt} my {part} {when} while {cause}.",
      "So {when} I {hurt} my {part}. I was {cause}, don't laugh.",
    ],
    react: ["Oh no! Are you okay? How long until it heals?", "Ouch, that sounds painful. What did the doctor say?"],
    detail: [
      "The doctor said {weeks} weeks of rest, which is torture for me.",
      "{weeks} weeks in a brace, apparently. I'm going stir crazy already.",
    ],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{cause}",
        "How did {me} get hurt?",
        "What was {me} doing when {they} hurt {their} {part}?",
        "How did {me} injure {their} {part}?",
      ),
      q("multi-hop", ["state", "detail"], "{weeks} weeks", "How long will {me}'s {part} take to heal?"),
      q("temporal", ["state"], "{when_answer}", "When did {me} injure {their} {part}?", "When did {me} get hurt?"),
    ],
  },
  {
    name: "race",
    most: 2,
    dated: true,
    draw: (r, fresh) => ({
      ...pickFresh(r, V.RACES, fresh, (x) => x.race),
      time: `${1 + r.int(4)} hours and ${10 + r.int(49)} minutes`,
    }),
    state: [
      "I did it, I finished the {race} {when}! {time}, my legs are jelly.",
      "{when} I crossed the finish line of my first {race} in {time}.",
    ],
    react: ["You're a machine! I'm so proud of you.", "Incredible! How do you feel?"],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{time}",
        "How long did it take {me} to complete the {also}?",
        "What was {me}'s finishing time?",
        "How fast did {me} finish the {race}?",
      ),
      q("temporal", ["state"], "{when_answer}", "When did {me} take part in the {race}?"),
      q("open-domain", ["state"], "yes", "Would {me} be described as someone who keeps fit?"),
    ],
    many: { q: ["Which endurance events has {me} completed?"], a: "{all:race}" },
  },
  {
    name: "car",
    most: 1,
    dated: true,
    draw: (r) => ({ car: r.pick(V.CARS), color: r.pick(V.COLORS) }),
    state: [
      "We bought a used car {when}, a {color} {car}, and it runs like a dream.",
      "Retired the old car at last - {when} we picked up a {color} {car}.",
    ],
    react: ["Nice upgrade! Road trip soon?", "Ooh fancy. Did you haggle?"],
    ask: [
      q(
        "single-hop",
        ["state"],
        "a {car}",
        "What vehicle did {me} purchase?",
        "What kind of automobile does {me} drive now?",
        "What car did {me} buy?",
      ),
      q("single-hop", ["state"], "{color}", "What colour is {me}'s new car?"),
    ],
  },
  {
    name: "event",
    most: 3,
    dated: true,
    draw: (r, fresh) => ({
      ...pickFresh(r, V.EVENTS, fresh, (x) => x.what),
      mood: r.pick(["amazing", "so much fun", "a little chaotic", "really moving", "packed"]),
    }),
    state: [
      "I went to a {what} at {venue} {when}. It was {mood}!",
      "{when} we checked out the {what} at {venue} - {mood}.",
    ],
    react: ["Sounds like a great time!", "I'm so jealous, I've been wanting to go to one of those."],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{venue}",
        "Where was the {what} that {me} went to?",
        "At which venue did {me} attend the {what}?",
      ),
      q("temporal", ["state"], "{when_answer}", "When did {me} attend the {what}?", "When did {me} go to the {what}?"),
    ],
    many: { q: ["What events has {me} been to?", "Which events did {me} go to?"], a: "{all:what}" },
  },
  {
    name: "volunteer",
    most: 2,
    dated: true,
    draw: (r, fresh) => ({ ...pickFresh(r, V.VOLUNTEERING, fresh, (x) => x.place) }),
    state: [
      "I spent {when} volunteering at the {place}, mostly {task}.",
      "{when} I helped out at the {place} - {task} for five hours.",
    ],
    react: ["That's so kind of you. How did it feel?", "Love that. They're lucky to have you."],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{place}",
        "Where did {me} do volunteer work?",
        "Which organisation did {me} help out?",
        "Where did {me} volunteer?",
      ),
      q("single-hop", ["state"], "{task}", "What did {me} do while volunteering at the {place}?"),
      q("temporal", ["state"], "{when_answer}", "When did {me} volunteer at the {place}?"),
      q("open-domain", ["state"], "yes", "Does {me} care about giving back to the community?"),
    ],
  },
  {
    name: "cooking",
    most: 2,
    dated: true,
    draw: (r, fresh) => ({
      dish: pickFresh(r, V.DISHES, fresh),
      verdict: r.pick(["a total disaster", "better than the restaurant", "edible, barely", "gone in five minutes"]),
    }),
    state: [
      "I tried making {dish} from scratch {when}. Verdict: {verdict}.",
      "{when} I spent four hours cooking {dish} for the first time - {verdict}.",
    ],
    react: ["Haha, I admire the ambition!", "Save me some next time!"],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{dish}",
        "What did {me} attempt to cook for the first time?",
        "Which dish did {me} make from scratch?",
        "What did {me} try making?",
      ),
      q("temporal", ["state"], "{when_answer}", "When did {me} cook {dish}?"),
    ],
    many: { q: ["What dishes has {me} tried cooking?"], a: "{all:dish}" },
  },
  {
    name: "garden",
    most: 1,
    dated: true,
    draw: (r) => ({ plants: r.pick(V.PLANTS) }),
    state: [
      "I planted {plants} in the backyard {when}, fingers crossed.",
      "Got my hands dirty {when}: {plants} are in the ground now.",
    ],
    react: ["Ooh, a green thumb! Let me know how they grow.", "Homegrown is the best. So jealous of your yard."],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{plants}",
        "What did {me} plant in {their} garden?",
        "What is growing in {me}'s backyard?",
      ),
      q("open-domain", ["state"], "yes", "Would {me} appreciate a gift card to a plant nursery?"),
    ],
  },
];
