export type FaultTools =
  | {
      ok: true;
      /** The PostgreSQL major version the binaries are from. */
      version: string;
      initdb: string;
      pgCtl: string;
      redisServer: string;
      /** The prefix that runs a command as the postgres user ([] when not root). */
      runAs: string[];
      /** Who the server's files must belong to (the postgres user when root; else null). */
      owner: { uid: number; gid: number } | null;
    }
  | { ok: false; missing: string[] };

export function findFaultTools(env?: NodeJS.ProcessEnv): FaultTools;
