/**
 * What a request is about, read the way a person would: the sentence that asks for something,
 * without greetings, politeness, the asking verb or pasted code ("Can you build me a pricing
 * page for our SaaS app?" → "a pricing page for your SaaS app"). The simulator writes every
 * answer around this subject, so it must never carry prompt scaffolding or half a phrase.
 */

/** How long a subject may be before it is cut at a clause or word boundary. */
const MAX_SUBJECT = 72;

/** The lines the engine puts after the user's own words (orchestration/prompts.ts). */
const SCAFFOLDING = /\n\s*-{3,}\s*\n\s*(?:Your task:|The team's drafts:)/;

const ABBREVIATIONS = /\b(e\.g|i\.e|etc|vs|approx|incl|Mr|Mrs|Dr|St)\./gi;

const GREETING =
  /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening)|dear \w+)(?:\s+(?:there|team|all|everyone|folks|guys))?[\s,!.:-]*/i;
const FILLER =
  /^(?:thanks|thank you|cheers|ok|okay|cool|great|sure|yes|no|please)(?:\s+(?:so much|a lot|again))?[\s,!.]*$/i;

/** Words that open a request without saying what it is about; peeled off one at a time. */
const LEAD_INS: readonly RegExp[] = [
  /^(?:task|request|goal|question|topic|subject|prompt|ask)\s*:\s*/i,
  /^(?:please|kindly|so|ok(?:ay)?|now|also|then|and|but|hey|quick question|one more thing)\b[,:\s]+/i,
  /^(?:can|could|would|will) (?:you|someone|the team)(?: please| kindly)?\s+/i,
  /^(?:i|we) (?:need|want|would like|'d like|’d like|would love|'d love)(?: you| someone| the team)?(?: to)?\s+/i,
  /^(?:i'm|i am|we're|we are|i’m|we’re) (?:looking for|trying to|hoping to|planning to|wanting to)\s+/i,
  /^(?:help|assist) (?:me|us)(?: to| with)?\s+/i,
  /^(?:let's|let’s|lets|let us)\s+/i,
  /^(?:tell|teach) (?:me|us)(?: all)?(?: about)?\s+/i,
  /^(?:talk|think) (?:me |us )?(?:about|through)\s+/i,
  /^(?:is it possible|is there a way) to\s+/i,
  /^(?:i have a question|question)[:,]?\s+/i,
];

/** Verbs that only say "produce it": the subject is their object. */
const MAKING_VERB =
  /^(?:write|build|create|make|design|draft|implement|develop|code|code up|generate|produce|prepare|compose|craft|sketch|mock up|put together|come up with|give|show|set up|plan|outline|draw|propose|suggest|recommend|explain|describe|summari[sz]e|list|review|provide|produce|find|get|do)\b\s*(?:(?:me|us|for me|for us)\b\s*)?/i;

/** Words a subject must not end on: a cut there would leave half a phrase. */
const DANGLING = new Set(
  "a an the and or but of for to with in on at by from into onto about as that which who whose where when than then so if my your our their its this these those is are was be can will should would could via plus vs".split(
    " ",
  ),
);

/** Names that keep their capital letter at the start of a subject. */
const PROPER =
  /^(?:I|Python|React|TypeScript|JavaScript|Java|Go|Golang|Rust|Ruby|Swift|Kotlin|Django|Flask|FastAPI|Node|Express|Vue|Angular|Svelte|Next|Excel|Google|Apple|Android|iOS|Linux|Windows|Docker|Kubernetes|AWS|Azure|Postgres|PostgreSQL|MySQL|SQLite|Redis|Stripe|Slack|GitHub|Tailwind|Figma|Shopify|WordPress|Notion|Monday|Friday|Saturday|Sunday|Tuesday|Wednesday|Thursday|January|February|March|April|May|June|July|August|September|October|November|December|English|French|German|Spanish|Italian|Chinese|Japanese)$/;

/** The user's own words from a call's prompt: everything before the engine's scaffolding. */
export function userRequestOf(prompt: string): string {
  const cut = SCAFFOLDING.exec(prompt);
  return (cut ? prompt.slice(0, cut.index) : prompt).trim();
}

/** The request as prose: fenced code and Markdown decoration removed, inline code kept. */
function proseOf(request: string): string {
  return request
    .replace(/```[\s\S]*?(?:```|$)/g, "\n")
    .replace(/`([^`\n]*)`/g, "$1")
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, "")
    .replace(/\*\*|__|~~/g, "")
    .replace(/https?:\/\/\S+/g, (url) => url.replace(/[.,;:!?)]+$/, ""));
}

function sentencesOf(prose: string): string[] {
  return prose
    .replace(ABBREVIATIONS, (m) => m.replace(/\./g, "\u2024"))
    .split(/(?<=[.!?。！？])\s+|\n+/)
    .map((s) =>
      s
        .replace(/\u2024/g, ".")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

const ASKS =
  /\b(?:write|build|create|make|design|draft|implement|develop|generate|plan|outline|need|want|help|how|what|why|which|when|should|can you|could you|please|explain|fix|add|give|show|set up|review|improve|suggest|compare|translate|refactor|optimi[sz]e|convert|debug|draw|list|find|summari[sz]e)\b|\?$/i;

/** The sentence that asks: the first one with a request in it, else the first one. */
function askingSentence(sentences: readonly string[]): string | undefined {
  const useful = sentences
    .map((s) => s.replace(GREETING, "").trim())
    .filter((s) => s.length > 0 && !FILLER.test(s));
  return useful.find((s) => ASKS.test(s)) ?? useful[0];
}

/** Context first, then the ask ("We run a garden, and we need a rota"): the ask. */
const LATE_ASK =
  /(?:,|\band\b|\bso\b|\bbut\b)\s+((?:i|we)\s+(?:really\s+)?(?:need|want|would like|'d like|’d like)\b.+|(?:can|could|would) you\b.+|please\b.+)$/i;

function peel(sentence: string): string {
  let text = sentence.replace(/[\s.!?。！？:;,]+$/u, "");
  const late = LATE_ASK.exec(text)?.[1];
  if (late && !/^(?:i|we)\b/i.test(text)) text = late;
  else if (late && /^(?:i|we) (?:am|are|have|run|work|'m|’m|'re|’re)\b/i.test(text)) text = late;
  for (let changed = true; changed; ) {
    changed = false;
    for (const lead of LEAD_INS) {
      const next = text.replace(lead, "");
      if (next !== text && next.length > 0) {
        text = next;
        changed = true;
      }
    }
  }
  return text;
}

/** "in two sentences" says how long the answer should be, not what it is about. */
const LENGTH_NOTE =
  /(?:^|\s)(?:in|using) (?:one|two|three|four|five|a few|a couple of|\d+) (?:short )?(?:sentences?|words|paragraphs?|lines?|points?|bullets?|bullet points?)\b,?/gi;

function withoutLengthNote(text: string): string {
  const stripped = text
    .replace(LENGTH_NOTE, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(?:explain|describe|tell me)\s+(?=(?:what|who|how|why)\b)/i, "");
  // "what an overdue fine cap is" → "an overdue fine cap"
  const whatIs = /^(?:what|who) (?!is\b|are\b|was\b|were\b)(.+?)(?: (?:is|are|means?))?$/i.exec(
    stripped,
  );
  return whatIs?.[1] ?? stripped;
}

/** Questions become the thing asked about: "How do I X?" → "how to X". */
function unquestion(text: string): string {
  const how = /^how (?:do|can|should|would|could|might) (?:i|we|you|one) (.+)$/i.exec(text);
  if (how) return `how to ${how[1]}`;
  // "why is my app re-rendering" → "why my app is re-rendering"
  const why = /^why (is|are|was|were) ((?:\S+ ){1,5}?)(\S+ing\b.*)$/i.exec(text);
  if (why?.[2]) return `why ${why[2]}${why[1]?.toLowerCase()} ${why[3]}`;
  const works = /^how (?:does|do) (.+?) work$/i.exec(text);
  if (works) return `how ${works[1]} works`;
  const what =
    /^(?:what|what's|what’s)(?: is| are|'s|’s)? (?:a |an |the )?(?:good|best|right|simplest|easiest) (way|ways|approach|name|names) (?:to|for) (.+)$/i.exec(
      text,
    );
  if (what) return `the best ${what[1]} to ${what[2]}`.replace(/ to (for|to) /, " $1 ");
  const whatIs = /^(?:what|what's|what’s) (?:is|are|'s|’s)? ?(.+)$/i.exec(text);
  if (whatIs && !/^(?:do|does|did|should|can|would)\b/i.test(whatIs[1] ?? "")) {
    return (whatIs[1] ?? text).trim();
  }
  return text;
}

function unverb(text: string): string {
  const match = MAKING_VERB.exec(text);
  if (!match) return text;
  const rest = text
    .slice(match[0].length)
    .replace(/^[\s:,-]+/, "")
    .trim();
  // "Plan" alone, or a verb whose object is a pronoun, is the whole request.
  if (rest.length === 0 || /^(?:it|this|that|them)\b/i.test(rest)) return text;
  return rest;
}

/** "my bakery" → "your bakery": the team answers the user. */
export function toSecondPerson(text: string): string {
  return text
    .replace(/\bI am\b/g, "you are")
    .replace(/\bI was\b/g, "you were")
    .replace(/\bI(?:'m|’m)\b/g, "you're")
    .replace(/\bI(?:'ve|’ve)\b/g, "you've")
    .replace(/\bI(?:'d|’d)\b/g, "you'd")
    .replace(/\bI\b/g, "you")
    .replace(/\bwe(?:'re|’re)\b/gi, "you're")
    .replace(/\b(?:my|our)\b/gi, (w) => (w[0] === w[0]?.toUpperCase() ? "Your" : "your"))
    .replace(/\b(?:mine|ours)\b/gi, "yours")
    .replace(/\bmyself\b/gi, "yourself")
    .replace(/\bourselves\b/gi, "yourselves")
    .replace(/\b(?:me|us)\b/g, "you")
    .replace(/\bwe\b/gi, "you");
}

function withoutDangling(text: string): string {
  const words = text.split(" ");
  while (words.length > 1 && DANGLING.has((words.at(-1) ?? "").toLowerCase())) words.pop();
  return words.join(" ").replace(/[\s,;:–—-]+$/u, "");
}

/** Shortens at the first clause boundary that leaves a whole phrase, else at a word. */
function shorten(text: string): string {
  if (text.length <= MAX_SUBJECT) return text;
  const boundaries =
    /,\s|;\s|\s[–—-]\s|\s\((?=[^)]*\)?)|\s(?:so that|because|which|where|while|including|such as|using|but|and then)\s/g;
  for (const match of text.matchAll(boundaries)) {
    const head = withoutDangling(text.slice(0, match.index));
    if (head.length >= 16 && head.length <= MAX_SUBJECT) return head;
    if (match.index > MAX_SUBJECT) break;
  }
  const words = text.slice(0, MAX_SUBJECT + 1).split(" ");
  if (words.length > 1) words.pop();
  const cut = withoutDangling(words.join(" "));
  return cut.length >= 8 ? cut : text.slice(0, MAX_SUBJECT);
}

/** Sentence case is undone, except for names and acronyms ("Python", "SaaS", "API"). */
function lowerFirstWord(text: string): string {
  const first = /^[\p{L}'’]+/u.exec(text)?.[0] ?? "";
  if (first.length === 0 || PROPER.test(first)) return text;
  const rest = first.slice(1);
  if (rest !== rest.toLowerCase() || (first.length > 1 && first === first.toUpperCase())) {
    return text;
  }
  return first.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * The subject of a request: a short noun phrase (or "how to …" phrase) fit to follow "for" or
 * "about". Never empty: a request that is only code is "the code you shared".
 */
export function subjectOf(request: string): string {
  const own = userRequestOf(request);
  const sentence = askingSentence(sentencesOf(proseOf(own)));
  if (!sentence) return /```/.test(own) ? "the code you shared" : "your request";
  let text = withoutLengthNote(peel(sentence));
  text = unquestion(text);
  text = unverb(text);
  text = peel(text);
  // A leading label ("Landing page: recipes") keeps what follows when the label is one word.
  const label = /^([\p{L}-]+)\s*:\s+(.+)$/u.exec(text);
  if (label?.[2]) text = label[2];
  // "the fine rules for a library: a daily fine, a cap, …": the subject is what comes before
  // the colon; what follows lists its details (decision 065).
  else {
    const detailed = /^(\S+(?:\s+\S+){2,}?)\s*:\s+\S/.exec(text);
    if (detailed?.[1]) text = detailed[1];
  }
  text = text.replace(/\s*:\s*$/, "").replace(/^["'“‘]+|["'”’]+$/g, "");
  text = withoutDangling(shorten(toSecondPerson(text)));
  text = lowerFirstWord(text.trim());
  return text.length > 0 ? text : "your request";
}

/** Upper-cases the first letter (for titles built from a subject). */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What kind of work a subject is; the kind decides which roles plan, draft and review it,
 * and what each writes. The earliest telling word wins ("the copy for a landing page" is
 * writing, "a landing page with copy" is a page).
 */
export type SubjectKind = "page" | "code" | "data" | "visual" | "writing" | "plan" | "question";

const KIND_WORDS: readonly [SubjectKind, RegExp][] = [
  [
    "page",
    /\b(?:page|pages|landing|website|web ?site|site|screen|screens|component|form|dashboard|ui|frontend|front-end|modal|navbar|nav bar|menu|widget|homepage|checkout|onboarding|settings|signup|sign-up|login|log-in|html|css|react|vue|svelte|tailwind)\b/i,
  ],
  [
    "data",
    /\b(?:sql|query|queries|database|databases|schema|table|tables|postgres|postgresql|mysql|sqlite|migration|index|indexes|data ?models?|entities|entity|erd)\b/i,
  ],
  [
    "code",
    /\b(?:code|function|functions|script|scripts|api|apis|endpoint|endpoints|backend|back-end|server|cli|program|class|module|library|algorithm|regex|bug|test|tests|python|typescript|javascript|node|go|golang|rust|java|bash|shell|app|bot|parser|crawler|scraper|middleware|refactor|webhook|cron|pipeline|docker|deploy|auth|authentication)\b/i,
  ],
  [
    "visual",
    /\b(?:logo|logos|brand|branding|palette|colou?r scheme|colou?rs|icon|icons|illustration|poster|flyer|banner|wireframe|wireframes|mock-?up|mock-?ups|style guide|typography|visual identity|ux|user experience)\b/i,
  ],
  [
    "writing",
    /\b(?:email|e-mail|emails|newsletter|blog|post|article|copy|copywriting|tagline|taglines|slogan|headline|headlines|announcement|press release|letter|cover letter|tweet|tweets|essay|poem|story|description|bio|caption|captions|speech|toast|proposal|pitch|faq|readme|summary)\b/i,
  ],
];

/** Things one makes: a question naming one of them is a request to make it. */
const ARTIFACT =
  /\b(?:function|script|component|page|query|api|endpoint|class|program|regex|schema|logo|email|form|dashboard|website|app)\b/i;

/** A question of fact or meaning ("What is the fine for…?", "Explain what X is"). */
const ASKS_FACT =
  /^(?:(?:hi|hello|hey)[,!]?\s+)?(?:what|what's|which|when|where|who|how much|how many|how long|how often|is|are|was|were|does|do|did|can|may|explain|describe|define|tell me)\b/i;

export function kindOf(request: string): SubjectKind {
  const subject = subjectOf(request);
  const own = userRequestOf(request);
  if (/```/.test(own)) return "code";
  const asked = proseOf(own).trim();
  if (
    ASKS_FACT.test(asked) &&
    (/\?\s*$/.test(asked) ||
      /^(?:explain|describe|define|tell me (?:what|who|how|why|when|where))\b/i.test(asked)) &&
    !ARTIFACT.test(subject)
  ) {
    return "question";
  }
  if (/^why\b/i.test(subject)) return "question";
  if (
    /^(?:how to|how|what|the best (?:way|ways|approach))\b/i.test(subject) &&
    !ARTIFACT.test(subject)
  ) {
    return "question";
  }
  let best: { kind: SubjectKind; at: number } | null = null;
  for (const [kind, words] of KIND_WORDS) {
    const at = words.exec(subject)?.index;
    if (at !== undefined && (best === null || at < best.at)) best = { kind, at };
  }
  if (best) return best.kind;
  if (
    /\?\s*$/.test(proseOf(own).trim()) ||
    /^(?:how|what|why|when|where|which|who|should|is|are|can|does|do)\b/i.test(subject)
  ) {
    return "question";
  }
  return "plan";
}

/** The programming language a request implies, by name or by what it builds. */
export type CodeLanguage = "tsx" | "html" | "python" | "ts" | "js" | "sql" | "bash" | "go" | "rust";

const FENCE_LANGUAGES: Record<string, CodeLanguage> = {
  py: "python",
  python: "python",
  ts: "ts",
  typescript: "ts",
  tsx: "tsx",
  jsx: "tsx",
  js: "js",
  javascript: "js",
  sql: "sql",
  sh: "bash",
  bash: "bash",
  shell: "bash",
  go: "go",
  rust: "rust",
  rs: "rust",
  html: "html",
  css: "html",
};

export function languageOf(request: string): CodeLanguage {
  const own = userRequestOf(request);
  const fenced = /```([\w+-]+)/.exec(own)?.[1]?.toLowerCase();
  if (fenced && FENCE_LANGUAGES[fenced]) return FENCE_LANGUAGES[fenced];
  const text = proseOf(own).toLowerCase();
  if (/\bpython\b|\bpandas\b|\bdjango\b|\bflask\b|\bfastapi\b|\.py\b/.test(text)) return "python";
  if (/\b(?:golang|go (?:function|program|script|service|server|cli|code))\b|\bin go\b/.test(text))
    return "go";
  if (/\brust\b|\bcargo\b/.test(text)) return "rust";
  if (/\b(?:bash|shell|zsh|sh script)\b/.test(text)) return "bash";
  if (/\b(?:sql|postgres|postgresql|mysql|sqlite)\b/.test(text)) return "sql";
  if (/\b(?:plain html|html and css|html\/css|html|css)\b/.test(text) && !/\breact\b/.test(text)) {
    return "html";
  }
  if (/\bjavascript\b|\bjs\b|\bnode\.?js\b/.test(text) && !/\btypescript\b|\breact\b/.test(text))
    return "js";
  const kind = kindOf(request);
  if (kind === "page") return "tsx";
  if (kind === "data") return "sql";
  if (/\bscript\b/.test(text) && !/\btypescript\b/.test(text)) return "python";
  return "ts";
}

const STOPWORDS = new Set(
  "about above after again against also because been before being below between both could does doing down during each from further have having here into itself just more most other over same should some such than that their them then there these they this those through under until very what when where which while will with would your yours please write make create build need want help give show using only also small simple quick short good best nice little basic full complete new".split(
    " ",
  ),
);

/** The subject's content words, in order (for names and lookups, never for prose). */
export function contentWords(text: string, count = 3): string[] {
  const words = text.toLowerCase().match(/[\p{L}][\p{L}\p{N}-]{2,}/gu) ?? [];
  return [...new Set(words.filter((w) => !STOPWORDS.has(w) && !DANGLING.has(w)))].slice(0, count);
}

/** The topic of a request that names none. */
export const NO_SUBJECT = "your next task";

/** What an answer is about, resolved once per call. */
export interface Topic {
  subject: string;
  kind: SubjectKind;
  /** The request the subject came from (an earlier one for a follow-up). */
  request: string;
  /** The user's follow-up instruction ("make it shorter") when the subject came from before. */
  followUp: string | null;
}

const REFERS_BACK = /\b(?:it|this|them|the same|again|instead|shorter|longer|simpler)\b/i;

function isFollowUp(request: string, subject: string): boolean {
  if (subject === "your request") return true;
  const words = subject.split(/\s+/).length;
  if (/```/.test(request)) return false;
  if (
    words <= 6 &&
    /^(?:in|with|without|for|using|as|about|what about|how about)\b/i.test(subject)
  ) {
    return true;
  }
  return words <= 8 && REFERS_BACK.test(subject);
}

/**
 * The topic of a call: the latest request's subject, or for a short follow-up that points
 * back ("Now make it shorter", "and in Python?") the subject of the user's earlier message.
 */
export function topicOf(request: string, earlier: readonly string[] = []): Topic {
  const subject = subjectOf(request);
  if (isFollowUp(request, subject)) {
    const before = [...earlier].reverse().find((m) => !isFollowUp(m, subjectOf(m)));
    if (before) {
      return {
        subject: subjectOf(before),
        kind: kindOf(before),
        request: `${before}\n${userRequestOf(request)}`,
        followUp: peelFollowUp(request),
      };
    }
  }
  // Nothing to go on (a greeting, only punctuation): the team helps find the first task.
  if (subject === "your request") {
    return { subject: NO_SUBJECT, kind: "plan", request, followUp: null };
  }
  return { subject, kind: kindOf(request), request, followUp: null };
}

function peelFollowUp(request: string): string {
  const sentence = askingSentence(sentencesOf(proseOf(userRequestOf(request))));
  return sentence ? peel(sentence) : userRequestOf(request);
}

/**
 * A question of fact or meaning ("What is the fine for a late DVD?"), not a how-to, a "why"
 * or a comparison: it is answered from the passages given, not with a plan (decision 056).
 */
export function isFactualQuestion(topic: Pick<Topic, "kind" | "subject">): boolean {
  return (
    topic.kind === "question" &&
    !/^(?:how to|why|the best (?:way|ways|approach|name|names))\b/i.test(topic.subject) &&
    !/\b(?:difference(?:s)? between|vs\.?|versus|compared (?:to|with))\b|^compare\b/i.test(
      topic.subject,
    )
  );
}
