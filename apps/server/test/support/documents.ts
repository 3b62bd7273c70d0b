import { randomBytes } from "node:crypto";
import { deflateRawSync, constants as zlib } from "node:zlib";
import type { TDocument } from "@cohort/contracts";
import type { TestClient } from "./client";

export { makeDocx, makeInflatingPdf, makePdf } from "../../../../test-support/document-fixtures";

/** Document fixtures made by the tests themselves, and the upload call as the web makes it. */

/** A short Markdown survey in two sections, for runs that search and cite attached documents. */
export const SOLAR = [
  "# Roof survey",
  "",
  "The roof faces south and has a pitch of 35 degrees, which suits solar panels well.",
  "The rafters were checked in March and can carry an extra 20 kilograms per square metre.",
  "",
  "# Inverter placement",
  "",
  "The inverter must sit in the garage, at most 10 metres from the consumer unit.",
].join("\n");

export function multipartBody(name: string, bytes: Buffer, field = "file") {
  const boundary = `----cohort${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export function upload(client: TestClient, name: string, bytes: Buffer | string) {
  const { payload, contentType } = multipartBody(
    name,
    typeof bytes === "string" ? Buffer.from(bytes) : bytes,
  );
  return client.request("POST", "/api/documents", payload, {
    headers: { "content-type": contentType },
  });
}

/** Polls the document until extraction has finished (ready or failed). */
export async function waitProcessed(client: TestClient, id: string): Promise<TDocument> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await client.get(`/api/documents/${id}`);
    const document = response.json().document as TDocument;
    if (document.status !== "processing") return document;
    if (Date.now() > deadline) throw new Error(`document ${id} is still processing`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Uploads and waits; fails the test unless the upload was accepted. */
export async function uploadProcessed(
  client: TestClient,
  name: string,
  bytes: Buffer | string,
): Promise<TDocument> {
  const response = await upload(client, name, bytes);
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.body}`);
  return waitProcessed(client, response.json().document.id);
}

/** `size` zero bytes with these little-endian fields written: [offset, bytes (2 or 4), value]. */
function littleEndian(size: number, fields: readonly [number, 2 | 4, number][]): Buffer {
  const buffer = Buffer.alloc(size);
  for (const [at, bytes, value] of fields) {
    if (bytes === 2) buffer.writeUInt16LE(value, at);
    else buffer.writeUInt32LE(value, at);
  }
  return buffer;
}

/**
 * A zip holding these parts (stored or deflated as given), with honest or understated sizes.
 * `raw` parts are already raw-deflated and declare `declaredSize` as their uncompressed size.
 */
export function makeZip(
  parts: readonly { name: string; data: Buffer; raw?: boolean; declaredSize?: number }[],
): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const compressed = part.raw ? part.data : deflateRawSync(part.data);
    const size = part.declaredSize ?? (part.raw ? compressed.length : part.data.length);
    // Signature, version needed (2.0), method 8 (deflate), sizes, name length.
    const local = littleEndian(30, [
      [0, 4, 0x04034b50],
      [4, 2, 20],
      [8, 2, 8],
      [18, 4, compressed.length],
      [22, 4, size],
      [26, 2, name.length],
    ]);
    // The same in the central directory, with the version made by and the local offset.
    const header = littleEndian(46, [
      [0, 4, 0x02014b50],
      [4, 2, 20],
      [6, 2, 20],
      [10, 2, 8],
      [20, 4, compressed.length],
      [24, 4, size],
      [28, 2, name.length],
      [42, 4, offset],
    ]);
    locals.push(local, name, compressed);
    central.push(header, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = littleEndian(22, [
    [0, 4, 0x06054b50],
    [8, 2, parts.length],
    [10, 2, parts.length],
    [12, 4, directory.length],
    [16, 4, offset],
  ]);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;

/**
 * A DOCX whose word/document.xml inflates to `megabytes` MB of spaces while its zip headers
 * claim 1 KB: raw deflate blocks of 1 MB each, repeated, then an empty final block.
 */
export function makeZipBombDocx(megabytes: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024, 0x20), {
    finishFlush: zlib.Z_FULL_FLUSH,
  });
  const finalBlock = deflateRawSync(Buffer.alloc(0));
  const body = Buffer.concat([...Array.from({ length: megabytes }, () => block), finalBlock]);
  return makeZip([
    { name: "[Content_Types].xml", data: Buffer.from(CONTENT_TYPES) },
    { name: "word/document.xml", data: body, raw: true, declaredSize: 1024 },
  ]);
}
