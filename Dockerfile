# RankRelay's image: `docker build -t rankrelay .` at the repository root (ops/compose.yaml builds it too).
#
# Two stages: `deps` installs the production dependencies (npm ci --omit=dev: no compilers, test tools or
# browsers in the image; TypeScript runs through tsx, a runtime dependency), and `runtime` copies them beside
# the source and runs as the unprivileged `node` user (PostgreSQL, which the embedded default starts, also
# refuses to run as root).
#
# Without DATABASE_URL the service runs its embedded PostgreSQL in DATA_DIR (/data, a volume: keep it, it
# holds the database and the generated service key). With DATABASE_URL, SERVICE_ENCRYPTION_KEY is required.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Install scripts stay on: the embedded PostgreSQL's platform package links its libraries in one.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
# The source is owned by root and read-only to the service: only /data is writable.
COPY package.json package-lock.json tsconfig.json LICENSE ./
COPY commands ./commands
COPY domain ./domain
COPY migrations ./migrations
COPY ops ./ops
COPY processors ./processors
COPY projections ./projections
COPY read-api ./read-api
COPY sdk ./sdk
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Node's own fetch (the slim image has no curl). Health answers 200 while it can read the database
# ("degraded" included: reads are served), 503 when it cannot.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is PID 1 (not npm), so SIGTERM reaches serve's graceful shutdown. Same flags as `npm start`.
CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "ops/cli.ts", "serve"]
