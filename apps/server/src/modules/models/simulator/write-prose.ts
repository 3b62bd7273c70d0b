import type { Random } from "./seeded-random";
import { capitalise } from "./subject";

/**
 * A first draft of a piece of writing (an email, taglines, a post) for a subject: the text
 * itself, not advice about it, so a writing request gets something to send.
 */
function productOf(subject: string): string {
  // The user sends this text: their product is "our" product.
  return (
    /\b(?:for|about|announcing|of)\s+(?:a |an )?(.+)$/i.exec(subject)?.[1] ??
    subject.replace(/^(?:a|an)\s+/i, "")
  )
    .replace(/\s+(?:launch|release)$/i, "")
    .replace(/\byour\b/gi, "our");
}

function email(subject: string, random: Random): string {
  const product = productOf(subject);
  const launch = /\blaunch|\bannounc|\brelease|\bnew\b/i.test(subject);
  const opener = random.pick([
    `We have been working on ${product} for a while, and it is ready for you.`,
    `Short version: ${product} is here, and we think you will like it.`,
  ]);
  return [
    `**Subject:** ${launch ? `Introducing ${product}` : capitalise(product)}`,
    "",
    "Hi {first name},",
    "",
    opener,
    "",
    launch ? "Three things you can do with it from today:" : "Here is what you need to know:",
    "",
    "- Get started in under a minute, no setup needed.",
    "- Everything in one place, on your phone or your laptop.",
    "- Share it with friends and family in one tap.",
    "",
    `[Try ${product} now →]`,
    "",
    "Reply to this email if you have a question; a real person reads every answer.",
    "",
    "Best,",
    "The team",
  ].join("\n");
}

const COUNTS: Record<string, number> = {
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

/** "eight taglines" → 8; five when the request names no number. */
function countIn(subject: string): number {
  const word =
    /\b(\d+|three|four|five|six|seven|eight|nine|ten)\s+(?:\w+\s+)?(?:taglines|slogans|headlines|names|options|ideas|variants)\b/i.exec(
      subject,
    )?.[1];
  if (!word) return 5;
  const n = COUNTS[word.toLowerCase()] ?? Number(word);
  return Math.max(1, Math.min(10, n));
}

function taglines(subject: string, random: Random): string {
  const bare = productOf(subject).replace(/^(?:our|the)\s+/i, "");
  const last = bare.split(" ").at(-1) ?? "life";
  const options = random.sample(
    [
      `${capitalise(bare)}, made simple.`,
      `Less effort. More ${last}.`,
      `Everything a ${bare} should have been.`,
      `Your ${bare}, finally sorted.`,
      `Built for people who care about the details.`,
      `The easy way to a better ${last}.`,
      `Start small. Go far.`,
      `Good for you. Better for the planet.`,
      `Made to last, designed to love.`,
      `One ${last}. Endless possibilities.`,
    ],
    countIn(subject),
  );
  return options.map((o, i) => `${i + 1}. ${o}`).join("\n");
}

function post(subject: string): string {
  const product = productOf(subject);
  const topic = product.replace(/^(?:our|the)\s+/i, "");
  if (/\b(?:launch|announc|introduc|release)/i.test(subject)) {
    const named = /^(?:our|the|a|an)\s/i.test(product) ? product : `our ${product}`;
    return [
      `**Introducing ${named}**`,
      "",
      `Today we are launching ${named}: short, practical posts, real examples and straight answers to your questions.`,
      "",
      "**What you will find here**",
      "",
      "- Short, practical posts every week.",
      "- Real examples you can copy and adapt.",
      "- Answers to the questions readers send us.",
      "",
      "Subscribe to get each new post by email, and reply to tell us what you would like us to cover first.",
    ].join("\n");
  }
  return [
    `**${capitalise(topic)}: what it is and why it matters**`,
    "",
    `This post covers what ${topic} is, who it helps and how to start, in five minutes of reading.`,
    "",
    `**What it is.** ${capitalise(topic)} in one sentence a newcomer understands, then one example from real life.`,
    "",
    "**Who it helps.** The two groups that gain the most, and what changes for each.",
    "",
    "**How to start.** Three steps anyone can take today, and where to ask for help.",
  ].join("\n");
}

/** The draft text for a writing subject. */
export function proseFor(subject: string, random: Random): string {
  if (/\b(?:email|e-mail|newsletter|letter|announcement|invitation)\b/i.test(subject)) {
    return email(subject, random);
  }
  if (/\b(?:tagline|taglines|slogan|slogans|headline|headlines|copy|name|names)\b/i.test(subject)) {
    return taglines(subject, random);
  }
  return post(subject);
}
