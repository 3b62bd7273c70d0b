import { createReadStream } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { TDocumentStore } from "@cohort/contracts";
import type { DocumentsConfig } from "../../config";

/**
 * Where document bytes live (decision 036): files under DATA_DIR/documents, or an
 * S3-compatible bucket. Keys are server-made UUIDs; a user's file name never becomes a path
 * or an object key.
 */
export interface DocumentStore {
  readonly kind: TDocumentStore;
  /**
   * Takes over a received upload (a file in the spool directory, already checked) as `key`.
   * The spool file is gone afterwards either way.
   */
  put(key: string, spoolFile: string, size: number): Promise<void>;
  /** Keeps `bytes` as `key` (a file made in memory: an image a model made, decision 064). */
  write(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The whole file (documents are bounded by DOCUMENT_MAX_MB). */
  read(key: string): Promise<Buffer>;
  /** A stream of the file, for downloads. */
  open(key: string): Promise<Readable>;
  /** Removes the file; a missing one is not an error. */
  remove(key: string): Promise<void>;
}

const KEY = /^[0-9a-f-]{36}$/;

function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Not a document storage key: ${key}`);
  return key;
}

/**
 * The store of `folder`: `documents`, or `images` for the pictures image models make
 * (decision 064), each a directory under DATA_DIR or a prefix in the bucket.
 */
export function createDocumentStore(
  config: DocumentsConfig,
  dataDir: string,
  folder: "documents" | "images" | "code-files" = "documents",
): DocumentStore {
  return config.s3 ? s3Store(config.s3, folder) : localStore(path.join(dataDir, folder));
}

function localStore(dir: string): DocumentStore {
  const file = (key: string) => path.join(dir, checkKey(key));
  return {
    kind: "local",
    async put(key, spoolFile) {
      // The spool directory is inside DATA_DIR too: a rename, no copy.
      await mkdir(dir, { recursive: true });
      try {
        await rename(spoolFile, file(key));
      } finally {
        await rm(spoolFile, { force: true });
      }
    },
    async write(key, bytes) {
      await mkdir(dir, { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const aside = `${file(key)}.part`;
      await writeFile(aside, bytes);
      await rename(aside, file(key));
    },
    read: (key) => readFile(file(key)),
    async open(key) {
      const stream = createReadStream(file(key));
      await new Promise<void>((resolve, reject) => {
        stream.once("open", () => resolve());
        stream.once("error", reject);
      });
      return stream;
    },
    remove: (key) => rm(file(key), { force: true }),
  };
}

function s3Store(s3: NonNullable<DocumentsConfig["s3"]>, folder: string): DocumentStore {
  // The S3 client (~150 ms and ~6 MB of modules) loads only where a bucket is configured:
  // its load starts here, at start-up, and the first use waits for it (decision 085).
  const sdk = import("@aws-sdk/client-s3");
  const client = sdk.then(
    ({ S3Client }) =>
      new S3Client({
        region: s3.region,
        forcePathStyle: s3.forcePathStyle,
        // Checksums only where S3 requires them: the SDK's default (aws-chunked bodies with
        // trailing checksums) is not understood by many S3-compatible stores.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
        ...(s3.accessKeyId && s3.secretAccessKey
          ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
          : {}),
      }),
  );
  // A load that fails fails each use of the store (as the error it is), not the start-up.
  client.catch(() => {});
  const objectKey = (key: string) => `${folder}/${checkKey(key)}`;
  const get = async (key: string) => {
    const { GetObjectCommand } = await sdk;
    const answer = await (await client).send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: objectKey(key) }),
    );
    if (!answer.Body) throw new Error("The document store returned no body");
    return answer.Body as Readable;
  };
  return {
    kind: "s3",
    async put(key, spoolFile, size) {
      try {
        const { PutObjectCommand } = await sdk;
        await (await client).send(
          new PutObjectCommand({
            Bucket: s3.bucket,
            Key: objectKey(key),
            Body: createReadStream(spoolFile),
            ContentLength: size,
            ContentType: "application/octet-stream",
          }),
        );
      } finally {
        await rm(spoolFile, { force: true });
      }
    },
    async write(key, bytes, contentType) {
      const { PutObjectCommand } = await sdk;
      await (await client).send(
        new PutObjectCommand({
          Bucket: s3.bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: contentType,
        }),
      );
    },
    async read(key) {
      const body = await get(key);
      const parts: Buffer[] = [];
      for await (const part of body) parts.push(part as Buffer);
      return Buffer.concat(parts);
    },
    open: get,
    async remove(key) {
      const { DeleteObjectCommand, NoSuchKey } = await sdk;
      try {
        await (await client).send(
          new DeleteObjectCommand({ Bucket: s3.bucket, Key: objectKey(key) }),
        );
      } catch (error) {
        if (!(error instanceof NoSuchKey)) throw error;
      }
    },
  };
}
