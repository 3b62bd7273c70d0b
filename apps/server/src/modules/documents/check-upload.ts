import { rm } from "node:fs/promises";
import { DOCUMENT_ERROR_CODES } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import { type Detection, detectDocumentType } from "./detect-document-type";
import type { ReceivedUpload } from "./receive-upload";

export function formatMb(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb >= 10 ? Math.round(mb) : Math.round(mb * 10) / 10} MB`;
}

export function quotaExceeded(size: number, quotaBytes: number): AppError {
  return new AppError(
    DOCUMENT_ERROR_CODES.quotaExceeded,
    413,
    `This file (${formatMb(size)}) does not fit in your document storage (${formatMb(quotaBytes)} on your plan). Delete documents or upgrade your plan.`,
  );
}

/**
 * Decides whether a received upload is kept: not empty, within the per-file limit and the
 * quota (checked again atomically when it is recorded), and of a type Cohort reads. A refused
 * file's spool copy is removed and the error says why.
 */
export async function checkUpload(input: {
  received: ReceivedUpload;
  truncated: boolean;
  name: string;
  maxFileBytes: number;
  usedBytes: number;
  quotaBytes: number;
}): Promise<Extract<Detection, { ok: true }>> {
  const { received } = input;
  const refuse = async (error: AppError) => {
    await rm(received.spoolFile, { force: true });
    return error;
  };
  if (input.truncated || received.size > input.maxFileBytes) {
    throw await refuse(
      new AppError(
        DOCUMENT_ERROR_CODES.tooLarge,
        413,
        `This file is larger than the ${formatMb(input.maxFileBytes)} limit per document.`,
      ),
    );
  }
  if (received.size === 0) {
    throw await refuse(new AppError(DOCUMENT_ERROR_CODES.empty, 400, "This file is empty."));
  }
  if (input.usedBytes + received.size > input.quotaBytes) {
    throw await refuse(quotaExceeded(received.size, input.quotaBytes));
  }
  const detected = await detectDocumentType({
    head: received.head,
    isUtf8Text: received.isUtf8Text,
    name: input.name,
  });
  if (!detected.ok) {
    throw await refuse(new AppError(DOCUMENT_ERROR_CODES.unsupportedType, 415, detected.reason));
  }
  return detected;
}
