// What the friends are like: family, tastes, habits, fears (facts with no date): see topic-kit.ts for the placeholders and fields.
import { pickFresh, pronouns, q, type Topic } from "./topic-kit.js";
import * as V from "./vocab.js";

export const TRAIT_TOPICS: readonly Topic[] = [
  {
    name: "relative",
    most: 2,
    later: true,
    draw(r, fresh) {
      const rel = r.pick(V.RELATIVES);
      const job = r.pick(V.JOBS);
      return {
        rel: rel.word,
        relAlso: rel.also,
        who: pickFresh(r, V.OTHER_NAMES, fresh),
        ...pronouns("r", rel.they),
        job: job.job,
        city: r.pick(V.CITIES),
      };
    },
    state: [
      "My {rel} {who} is coming to stay with us for a few days, I can't wait.",
      "I spent the whole evening on the phone with my {rel} {who}, we hadn't talked in ages.",
    ],
    react: ["That's lovely. Family time is the best.", "Aww, I love that. Say hi from me!"],
    detail: [
      "Good news from {who}: {r_they} just landed a job as a {job} in {city}!",
      "{who} called - {r_they} got hired as a {job}, starting next month.",
    ],
    ask: [
      q("single-hop", ["state"], "{who}", "What is the name of {me}'s {rel}?"),
      q(
        "multi-hop",
        ["state", "detail"],
        "{job}",
        "What does {me}'s {rel} do for work?",
        "What job did {me}'s {relAlso} get?",
      ),
      q("multi-hop", ["state", "detail"], "{city}", "In which city will {me}'s {rel} be working?"),
    ],
  },
  {
    name: "book",
    most: 1,
    draw: (r, fresh) => ({ ...pickFresh(r, V.BOOKS, fresh, (x) => x.title) }),
    state: [
      "I'm halfway through {title} by {author} and I can't put it down.",
      "Have you read {title}? {author} is a genius, I stayed up until 2am reading it.",
    ],
    react: ["Ooh, what's it about?", "I haven't! Is it good enough to lend me when you're done?"],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{title}",
        "Which book has {me} been reading?",
        "What novel could {me} not stop reading?",
        "What is {me} halfway through reading?",
      ),
      q(
        "single-hop",
        ["state"],
        "{author}",
        "Who wrote the book {me} stayed up late reading?",
        "Who is the author of the book {me} is reading?",
      ),
      q("open-domain", ["state"], "{genre}", "What genre of books might {me} enjoy?"),
    ],
  },
  {
    name: "kid",
    most: 1,
    draw(r, fresh) {
      const kid = pickFresh(r, V.KID_NAMES, fresh, (k) => k.name);
      return { kid: kid.name, child: kid.child, age: String(3 + r.int(9)), theme: r.pick(V.KID_THEMES) };
    },
    state: [
      "My {child} {kid} turns {age} next week, we're throwing a {theme} party.",
      "Planning my {child}'s birthday - {kid} is {age} already! {kid} wants a {theme} theme.",
    ],
    react: [
      "Happy early birthday to {kid}! Need help with decorations?",
      "Where does the time go? A {theme} party sounds adorable.",
    ],
    ask: [
      q("single-hop", ["state"], "{age}", "How old is {me}'s {child} turning?", "What age is {kid} about to be?"),
      q(
        "single-hop",
        ["state"],
        "{theme}",
        "What is the theme of {kid}'s celebration?",
        "What kind of party is {me} throwing for {kid}?",
      ),
      q("open-domain", ["state"], "yes", "Is {me} a parent?"),
    ],
  },
  {
    name: "instrument",
    most: 1,
    draw: (r) => ({ instrument: r.pick(V.INSTRUMENTS), song: r.pick(V.SONGS) }),
    state: [
      "I've been practising the {instrument} every evening, trying to learn {song}.",
      "Remember I said I wanted to pick up an instrument? I bought a {instrument}! Working on {song}.",
    ],
    react: ["Oh I'd love to hear you play sometime!", "That's so cool. Your neighbours must love you, haha."],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{instrument}",
        "What musical instrument is {me} learning?",
        "What does {me} play in the evenings?",
        "Which instrument has {me} been practising?",
      ),
      q("single-hop", ["state"], "{song}", "Which piece is {me} trying to master?"),
      q("open-domain", ["state"], "yes", "Would {me} likely enjoy going to a live music concert?"),
    ],
  },
  {
    name: "allergy",
    most: 1,
    draw: (r) => ({ ...r.pick(V.ALLERGIES) }),
    state: [
      "Turns out I'm allergic to {food}. The test came back positive, so no more of that for me.",
      "Found out the hard way I have a {food} allergy. Never again.",
    ],
    react: ["Yikes, good thing you found out. Is it serious?", "Oh no, that must be a big adjustment."],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{food}",
        "What food allergy does {me} have?",
        "What can {me} not eat?",
        "What is {me} allergic to?",
      ),
      q("open-domain", ["state"], "no", "Should {me} order {dish} at a restaurant?"),
    ],
  },
  {
    name: "study",
    most: 1,
    draw: (r) => ({ ...r.pick(V.FIELDS) }),
    state: [
      "I've decided to go back to school for a degree in {field}. Terrified but excited.",
      "Big decision: I applied to grad school for {field}, starting in the fall.",
    ],
    react: ["That's brave, I think you'll be amazing at it.", "Wow! What made you decide?"],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{field}",
        "What subject is {me} planning to study?",
        "What is {me} going back to school for?",
      ),
      q(
        "open-domain",
        ["state"],
        "{career}",
        "What career might {me} pursue after graduating?",
        "What profession could {me} be heading toward?",
      ),
    ],
  },
  {
    name: "language",
    most: 1,
    draw: (r) => ({ ...r.pick(V.LANGUAGES), streak: String(30 + r.int(300)) }),
    state: [
      "I'm learning {language} on an app, {streak}-day streak and counting!",
      "Been doing {language} lessons every morning - {streak} days in a row now.",
    ],
    react: ["Impressive dedication! Say something for me.", "That's awesome. Planning a trip?"],
    ask: [
      q("single-hop", ["state"], "{language}", "Which language is {me} studying?", "What language is {me} learning?"),
      q("open-domain", ["state"], "{country}", "Which country might {me} want to visit soon?"),
    ],
  },
  {
    name: "restaurant",
    most: 1,
    draw: (r) => ({ place: r.pick(V.RESTAURANTS), dish: r.pick(V.DISHES) }),
    state: [
      "My favourite place to eat lately is {place}, you have to try their {dish}.",
      "If you're ever nearby, go to {place}. Best {dish} I've ever had.",
    ],
    react: ["Adding it to my list!", "Now I'm hungry, thanks a lot."],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{place}",
        "What is {me}'s go-to restaurant?",
        "Where does {me} like to eat out?",
        "What is {me}'s favourite place to eat?",
      ),
    ],
  },
  {
    name: "fear",
    most: 1,
    draw: (r) => ({ ...r.pick(V.FEARS) }),
    state: [
      "I have to confess something silly: I'm terrified of {fear}. Always have been.",
      "Fun fact about me: I'm scared stiff of {fear}. I can't even watch it in movies.",
    ],
    react: ["That's not silly at all, everyone has something.", "Haha, noted. I'll never suggest anything like that."],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{fear}",
        "What is {me} afraid of?",
        "What phobia does {me} have?",
        "What is {me} terrified of?",
      ),
      q("open-domain", ["state"], "probably not", "Would {me} enjoy {avoid}?", "Would {me} sign up for {avoid}?"),
    ],
  },
  {
    name: "diet",
    most: 1,
    draw: (r) => ({ ...r.pick(V.DIETS), since: r.pick(["a year", "six months", "three years", "a few weeks"]) }),
    state: [
      "I changed my diet about {since} ago - I went {diet} and honestly I feel great.",
      "Not sure if I told you, I've been eating {diet} for {since} now.",
    ],
    react: ["Good for you! Is it hard when you eat out?", "I've been thinking about trying that. Any tips?"],
    ask: [
      q("single-hop", ["state"], "{diet}", "What kind of diet does {me} follow?", "What are {me}'s eating habits?"),
      q("open-domain", ["state"], "no", "Would {me} order {avoid}?", "Would {me} enjoy {avoid} for dinner?"),
    ],
  },
  {
    name: "outdoors",
    most: 1,
    draw: (r) => ({ outdoor: r.pick(V.OUTDOORS) }),
    state: [
      "Nothing beats {outdoor}, I go almost every weekend. It resets my brain.",
      "My favourite way to spend a Sunday is {outdoor}, rain or shine.",
    ],
    react: ["I need more of that in my life.", "You always seem so calm, now I know why!"],
    ask: [
      q(
        "single-hop",
        ["state"],
        "{outdoor}",
        "How does {me} like to spend weekends?",
        "What does {me} do almost every weekend?",
      ),
      q(
        "open-domain",
        ["state"],
        "outdoors",
        "Would {me} rather spend a vacation in nature or in a big city?",
        "Would {me} enjoy a week in a national park?",
      ),
    ],
  },
];
