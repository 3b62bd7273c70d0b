import {
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  type TPassage,
  type TSearchMode,
  type TSearchPassage,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client";
import { documentEmbedder, type Embedder } from "./embed-texts";
import { hasPgvector } from "./pgvector";

export type Passage = TPassage;

/**
 * Search and lookup within ONE workspace's documents (decision 040): the caller has checked
 * that the user may read the workspace (a run's session's, the MCP token owner's personal
 * one), so ids of another workspace's documents are simply not there.
 */
export interface DocumentSearch {
  /** documentIds limits to those (only the workspace's ready ones). */
  search(input: {
    workspaceId: string;
    query: string;
    documentIds?: readonly string[];
    limit: number;
  }): Promise<Passage[]>;
  /** The workspace's documents among ids (others silently dropped), with name/status/pages. */
  describe(
    workspaceId: string,
    documentIds: readonly string[],
  ): Promise<{ id: string; name: string; status: string; pages: number | null }[]>;
}

/** Search across a workspace's ready documents, for other modules (runs, MCP). */
export function documentSearch(app: FastifyInstance): DocumentSearch {
  const searcher = createSearcher(app.db, documentEmbedder(app));
  return {
    // A task's text, not a user's query: any of its words may match (best matches first).
    search: async (input) =>
      (await searcher.search({ ...input, match: "any" })).passages.map(toPassage),
    describe: (workspaceId, documentIds) => describeDocuments(app.db, workspaceId, documentIds),
  };
}

/** A search hit as other modules take it (runs, MCP): without the ordinal and highlighted snippet. */
function toPassage({ ordinal: _ordinal, snippet: _snippet, ...passage }: TSearchPassage): Passage {
  return passage;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only well-formed ids reach SQL (a malformed uuid would be a database error). */
function uuids(ids: readonly string[] | undefined): string[] | null {
  return ids ? ids.filter((id) => UUID.test(id)) : null;
}

async function describeDocuments(db: Db, workspaceId: string, documentIds: readonly string[]) {
  const ids = uuids(documentIds) ?? [];
  if (ids.length === 0) return [];
  const { rows } = await db.query<{
    id: string;
    name: string;
    status: string;
    pages: number | null;
  }>(
    `SELECT id, name, status, pages FROM documents
      WHERE workspace_id = $1 AND id = ANY($2::uuid[]) ORDER BY created_at, id`,
    [workspaceId, ids],
  );
  return rows;
}

// ts_headline options: markers instead of HTML (the web escapes and marks them).
const HEADLINE_OPTIONS = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_END}, MaxWords=40, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "`;

/** Candidates each ranking contributes before fusion. */
const CANDIDATES = 50;
/** Reciprocal rank fusion's constant (Cormack et al.): damps the top ranks' weight. */
const RRF_K = 60;

interface PassageRow {
  chunk_id: string;
  document_id: string;
  document_name: string;
  page: number | null;
  section: string | null;
  text: string;
  ordinal: number;
  snippet: string;
}

export interface Searcher {
  readonly mode: TSearchMode;
  search(input: {
    workspaceId: string;
    query: string;
    documentIds?: readonly string[] | undefined;
    limit: number;
    /**
     * `all`: every word must match (web search syntax: quotes, or, -), and when nothing
     * does, any word may; `any`: any word may match from the start.
     */
    match?: "all" | "any";
  }): Promise<{ mode: TSearchMode; passages: TSearchPassage[] }>;
}

/**
 * Full-text search (websearch_to_tsquery, ts_rank_cd, GIN index) on PGlite and PostgreSQL
 * alike; with an embedding model, also vector similarity, fused by reciprocal rank
 * (decision 036). Only one workspace's ready documents are searched (decision 040).
 */
export function createSearcher(db: Db, embedder: Embedder | null): Searcher {
  const mode: TSearchMode = embedder ? "hybrid" : "keyword";
  return {
    mode,
    async search({ workspaceId, query, documentIds, limit, match = "all" }) {
      const ids = uuids(documentIds);
      if (ids && ids.length === 0) return { mode, passages: [] };
      const documents = await readyDocuments(db, workspaceId, ids);
      if (documents.length === 0) return { mode, passages: [] };
      const searched = documents.map((document) => document.id);
      const candidates = embedder ? CANDIDATES : limit;
      let text = match === "all" ? query : anyWord(query);
      let keyword = await keywordRanking(db, searched, text, candidates, match);
      if (keyword.length === 0 && match === "all") {
        text = anyWord(query);
        keyword = await keywordRanking(db, searched, text, candidates, "any");
      }
      let ranked = keyword;
      if (embedder) {
        const embedded = documents
          .filter((document) => document.embedding_model === embedder.model)
          .map((document) => document.id);
        const semantic = await vectorCandidates(db, embedder, embedded, query);
        ranked = fuse([keyword.map((row) => row.id), semantic]);
      }
      const top = ranked.slice(0, limit);
      if (top.length === 0) return { mode, passages: [] };
      const { rows } = await db.query<PassageRow>(
        `SELECT c.id AS chunk_id, c.document_id, d.name AS document_name, c.page, c.section,
                c.text, c.ordinal,
                ts_headline('english', c.text, websearch_to_tsquery('english', $2), $3) AS snippet
           FROM document_chunks c JOIN documents d ON d.id = c.document_id
          WHERE c.id = ANY($1::uuid[])`,
        [top.map((row) => row.id), text, HEADLINE_OPTIONS],
      );
      const byId = new Map(rows.map((row) => [row.chunk_id, row]));
      const passages = top.flatMap(({ id, score }) => {
        const row = byId.get(id);
        return row ? [{ ...row, score }] : [];
      });
      return { mode, passages };
    },
  };
}

/** The query's words joined by OR (websearch syntax), at most 32 of them. */
function anyWord(query: string): string {
  return (query.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 32).join(" or ");
}

/**
 * The workspace's ready documents (among ids when given), read before the chunks: the
 * chunk query then scans the full-text index once with the ids as a filter, where a join
 * on documents was planned as one index scan per document (decision 078).
 */
async function readyDocuments(
  db: Db,
  workspaceId: string,
  ids: string[] | null,
): Promise<{ id: string; embedding_model: string | null }[]> {
  const { rows } = await db.query<{ id: string; embedding_model: string | null }>(
    `SELECT id, embedding_model FROM documents
      WHERE workspace_id = $1 AND status = 'ready' AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[]))`,
    [workspaceId, ids],
  );
  return rows;
}

/**
 * Matching chunks ranked beyond this many: ranking reads every match's tsvector, and a
 * query of common words matches most of a large corpus (60,000 of 100,000 chunks: seconds).
 * Up to it the ranking is exact; past it, the first matches in storage order are ranked
 * (decisions 078 and 081).
 */
export const RANKED_MATCHES_MAX = 1000;

/**
 * The best `limit` of the first RANKED_MATCHES_MAX matches. Any-word queries match densely,
 * so a scan stopped at the bound is cheapest and the planner finds it; every-word queries
 * often match a few percent of the chunks, where a scan stopped at the bound still reads
 * (and detoasts) most of the table, so their matches are planned as if all were wanted (an
 * index scan when they are few) and read only up to the bound (decision 081). Either way
 * the first matches in storage order, so both plans rank the same pool.
 */
async function keywordRanking(
  db: Db,
  documentIds: string[],
  query: string,
  limit: number,
  match: "all" | "any",
): Promise<{ id: string; score: number }[]> {
  const { rows } = await db.query<{ id: string; score: number }>(
    match === "any" ? ANY_WORD_RANKING : ALL_WORDS_RANKING,
    [documentIds, query, limit, RANKED_MATCHES_MAX],
  );
  return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
}

const ANY_WORD_RANKING = `SELECT m.id, ts_rank_cd(m.search, q.query) AS score
   FROM websearch_to_tsquery('english', $2) AS q(query),
        LATERAL (SELECT c.id, c.search FROM document_chunks c
                  WHERE c.document_id = ANY($1::uuid[]) AND c.search @@ q.query
                  LIMIT $4) AS m
  ORDER BY score DESC, m.id
  LIMIT $3`;

// A MATERIALIZED CTE is planned for all its rows and read only as far as the LIMIT asks.
const ALL_WORDS_RANKING = `WITH q AS (SELECT websearch_to_tsquery('english', $2) AS query),
     matches AS MATERIALIZED (
       SELECT c.id, c.search FROM document_chunks c, q
        WHERE c.document_id = ANY($1::uuid[]) AND c.search @@ q.query)
SELECT m.id, ts_rank_cd(m.search, q.query) AS score
  FROM q, (SELECT id, search FROM matches LIMIT $4) AS m
 ORDER BY score DESC, m.id
 LIMIT $3`;

/** Reciprocal rank fusion of several rankings (ids best first). */
function fuse(rankings: readonly (readonly string[])[]): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, rank) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
    });
  }
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** The chunks nearest the query's embedding: pgvector's operator where available, else SQL. */
async function vectorCandidates(
  db: Db,
  embedder: Embedder,
  documentIds: string[],
  query: string,
): Promise<string[]> {
  if (documentIds.length === 0) return [];
  // A query is a few tokens (0.00003 credits at the dearest price): not charged.
  const [vector] = (await embedder.embed([query])).vectors;
  if (!vector) return [];
  const literal = `{${vector.join(",")}}`;
  const distance = (await hasPgvector(db))
    ? "c.embedding::vector <=> $2::real[]::vector"
    : "1 - (SELECT sum(a * b) FROM unnest(c.embedding, $2::real[]) AS v(a, b))";
  const { rows } = await db.query<{ id: string }>(
    `SELECT c.id FROM document_chunks c
      WHERE c.document_id = ANY($1::uuid[]) AND c.embedding IS NOT NULL
      ORDER BY ${distance}, c.id
      LIMIT $3`,
    [documentIds, literal, CANDIDATES],
  );
  return rows.map((row) => row.id);
}
