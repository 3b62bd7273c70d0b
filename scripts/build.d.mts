export function buildIfStale(options?: { force?: boolean; only?: string[] }): Promise<void>;
