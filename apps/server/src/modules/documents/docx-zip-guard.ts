import { inflateRawSync } from "node:zlib";

/**
 * Checks a DOCX (a zip) before mammoth opens it (decision 036): every part is inflated here
 * with a ceiling on the total, so a small file that would expand to gigabytes (a zip bomb,
 * including one whose headers understate its sizes) is refused instead of filling memory.
 * Returns null when the file is a readable Word document, else why it is not.
 */
export function checkDocxZip(bytes: Buffer, maxUnzippedBytes: number): string | null {
  const end = findEndOfCentralDirectory(bytes);
  if (end < 0) return "The file is not a valid Word document (its zip directory is missing).";
  const entries = bytes.readUInt16LE(end + 10);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  if (entries === 0xffff || directoryOffset === 0xffffffff) {
    return "The Word document uses ZIP64, which is not supported.";
  }
  let offset = directoryOffset;
  let total = 0;
  let hasBody = false;
  for (let i = 0; i < entries; i++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== 0x02014b50) {
      return "The file is not a valid Word document (its zip directory is damaged).";
    }
    const method = bytes.readUInt16LE(offset + 10);
    const compressedSize = bytes.readUInt32LE(offset + 20);
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    const localOffset = bytes.readUInt32LE(offset + 42);
    const name = bytes.toString("utf8", offset + 46, offset + 46 + nameLength);
    offset += 46 + nameLength + extraLength + commentLength;
    if (name === "word/document.xml") hasBody = true;
    if (localOffset + 30 > bytes.length || bytes.readUInt32LE(localOffset) !== 0x04034b50) {
      return "The file is not a valid Word document (a part is missing).";
    }
    const dataStart =
      localOffset +
      30 +
      bytes.readUInt16LE(localOffset + 26) +
      bytes.readUInt16LE(localOffset + 28);
    const data = bytes.subarray(dataStart, dataStart + compressedSize);
    const remaining = maxUnzippedBytes - total;
    if (method === 0) {
      total += data.length;
    } else if (method === 8) {
      try {
        total += inflateRawSync(data, { maxOutputLength: Math.max(remaining, 1) }).length;
      } catch (error) {
        if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
          return zipBomb(maxUnzippedBytes);
        return "The file is not a valid Word document (a part cannot be decompressed).";
      }
    } else {
      return "The Word document uses a compression method that is not supported.";
    }
    if (total > maxUnzippedBytes) return zipBomb(maxUnzippedBytes);
  }
  return hasBody ? null : "The file is not a Word document (it has no word/document.xml).";
}

function zipBomb(limit: number): string {
  return `The Word document expands to more than ${Math.round(limit / (1024 * 1024))} MB when unpacked (a zip bomb?), so it was not read.`;
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= stop; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) return i;
  }
  return -1;
}
