import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { TDocumentsResponse } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { makePdf, uploadProcessed } from "./support/documents";

/** s3rver speaks the S3 protocol on loopback; it ships no types of its own. */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;

const BUCKET = "cohort-documents";
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

let server: S3rverInstance;
let endpoint: string;
let s3: S3Client;
let t: TestApp;
let user: SignedUp;

beforeAll(async () => {
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: mkdtempSync(path.join(tmpdir(), "cohort-s3rver-")),
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: CREDENTIALS,
  });
  t = await createTestApp({
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
  });
  user = await signUp(t.app);
});

afterAll(async () => {
  await t?.close();
  s3?.destroy();
  await server?.close();
});

describe("documents in an S3-compatible store", () => {
  it("stores, extracts, downloads and deletes through the bucket", async () => {
    const pdf = await makePdf(["A page about the S3 heron."]);
    const doc = await uploadProcessed(user.client, "heron.pdf", pdf);
    expect(doc).toMatchObject({ status: "ready", pages: 1 });

    const list = (await user.client.get("/api/documents")).json() as TDocumentsResponse;
    expect(list.store).toBe("s3");
    const key = `documents/${doc.id}`;
    const stored = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(Buffer.from(await (stored.Body?.transformToByteArray() ?? [])).equals(pdf)).toBe(true);

    const search = await user.client.get("/api/documents/search?q=heron");
    expect(search.json().passages[0]).toMatchObject({ document_id: doc.id, page: 1 });
    const download = await user.client.get(`/api/documents/${doc.id}/download`);
    expect(download.rawPayload.equals(pdf)).toBe(true);

    expect((await user.client.delete(`/api/documents/${doc.id}`)).statusCode).toBe(200);
    await expect(s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).rejects.toThrow();
  });
});
