# syntax=docker/dockerfile:1
# One image, three jobs: the Web Data API mock (default), the contract suite (`contract <url>`)
# and the key-holding proxy (`proxy <live url> ...`). See docs/container.md.
#
# Stage 1 builds the package exactly as `npm pack` makes it for the registry: the package's own
# `prepack`/`prepare` scripts run here (with the dev dependencies), and the tarball holds only the
# files the package ships. Stage 2 takes the lock file's production dependencies (and vitest, for
# `contract`) and that tarball: what the image runs is what an `npm install` of the package and
# vitest runs.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /build
COPY package.json package-lock.json ./
# --ignore-scripts: the package's own build script needs the sources, copied next.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /tmp --silent \
 && mkdir /package \
 && tar -xzf /tmp/*.tgz -C /package --strip-components=1
# The production tree of the lock file, plus vitest: an optional peer dependency of the package
# (the mock alone does not need it), which the image's `contract` command runs on. Promoted to a
# dependency here only. `npm prune` alone keeps the lock file's dev mark and drops it, so the lock
# is rewritten first (--package-lock-only: no version changes, checked by hand against the original
# lock on 2026-11-28), then the production tree is installed from it.
RUN npm pkg set "dependencies.vitest=$(npm pkg get devDependencies.vitest | tr -d '"')" \
 && npm pkg delete devDependencies.vitest \
 && npm install --package-lock-only --ignore-scripts --no-audit --no-fund \
 && npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && test -f node_modules/vitest/package.json

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010 \
    CONTRACT_REPORT_DIR=/reports
WORKDIR /app
COPY --from=build /build/node_modules ./node_modules
COPY --from=build /package/ ./
COPY docker/entrypoint.sh /usr/local/bin/web-data-entrypoint
COPY docker/healthcheck.mjs /usr/local/lib/web-data/healthcheck.mjs
# The package's commands on PATH, as `npm install -g` would link them (read from its `bin` map).
RUN node -e "const {bin} = require('/app/package.json'); const fs = require('fs'); \
      for (const [name, file] of Object.entries(bin)) { \
        fs.chmodSync('/app/' + file, 0o755); fs.symlinkSync('/app/' + file, '/usr/local/bin/' + name); }" \
 && chmod 0755 /usr/local/bin/web-data-entrypoint \
 && mkdir -p /reports /recordings \
 && chown node:node /reports /recordings
USER node
EXPOSE 4010
# Cheap and unauthenticated: GET /healthz (not rate limited, not journaled; spec/DECISIONS.md 81).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "/usr/local/lib/web-data/healthcheck.mjs"]
# The mock and the proxy finish requests in flight for up to 10 s on SIGTERM, then exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/web-data-entrypoint"]
CMD ["mock"]
