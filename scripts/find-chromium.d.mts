export function findChromium(env?: Record<string, string | undefined>): string | null;
export function findTestChromium(env?: Record<string, string | undefined>): string | null;
export const CHROMIUM_ARGS: string[];
