#!/usr/bin/env node
// The load balancer of `bench/telemetry.mjs`: probes GET /api/health at a steady rate from its
// own process, so the probes' latencies are not those of the ingestion load generator's
// event loop. Usage: node bench/telemetry-probe.mjs URL SECONDS RATE; prints autocannon's
// latency figures as one JSON line.
import autocannon from "autocannon";

const [url, seconds, rate] = process.argv.slice(2);
const result = await autocannon({
  url: `${url}/api/health`,
  connections: 2,
  duration: Number(seconds),
  overallRate: Number(rate),
});
console.log(
  JSON.stringify({ latency: result.latency, non2xx: result.non2xx, errors: result.errors }),
);
