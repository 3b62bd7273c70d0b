import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SandboxFile } from "./sandbox";

/** What one run may carry in and out of the scratch folder (decision 062). */
export const SCRATCH_LIMITS = {
  maxFiles: 200,
  maxFileBytes: 10 * 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
};

/** A relative name inside the folder: no absolute path, no `..`, no empty part. */
export function safeScratchName(name: string): boolean {
  if (name.length === 0 || name.length > 200 || name.startsWith("/") || name.includes("\\"))
    return false;
  return name
    .split("/")
    .every((part) => part !== "" && part !== "." && part !== ".." && !part.includes("\0"));
}

/** The folder's files, largest-first refusals aside: beyond the limits the rest stay out. */
export async function readScratch(
  dir: string,
): Promise<{ files: SandboxFile[]; skipped: string[] }> {
  const files: SandboxFile[] = [];
  const skipped: string[] = [];
  let total = 0;
  const walk = async (sub: string): Promise<void> => {
    const entries = await readdir(path.join(dir, sub), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const name = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile()) {
        const size = (await stat(path.join(dir, name))).size;
        if (
          files.length >= SCRATCH_LIMITS.maxFiles ||
          size > SCRATCH_LIMITS.maxFileBytes ||
          total + size > SCRATCH_LIMITS.maxTotalBytes
        ) {
          skipped.push(name);
          continue;
        }
        total += size;
        files.push({ name, content: new Uint8Array(await readFile(path.join(dir, name))) });
      }
    }
  };
  await walk("");
  return { files, skipped };
}

/** Writes a run's new and changed files back; unsafe names and oversized files are refused. */
export async function writeScratch(
  dir: string,
  files: SandboxFile[],
): Promise<{ written: SandboxFile[]; refused: string[] }> {
  const written: SandboxFile[] = [];
  const refused: string[] = [];
  let total = 0;
  for (const file of files) {
    const size = file.content.byteLength;
    if (
      !safeScratchName(file.name) ||
      written.length >= SCRATCH_LIMITS.maxFiles ||
      size > SCRATCH_LIMITS.maxFileBytes ||
      total + size > SCRATCH_LIMITS.maxTotalBytes
    ) {
      refused.push(file.name);
      continue;
    }
    total += size;
    const full = path.join(dir, file.name);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, file.content);
    written.push(file);
  }
  return { written, refused };
}
