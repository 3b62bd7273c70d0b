import { Readable } from "node:stream";
import { exportFilename, type TUserProfile } from "@cohort/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { ZipFile } from "yazl";
import type { Queryable } from "../../db/client";
import { lazyModule } from "../../platform/lazy-module";
import { listAllConversations } from "../cochat/list-all-conversations";
import type { DocumentStore } from "../documents/document-store";
import { listUploadedDocuments, type StoredDocument } from "../documents/list-account-documents";
import { listCreatedSessions } from "../sessions/list-account-sessions";
import {
  buildLedgerPart,
  buildMemoriesPart,
  buildProfilePart,
  buildWorkspacesPart,
} from "./account-export-parts";
import { ACCOUNT_ZIP_README } from "./account-export-readme";
import { buildSessionExport } from "./build-session-export";

// Loaded on the first account export, not at start-up (decision 072).
const yazl = lazyModule<typeof import("yazl")>("yazl");

export interface AccountZipDeps {
  db: Queryable;
  store: DocumentStore;
  log: FastifyBaseLogger;
}

/**
 * The user's data as a zip stream (README.txt explains each part). Entries are added while
 * the zip is being sent, one session and one file at a time, so a large account is never
 * held in memory whole; a failure part-way ends the stream with an error (the download is
 * then incomplete and the browser says so) and is logged.
 */
export function streamAccountZip(deps: AccountZipDeps, user: TUserProfile): Readable {
  const zip = new (yazl().ZipFile)();
  const output = zip.outputStream as Readable;
  fillAccountZip(zip, deps, user).then(
    () => zip.end(),
    (error: unknown) => {
      deps.log.error({ err: error }, "the data zip could not be completed");
      output.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  );
  return output;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

async function fillAccountZip(
  zip: ZipFile,
  deps: AccountZipDeps,
  user: TUserProfile,
): Promise<void> {
  const { db } = deps;
  zip.addBuffer(Buffer.from(ACCOUNT_ZIP_README), "README.txt");
  zip.addBuffer(json(await buildProfilePart(db, user)), "profile.json");
  zip.addBuffer(json(await buildWorkspacesPart(db, user.id)), "workspaces.json");
  zip.addBuffer(json(await buildMemoriesPart(db, user.id)), "memories.json");
  zip.addBuffer(json(await buildLedgerPart(db, user)), "ledger.json");
  for (const session of await listCreatedSessions(db, user.id)) {
    const name = `${session.created_at.slice(0, 10)}-${exportFilename(session.title, "json").slice(0, -".json".length)}-${session.id}.json`;
    zip.addBuffer(json(await buildSessionExport(db, session.id)), `sessions/${name}`);
  }
  for (const conversation of await listAllConversations(db, user.id)) {
    zip.addBuffer(json(conversation), `cochat/${conversation.conversation.id}.json`);
  }
  const documents = await listUploadedDocuments(db, user.id);
  zip.addBuffer(
    json({
      documents: documents.map(({ document }) => ({ ...document, file: documentPath(document) })),
    }),
    "documents.json",
  );
  for (const stored of documents) addDocumentFile(zip, deps, stored);
}

/** Where a document's original file sits in the zip: its id keeps equal names apart. */
function documentPath(document: { id: string; name: string }): string {
  const safe = document.name.replace(/[\\/:*?"<>|\p{Cc}]+/gu, "_").slice(0, 180);
  return `documents/${document.id}-${safe || "file"}`;
}

/**
 * The file is opened only when the zip reaches it. A file the store cannot give (removed by
 * hand, an S3 outage) becomes an empty entry and a logged warning rather than a failed zip.
 */
function addDocumentFile(zip: ZipFile, deps: AccountZipDeps, stored: StoredDocument): void {
  zip.addReadStreamLazy(documentPath(stored.document), (done) => {
    deps.store.open(stored.storageKey).then(
      (stream) => done(null, stream),
      (error: unknown) => {
        deps.log.warn(
          { err: error, documentId: stored.document.id },
          "a document's file is missing from the data zip",
        );
        done(null, Readable.from([]));
      },
    );
  });
}
