import { constants, createInflate } from "node:zlib";

/**
 * Checks a PDF before pdfjs opens it (decision 050). pdfjs inflates a stream into one
 * growing buffer, outside the JavaScript heap that the worker's memory limit counts: a 1 MB
 * file whose content stream is 1 GB of zeros grew the server to 2.55 GB. Here every stream
 * is decoded first through its filters, counting what it expands to without keeping it (or
 * keeping at most `maxInflatedBytes` when another filter follows), and a file whose streams
 * expand beyond `maxInflatedBytes` in total is refused. Returns null when the file may be
 * read, else why not.
 *
 * Filters that pdfjs's text extraction does not decode (images: DCT, JPX, JBIG2, CCITT) end
 * a stream's chain. An encrypted file's streams cannot be decoded here: for those the
 * extraction's memory watchdog (extract-document.ts) is the bound.
 */
export async function checkPdfStreams(
  bytes: Uint8Array,
  maxInflatedBytes: number,
): Promise<string | null> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const refusal = `The PDF's compressed contents expand to more than ${formatMb(maxInflatedBytes)}, so it was not read.`;
  let total = 0;
  for (const stream of findStreams(text)) {
    let data: Uint8Array = bytes.subarray(stream.start, stream.end);
    for (const [index, filter] of stream.filters.entries()) {
      const last = index === stream.filters.length - 1;
      const room = maxInflatedBytes - total;
      const decoded = await decode(filter, data, room, !last);
      if (decoded === "unknown") break;
      if (decoded === "too large") return refusal;
      if (last || decoded.bytes === null) {
        total += decoded.size;
        break;
      }
      data = decoded.bytes;
    }
    if (total > maxInflatedBytes) return refusal;
  }
  return null;
}

function formatMb(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

interface FoundStream {
  start: number;
  end: number;
  filters: string[];
}

/** The longest dictionary text looked at before a `stream` keyword. */
const MAX_DICT_CHARS = 4096;

/**
 * Every `stream … endstream` in the file with its filters. The data's end is the direct
 * /Length when it points at `endstream` (as pdfjs reads it), else the next `endstream`.
 */
function* findStreams(text: string): Generator<FoundStream> {
  const keyword = /stream(?:\r\n|\n|\r)/g;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    if (text.slice(match.index - 3, match.index) === "end") continue;
    const start = match.index + match[0].length;
    const head = text.slice(Math.max(0, match.index - MAX_DICT_CHARS), match.index);
    const dict = head.slice(head.lastIndexOf("obj") + 1);
    if (!dict.includes("<<")) continue;
    const length = /\/Length\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dict);
    let end = length ? start + Number(length[1]) : -1;
    if (end < start || end > text.length || !/^\s*endstream/.test(text.slice(end, end + 20))) {
      end = text.indexOf("endstream", start);
      if (end < 0) end = text.length;
    }
    keyword.lastIndex = Math.max(keyword.lastIndex, end);
    yield { start, end, filters: filtersOf(dict) };
  }
}

const FILTER_NAMES: Record<string, string> = {
  FlateDecode: "flate",
  Fl: "flate",
  LZWDecode: "lzw",
  LZW: "lzw",
  RunLengthDecode: "runlength",
  RL: "runlength",
  ASCIIHexDecode: "hex",
  AHx: "hex",
  ASCII85Decode: "a85",
  A85: "a85",
};

function filtersOf(dict: string): string[] {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!match?.[1]) return [];
  return [...match[1].matchAll(/\/([A-Za-z0-9]+)/g)].map(
    (name) => FILTER_NAMES[name[1] ?? ""] ?? "unknown",
  );
}

type Decoded = { size: number; bytes: Uint8Array | null } | "too large" | "unknown";

/** One filter's output size (and its bytes when `keep`), or "too large" past `room`. */
async function decode(
  filter: string,
  data: Uint8Array,
  room: number,
  keep: boolean,
): Promise<Decoded> {
  switch (filter) {
    case "flate":
      return inflate(data, room, keep);
    case "lzw":
      return bounded(lzwDecode(data, room), keep);
    case "runlength":
      return bounded(runLengthDecode(data, room), keep);
    case "hex":
      return bounded(hexDecode(data), keep);
    case "a85":
      return bounded(ascii85Decode(data), keep);
    default:
      return "unknown";
  }
}

function bounded(bytes: Uint8Array | null, keep: boolean): Decoded {
  if (bytes === null) return "too large";
  return { size: bytes.byteLength, bytes: keep ? bytes : null };
}

