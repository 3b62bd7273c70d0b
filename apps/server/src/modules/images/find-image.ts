import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { findSessionFor } from "../sessions/find-session";
import { IMAGE_COLUMNS, type ImageRow, imageNotFound } from "./image-row";

async function imageById(db: Queryable, id: string): Promise<ImageRow | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<ImageRow>(
    `SELECT ${IMAGE_COLUMNS} FROM generated_images WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * An image `userId` may see: one of a session they may read (viewer and up in its
 * workspace). Everyone else gets the same 404 as for an image that does not exist.
 */
export async function findImageFor(db: Queryable, userId: string, id: string): Promise<ImageRow> {
  const image = await imageById(db, id);
  if (!image) throw imageNotFound();
  try {
    await findSessionFor(db, userId, image.session_id);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) throw imageNotFound();
    throw error;
  }
  return image;
}

/**
 * An image seen through a share link: of the shared session, and of the shared run when
 * the link is to one run. The caller has checked that the link works.
 */
export async function findSharedImage(
  db: Queryable,
  share: { sessionId: string; runId: string | null },
  id: string,
): Promise<ImageRow> {
  const image = await imageById(db, id);
  if (!image || image.session_id !== share.sessionId) throw imageNotFound();
  if (share.runId !== null && image.run_id !== share.runId) throw imageNotFound();
  return image;
}

/** A session's images, oldest first (exports list them). */
export async function listSessionImages(db: Queryable, sessionId: string): Promise<ImageRow[]> {
  const { rows } = await db.query<ImageRow>(
    `SELECT ${IMAGE_COLUMNS} FROM generated_images WHERE session_id = $1 ORDER BY created_at, id`,
    [sessionId],
  );
  return rows;
}
