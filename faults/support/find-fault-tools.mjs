// What the fault tests (faults/) need from the machine: a PostgreSQL server installation to make
// private clusters with (Debian's postgresql package: /usr/lib/postgresql/<version>/bin) and
// redis-server. scripts/test.mjs asks before it runs them; the harness takes the paths from here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

function onPath(name, env) {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

/** The newest PostgreSQL version Debian's layout has (the name in /etc/postgresql). */
function postgresVersion() {
  const versions = existsSync("/etc/postgresql") ? readdirSync("/etc/postgresql") : [];
  return versions.filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))[0] ?? null;
}

/** The user's uid and gid from /etc/passwd, or null. */
function findUser(name) {
  try {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${name}:`));
    const [, , uid, gid] = line?.split(":") ?? [];
    return uid && gid ? { uid: Number(uid), gid: Number(gid) } : null;
  } catch {
    return null;
  }
}

/**
 * The binaries, or what is missing. PostgreSQL refuses to run as root: as root the harness runs
 * initdb and pg_ctl as the postgres user through runuser (`runAs`).
 */
export function findFaultTools(env = process.env) {
  const missing = [];
  const version = postgresVersion();
  const bin = version ? `/usr/lib/postgresql/${version}/bin` : null;
  const initdb = bin && existsSync(path.join(bin, "initdb")) ? path.join(bin, "initdb") : null;
  const pgCtl = bin && existsSync(path.join(bin, "pg_ctl")) ? path.join(bin, "pg_ctl") : null;
  if (!initdb || !pgCtl)
    missing.push("PostgreSQL's initdb and pg_ctl (/usr/lib/postgresql/<version>/bin)");
  const redisServer = onPath("redis-server", env);
  if (!redisServer) missing.push("redis-server");
  // `npm run cluster` puts HAProxy in front of the instances (faults/cluster.test.ts).
  const haproxy =
    onPath("haproxy", env) ?? (existsSync("/usr/sbin/haproxy") ? "/usr/sbin/haproxy" : null);
  if (!haproxy) missing.push("HAProxy (Debian: apt-get install -y haproxy)");
  let runAs = [];
  let owner = null;
  if (process.getuid?.() === 0) {
    const runuser = onPath("runuser", env);
    owner = findUser("postgres");
    if (!runuser || !owner) missing.push("runuser and a postgres user (running as root)");
    else runAs = [runuser, "-u", "postgres", "--"];
  }
  if (missing.length > 0 || !initdb || !pgCtl || !redisServer) return { ok: false, missing };
  return { ok: true, version, initdb, pgCtl, redisServer, runAs, owner };
}
