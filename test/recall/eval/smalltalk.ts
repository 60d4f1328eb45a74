// What fills a real chat between the facts: greetings by name, small talk, reactions and
// goodbyes, and chatter that brushes the facts' subjects (dogs, work, travel, food) without
// stating any. {you} is the person a line speaks to; {weekday} the session's day.

export const OPENERS = [
  "Hey {you}! Long time no talk. How have you been?",
  "Hi {you}! Happy {weekday}! What's new with you?",
  "Good morning {you}! Hope your week is going well.",
  "{you}!! I have so much to tell you.",
  "Hey {you}, got a minute to chat?",
  "Hi {you}, how's it going? It feels like forever since we caught up.",
  "Hey hey {you}! How was your week?",
];

export const GREETING_REPLIES = [
  "Hey {you}! Good to hear from you. I'm doing well, thanks. You?",
  "Hi {you}! All good here, just busy as always. What's up?",
  "Hey! Always have time for you, {you}.",
  "{you}! I was just thinking about you. I'm good, how are you?",
  "Hi {you}! Can't complain. Tell me everything!",
];

/** Pairs: a line and the friend's answer to it. */
export const SMALL_TALK: readonly (readonly [string, string])[] = [
  ["How was your weekend?", "Pretty relaxing, honestly. I stayed in and watched movies. Yours?"],
  ["The weather has been so weird lately.", "Right? Sunny one minute, pouring rain the next."],
  ["Work has been crazy this week.", "Ugh, I feel that. Hang in there, {you}!"],
  ["Did you catch the game last night?", "I missed it! Was it any good?"],
  ["I could really use a vacation.", "Same here, we should plan a trip together sometime."],
  ["Have you watched anything good lately?", "I just finished a documentary about octopuses, it was wild."],
  ["I'm so tired today, I barely slept.", "Oh no, sounds like a coffee kind of day then."],
  ["What are you up to tonight?", "Nothing exciting, probably laundry and an early night."],
  ["I love dogs, they make everything better.", "Agreed, a dog can turn any bad day around."],
  ["We should cook dinner together sometime.", "Yes! You bring dessert, I'll handle the rest."],
  ["Traffic this morning was a nightmare.", "That's why I work from home when I can, haha."],
  ["My phone died in the middle of the day again.", "Maybe it's time for a new one!"],
  ["I've been trying to drink more water.", "Good idea, I always forget to."],
  ["Any plans for the holidays?", "Not yet, maybe visiting family if we can swing it."],
  ["I read that walking after dinner helps you sleep.", "Interesting, I should try that."],
  ["Do you ever feel like the weeks go by way too fast?", "All the time. Where did this month even go?"],
  ["I've been listening to a lot of podcasts on my commute.", "Ooh, send me your favourites!"],
  ["My neighbours are renovating and the noise is unbelievable.", "Oh no, earplugs might be your best friend."],
  ["I finally cleaned out my closet.", "Ha, I've been meaning to do that for a year."],
  ["Have you tried that new coffee place downtown?", "Not yet! Is it worth it?"],
  ["I think I need a new hobby, I'm getting bored.", "You should try something totally different!"],
  ["Work trips are exhausting, aren't they?", "So exhausting. Hotel beds are never the same."],
  ["I keep meaning to call my family more often.", "Same, life just gets busy."],
  ["The sunset tonight was unreal.", "I saw it too! The sky was pink for ages."],
  ["I spent way too much money at the grocery store today.", "Prices are wild lately, it's not just you."],
  ["Do you have any book recommendations?", "Hmm, let me think about it and get back to you."],
  ["I can't believe it's already {weekday}.", "Right? This week flew by."],
  ["Pets are so much work but so worth it.", "Totally, they're family."],
  ["How's everyone at your place doing?", "Everyone's good, thanks for asking!"],
  ["I tried meditating this morning.", "How did it go? I can never sit still."],
];

/** Short reactions, to a detail or anything. */
export const REACTIONS = [
  "Haha, so true!",
  "That's wonderful to hear!",
  "Wow, good for you!",
  "I know, right?",
  "Totally.",
  "Ha! Love it.",
  "Oh nice, {you}!",
  "That makes me so happy for you.",
  "No way!",
  "Aww, that's great.",
  "Can't wait to hear more about it.",
];

/** A line that hands the turn to the friend when they are about to tell something. */
export const PROMPTS = [
  "Anyway, enough about me. What's new with you, {you}?",
  "So what have you been up to?",
  "How about you, anything new?",
  "Okay, your turn. Any news?",
  "What's going on in your world these days?",
];

/** Closing pairs. */
export const CLOSINGS: readonly (readonly [string, string])[] = [
  ["Anyway, I should get going. Talk soon, {you}!", "Take care, {you}! Chat later."],
  ["Gotta run, {you}! So good catching up.", "Same here, bye {you}!"],
  ["I need to head to bed, it's late. Night, {you}!", "Good night {you}, sleep well!"],
  ["Okay, I have a meeting in five. Talk later!", "Good luck, {you}! Bye!"],
];

