# syntax=docker/dockerfile:1
# One image, three jobs: the Web Data API mock (default), the contract suite (`contract <url>`)
# and the key-holding proxy (`proxy <live url> ...`). See docs/container.md.
#
# Stage 1 builds the package exactly as `npm pack` makes it for the registry: the package's own
# `prepack`/`prepare` scripts run here (with the dev dependencies), and the tarball holds only the
# files the package ships. Stage 2 installs the production dependencies from the lock file and
# unpacks that tarball: what the image runs is what an `npm install` of the package runs.
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

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010 \
    CONTRACT_REPORT_DIR=/reports
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force
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
