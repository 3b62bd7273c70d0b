# Cohort as a container: the same commands as `npm run cluster` runs on a machine
# (`npm ci`, `node scripts/build.mjs`, `node apps/server/dist/main.js`).
# compose.yaml runs two of these on PostgreSQL and Redis behind HAProxy.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# The manifests first: the install layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs --force \
  && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    LOG_FORMAT=json \
    TRUST_PROXY=true
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/apps/server/package.json ./apps/server/
COPY --from=build --chown=node:node /app/apps/server/dist ./apps/server/dist
COPY --from=build --chown=node:node /app/apps/web/dist ./apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: the process answers. The load balancer uses readiness (/api/health/ready).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:3000/api/health/live').then((r) => { process.exitCode = r.ok ? 0 : 1; }, () => { process.exitCode = 1; })"
# SIGTERM drains (SHUTDOWN_GRACE_SECONDS); give the container longer than that to stop.
STOPSIGNAL SIGTERM
CMD ["node", "apps/server/dist/main.js"]