/**
 * Inflates through zlib in chunks, counting; a damaged stream counts what it gave before
 * the damage (pdfjs reads as far as that too).
 */
function inflate(data: Uint8Array, room: number, keep: boolean): Promise<Decoded> {
  return new Promise((resolve) => {
    const inflater = createInflate({
      finishFlush: constants.Z_SYNC_FLUSH,
      chunkSize: 64 * 1024,
    });
    const parts: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: Decoded) => {
      if (done) return;
      done = true;
      inflater.destroy();
      resolve(result);
    };
    inflater.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > room) return finish("too large");
      if (keep) parts.push(chunk);
    });
    const settle = () => finish({ size, bytes: keep ? Buffer.concat(parts) : null });
    inflater.on("end", settle);
    inflater.on("error", settle);
    inflater.end(data);
  });
}

/** LZW as PDF writes it (8-bit codes from 9 to 12 bits, EarlyChange 1); null past `room`. */
function lzwDecode(data: Uint8Array, room: number): Uint8Array | null {
  const out = new Growing(room);
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const lengths = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    suffix[i] = i;
    lengths[i] = 1;
  }
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let buffer = 0;
  const scratch = new Uint8Array(4096);
  for (const byte of data) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= width) {
      const code = (buffer >> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      buffer &= (1 << bits) - 1;
      if (code === 256) {
        next = 258;
        width = 9;
        previous = -1;
        continue;
      }
      if (code === 257) return out.bytes();
      let entry = code;
      if (code >= next) {
        if (previous < 0 || code > next) return out.bytes();
        entry = previous;
      }
      let length = lengths[entry] ?? 0;
      for (let at = length - 1, c = entry; at >= 0; at--) {
        scratch[at] = suffix[c] ?? 0;
        c = prefix[c] ?? 0;
      }
      if (code >= next) scratch[length++] = scratch[0] ?? 0;
      if (!out.push(scratch.subarray(0, length))) return null;
      if (previous >= 0 && next < 4096) {
        prefix[next] = previous;
        suffix[next] = scratch[0] ?? 0;
        lengths[next] = (lengths[previous] ?? 0) + 1;
        next++;
      }
      previous = code;
      if (next + 1 >= 1 << width && width < 12) width++;
    }
  }
  return out.bytes();
}

function runLengthDecode(data: Uint8Array, room: number): Uint8Array | null {
  const out = new Growing(room);
  for (let i = 0; i < data.length; ) {
    const n = data[i] ?? 128;
    if (n === 128) break;
    if (n < 128) {
      if (!out.push(data.subarray(i + 1, i + 2 + n))) return null;
      i += n + 2;
    } else {
      const repeated = new Uint8Array(257 - n).fill(data[i + 1] ?? 0);
      if (!out.push(repeated)) return null;
      i += 2;
    }
  }
  return out.bytes();
}

function hexDecode(data: Uint8Array): Uint8Array {
  const digits = Buffer.from(data)
    .toString("latin1")
    .split(">")[0]
    ?.replace(/[^0-9a-fA-F]/g, "");
  const even = (digits ?? "").length % 2 === 0 ? (digits ?? "") : `${digits}0`;
  return Buffer.from(even, "hex");
}

function ascii85Decode(data: Uint8Array): Uint8Array {
  const source = Buffer.from(data).toString("latin1").split("~>")[0]?.replace(/\s/g, "") ?? "";
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    while (group.length < 5) group.push(84);
    let value = 0;
    for (const digit of group) value = value * 85 + digit;
    for (let i = 0; i < count; i++) out.push((value >>> (24 - 8 * i)) & 0xff);
    group = [];
  };
  for (const char of source) {
    if (char === "z" && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const digit = char.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) continue;
    group.push(digit);
    if (group.length === 5) flush(4);
  }
  if (group.length > 1) flush(group.length - 1);
  return Uint8Array.from(out);
}

/** Output that refuses to grow past a limit. */
class Growing {
  private buffer = new Uint8Array(4096);
  private length = 0;
  constructor(private readonly limit: number) {}

  push(part: Uint8Array): boolean {
    if (this.length + part.length > this.limit) return false;
    if (this.length + part.length > this.buffer.length) {
      const bigger = new Uint8Array(
        Math.min(this.limit, Math.max(this.buffer.length * 2, this.length + part.length)),
      );
      bigger.set(this.buffer.subarray(0, this.length));
      this.buffer = bigger;
    }
    this.buffer.set(part, this.length);
    this.length += part.length;
    return true;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}
