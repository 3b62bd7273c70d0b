import {
  SESSION_IDLE_AFTER_MS,
  type TSessionsQuery,
  type TSessionsResponse,
} from "@cohort/contracts";

/** The text of a page as the database gave it (null: no row), and the answer made of it. */
interface Answer {
  /** What the database's page is compared by: its text, or the rider's page version. */
  version: string;
  text: string;
  page: number;
  pageSize: number;
  /** The clock times between which every session's `activity` reads as it did: [from, until). */
  from: number;
  until: number;
  json: string;
}

/** Characters kept at most (the texts and the answers together), oldest user's first out. */
const MAX_CHARS = 4_000_000;

/** An entry's characters (a version that is the text itself is the same string). */
const size = (a: Answer) =>
  (a.version === a.text ? 0 : a.version.length) + a.text.length + a.json.length;

/**
 * A page of sessions as sent, remembered per user or per sign-in (decisions 088 and 089). The page is still read
 * from the database on every request (with the sign-in, decision 084); what is remembered is
 * what the route made of that text: its parse, the rows' mapping, the response contract's
 * check and the serialisation. The answer is a function of the text, the page asked for and
 * the clock, and the clock only decides, per session, whether `now - last activity` has
 * reached SESSION_IDLE_AFTER_MS (`sessionActivity`). So an answer is used again only for the
 * same text and page, while the clock is within the interval in which no session's side of
 * that comparison changed; anything else is made afresh, exactly as before. One's own page,
 * read with the sign-in, is compared by its version instead (`personalPageRider`): the
 * database checks the rows' versions against the kept one and sends the text only when they
 * differ, so the same version stands for the same text (decision 089).
 */
export function createPageAnswers(serialize: (page: TSessionsResponse) => string) {
  const answers = new Map<string, Answer>();
  let chars = 0;
  const forget = (key: string) => {
    const kept = answers.get(key);
    if (!kept) return;
    chars -= size(kept);
    answers.delete(key);
  };
  return {
    /** The version of the page kept under `key`, for the rider's comparison (decision 089). */
    versionOf(key: string): string | null {
      return answers.get(key)?.version ?? null;
    },
    /** The page text kept under `key` for this version, if it still is. */
    textOf(key: string, version: string): string | undefined {
      const kept = answers.get(key);
      return kept?.version === version ? kept.text : undefined;
    },
    /**
     * The answer for the page the database gave: its `text`, compared by `version` (the text
     * itself, or the rider's page version; null: not to be kept).
     */
    async answer(
      key: string,
      version: string | null,
      text: string | null,
      query: TSessionsQuery,
      make: (now: number) => Promise<TSessionsResponse>,
    ): Promise<string> {
      const now = Date.now();
      const kept = answers.get(key);
      if (
        kept !== undefined &&
        kept.version === version &&
        kept.page === query.page &&
        kept.pageSize === query.pageSize &&
        now >= kept.from &&
        now < kept.until
      ) {
        return kept.json;
      }
      const page = await make(now);
      const json = serialize(page);
      forget(key);
      // A page past the end carries no row: its total is counted afresh each time.
      if (version === null || text === null || page.sessions.length === 0) return json;
      let from = Number.NEGATIVE_INFINITY;
      let until = Number.POSITIVE_INFINITY;
      for (const session of page.sessions) {
        // Where `now - last activity >= SESSION_IDLE_AFTER_MS` turns for this session; every
        // session counts, also those whose activity the clock cannot change (running, completed).
        const turn = Date.parse(session.last_activity_at) + SESSION_IDLE_AFTER_MS;
        if (turn <= now) from = Math.max(from, turn);
        else until = Math.min(until, turn);
      }
      const entry = {
        version,
        text,
        page: query.page,
        pageSize: query.pageSize,
        from,
        until,
        json,
      };
      answers.set(key, entry);
      chars += size(entry);
      for (const oldest of answers.keys()) {
        if (chars <= MAX_CHARS) break;
        forget(oldest);
      }
      return json;
    },
  };
}
