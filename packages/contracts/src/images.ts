import { z } from "zod";

/**
 * Images a model made (decision 064): stored as files and referenced from a lane's or an
 * answer's Markdown by a path Cohort serves, never by the bytes themselves.
 */

export const IMAGE_ERROR_CODES = {
  notFound: "image_not_found",
} as const;

/** The media types an image model's file may have; anything else is refused. */
export const GENERATED_IMAGE_MEDIA_TYPES = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "image/svg+xml",
] as const;
export type TGeneratedImageMediaType = (typeof GENERATED_IMAGE_MEDIA_TYPES)[number];

/** The largest image file kept (a 1536×1024 PNG is about 3 MB). */
export const GENERATED_IMAGE_MAX_BYTES = 20 * 1024 * 1024;

/** The longest prompt sent to an image model (DALL·E's limit; gpt-image-1 takes more). */
export const IMAGE_PROMPT_MAX_CHARS = 4000;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const OWN_PATH = new RegExp(`^/api/images/(${UUID})$`);
const SHARED_PATH = new RegExp(`^/api/share/([A-Za-z0-9_-]{43})/images/(${UUID})$`);
const OWN_PATH_IN_TEXT = new RegExp(`/api/images/(${UUID})`, "g");

/** Where a signed-in reader of the session gets the image. */
export function generatedImagePath(id: string): string {
  return `/api/images/${id}`;
}

/** The same image seen through a share link: the share's token authorises it. */
export function sharedImagePath(token: string, id: string): string {
  return `/api/share/${token}/images/${id}`;
}

/** A path of an image Cohort serves (own or through a share), as Markdown may show it. */
export function isGeneratedImagePath(src: string): boolean {
  return OWN_PATH.test(src) || SHARED_PATH.test(src);
}

/** The image id of a path Cohort serves, or null. */
export function generatedImageIdOf(src: string): string | null {
  return OWN_PATH.exec(src)?.[1] ?? SHARED_PATH.exec(src)?.[2] ?? null;
}

/** Every image id a text refers to by its own path, in order, without repeats. */
export function generatedImageIdsIn(text: string): string[] {
  return [...new Set([...text.matchAll(OWN_PATH_IN_TEXT)].map((m) => m[1] as string))];
}

/** A text with its own image paths turned into the share's (what a share link shows). */
export function withSharedImagePaths(text: string, token: string): string {
  return text.replace(OWN_PATH_IN_TEXT, (_path, id: string) => sharedImagePath(token, id));
}

/** The file name an image downloads as. */
export function generatedImageFileName(id: string, mediaType: string): string {
  const ext =
    { "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif", "image/svg+xml": "svg" }[
      mediaType
    ] ?? "png";
  return `cohort-image-${id.slice(0, 8)}.${ext}`;
}

/** An image a session's runs made, as exports list it (JSON: a reference, not the bytes). */
export const ZGeneratedImageRef = z.object({
  id: z.string(),
  url: z.string(),
  media_type: z.string(),
  bytes: z.number().int().nonnegative(),
  model: z.string(),
  simulated: z.boolean(),
  prompt: z.string(),
  created_at: z.string(),
});
export type TGeneratedImageRef = z.infer<typeof ZGeneratedImageRef>;
