import { buildIfStale } from "../../scripts/build.mjs";

/** The fault tests run the built server, as the Dockerfile does: built once, when stale. */
export async function setup() {
  await buildIfStale();
}