/** The shared interest both mention once (a multi-hop question asks what they have in common). */
export const SHARED_LINES = [
  "My new favourite hobby is {shared}. I can't get enough of it.",
  "I've really gotten into {shared} lately, it's become my weekend hobby.",
];

/**
 * Callbacks, by topic: in a later session the friend asks about something told earlier and
 * hears how it goes; they name it again but state nothing a question asks (hard negatives).
 */
export const CALLBACKS: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  pet: [
    ["How's {pet} doing these days?", "{pet} is great, getting bigger every day!"],
    ["Give {pet} a scratch behind the ears from me!", "Will do, {pet} says hi back."],
  ],
  job: [
    ["How's the new job treating you?", "Really well, thanks for asking! Still learning names."],
    ["Still liking it at {company}?", "Mostly! The coffee is terrible though."],
  ],
  move: [
    ["Are you all unpacked yet?", "Almost, just the kitchen boxes left."],
    ["How are you liking {city} so far?", "Loving it, it finally feels like home."],
  ],
  class: [["How's {hobby} going?", "Slowly improving! I didn't embarrass myself last week."]],
  injury: [["How's the {part} feeling?", "Much better, thanks. Almost back to normal."]],
  instrument: [["How's the {instrument} practice going?", "Getting there! My neighbours might disagree."]],
  kid: [["How did {kid}'s party go?", "Chaos, but {kid} had the best day ever."]],
  language: [["How's your {language} coming along?", "Slowly! I can order coffee now at least."]],
  study: [["Any news about school?", "Still waiting to hear back, fingers crossed."]],
  garden: [["How's the garden?", "Growing like crazy, I can't keep up."]],
  book: [["Did you finish {title}?", "Yes! The ending wrecked me, in a good way."]],
  car: [["How's the new car?", "Love it. Best decision we made this year."]],
  diet: [["Still going strong with the new diet?", "Yep, it's just normal life now."]],
};

/** Sentences a turn often runs on with: real messages carry more than their point. */
export const TAILS = [
  "Life has been so busy lately.",
  "I really needed that, honestly.",
  "Anyway, that's my news!",
  "Can you believe it?",
  "It's been a long week, to be honest.",
  "I'm trying to take things one day at a time.",
  "The weekend went by way too fast.",
  "Work has been a lot lately, so this was a nice change.",
  "I keep telling everyone about it.",
  "It made my whole week.",
  "My family thinks I'm a little crazy, haha.",
  "I'll send you some pictures later.",
  "Still processing it all, to be honest.",
  "It's funny how things work out sometimes.",
  "I wish you could have been there.",
  "I've been smiling about it all day.",
  "Not going to lie, I was nervous at first.",
  "We should catch up properly soon.",
  "It's the little things, right?",
  "Anyway, how are things on your end?",
  "I've got so much going on right now.",
  "Honestly, it was exactly what I needed.",
  "I'm exhausted but happy.",
  "Let's plan something fun soon!",
  "I hope your week is going better than mine.",
];

/** Lead-ins, by topic: the friend's question that invites a statement, as chats go (often on its subject). */
export const LEADS: Readonly<Record<string, readonly string[]>> = {
  pet: ["Are you still thinking about getting a pet?", "Any news on the pet front?"],
  job: ["How's the job hunt going?", "Any luck with those job applications?"],
  move: ["Did you find a new apartment yet?", "How's the house hunting going?"],
  class: ["Did you end up signing up for that class?", "Have you started any new hobbies?"],
  trip: ["How was the trip? I've been dying to hear!", "Weren't you travelling recently?"],
  injury: ["You said you weren't feeling great, what happened?", "Are you okay? You mentioned you got hurt."],
  race: ["How did the race go?", "Wasn't your race coming up?"],
  car: ["Did you finally replace your old car?", "Still driving that old car?"],
  event: ["Do anything fun this week?", "Go out anywhere interesting lately?"],
  volunteer: ["What did you get up to this week?"],
  cooking: ["Cooked anything good lately?"],
  garden: ["How's the yard coming along?"],
  relative: ["How's your family doing?"],
  book: ["Read anything good lately?"],
  kid: ["How are the kids doing?"],
  instrument: ["Did you ever pick up that instrument you mentioned?"],
  allergy: ["You mentioned feeling sick after dinner, did you figure out why?"],
  study: ["Have you thought more about going back to school?"],
  language: ["Still doing those language lessons?"],
  restaurant: ["Found any good places to eat lately?"],
  fear: ["Would you ever go skydiving with me?"],
  diet: ["Want to grab burgers this weekend?"],
  outdoors: ["What do you usually do on weekends?"],
};
