export interface BlogPost {
  slug: string;
  /** ISO date of publication. */
  date: string;
  title: string;
  author: string;
  tag: string;
  readingMinutes: number;
  summary: readonly string[];
}

/** Newest first. */
export const POSTS: readonly BlogPost[] = [
  {
    slug: "why-every-run-starts-with-a-plan",
    date: "2026-11-12",
    title: "Why every Cohort run starts with a written plan",
    author: "Ana Sørensen, Product",
    tag: "Product",
    readingMinutes: 6,
    summary: [
      "Early versions of Cohort let agents start as soon as a message arrived. Answers were fast, but people couldn't tell why the Designer had been asked to write SQL or why the Critic reviewed half a draft.",
      "Now the coordinator returns a structured plan first — roles, sub-tasks, order — and the app shows it before any agent runs. Runs take a moment longer to start, and far fewer of them get stopped halfway because the team went the wrong way.",
    ],
  },
  {
    slug: "reserve-then-settle",
    date: "2026-10-28",
    title: "Reserve, then settle: keeping budgets whole with parallel agents",
    author: "Daniel Okafor, Engineering",
    tag: "Engineering",
    readingMinutes: 9,
    summary: [
      "Four agents streaming at once can spend the same last credit four times if you only check the balance before each call. We don't check; we reserve.",
      "This post walks through the ledger: each call holds its worst-case cost in one transaction, settles on real usage in another, and releases the difference — which is why a Cohort balance can't go negative, whatever the timing.",
    ],
  },
  {
    slug: "measuring-the-critic",
    date: "2026-10-09",
    title: "Measuring the Critic: what one revision round buys you",
    author: "Mei Lin Tan, Research",
    tag: "Research",
    readingMinutes: 7,
    summary: [
      "We compared first drafts with drafts revised after the Critic's feedback across a set of internal tasks. In our runs, one round captured most of the improvement; a second round mostly added cost and time.",
      "That is why Cohort allows exactly one bounded revision, and why it shows the Critic's score on every draft whether or not a revision happened.",
    ],
  },
  {
    slug: "introducing-the-co-models",
    date: "2026-09-17",
    title: "Introducing the Co* models",
    author: "The Cohort team",
    tag: "Announcement",
    readingMinutes: 4,
    summary: [
      "CoReason, CoDepth, CoQuick, CoLogic, CoChat and CoVision are models tuned for the work a team actually divides: reasoning, deep analysis, fast replies, structured thinking, conversation and images.",
      "They sit next to GPT, Claude and Gemini in every role picker, so you can mix native and external models in one session.",
    ],
  },
];
