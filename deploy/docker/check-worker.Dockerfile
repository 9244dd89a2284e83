# syntax=docker/dockerfile:1
# The check-worker image: runs check jobs; /healthz, /readyz and /metrics on HEALTH_PORT.
# Build from the repository root: docker build -f deploy/docker/check-worker.Dockerfile -t uptime/check-worker .
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# pnpm itself from the npm registry, pinned to the workspace's packageManager (no corepack download).
RUN npm install -g pnpm@9.15.9
# A C compiler for the ICMP socket addon (below), in this stage only: the runtime image gets the
# compiled file, never the compiler.
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
# The lockfile alone fills pnpm's store: this layer is rebuilt only when dependencies change.
# All of it, dev dependencies too: pnpm 9's deploy resolves the whole service before pruning.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
# Only this service, its workspace packages and their production dependencies, as plain files.
# --prefer-offline, not --offline: deploy re-resolves the workspace packages' version ranges, which
# needs registry metadata that `pnpm fetch` does not keep (ERR_PNPM_NO_OFFLINE_META on a cold cache);
# the tarballs themselves come from the store filled above.
RUN pnpm --filter @uptime/check-worker deploy --prod --prefer-offline /out \
 && rm -rf /out/test
COPY deploy/docker/tsconfig.runtime.json /out/tsconfig.json
# The ICMP socket addon the worker sends ping checks through, compiled against this image's own
# Node headers (/usr/local/include/node); --strict: an image without it fails to build rather
# than falling back to a ping process per check (docs/operations.md, "ICMP ping").
RUN node /out/node_modules/@uptime/probe/scripts/build-icmp-addon.cjs --strict

FROM ${NODE_IMAGE} AS runtime
# HEALTH_HOST: a container's loopback is reachable by nothing else (probes, Prometheus).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    HEALTH_HOST=0.0.0.0 \
    HEALTH_PORT=9464
# iputils ping for ping checks when the worker cannot use its own ICMP sockets (PING_BACKEND), as a
# plain program: the copy has neither the file capability
# (cap_net_raw) nor the setuid bit the package gives it, so it runs as node with no privilege and
# opens ICMP datagram sockets, which Docker's default net.ipv4.ping_group_range allows every group
# (Kubernetes: deploy/kubernetes/check-worker.yaml; docs/operations.md, "ICMP ping").
RUN apt-get update \
 && apt-get install -y --no-install-recommends iputils-ping \
 && rm -rf /var/lib/apt/lists/* \
 && cp /usr/bin/ping /tmp/ping && install -m 0755 /tmp/ping /usr/bin/ping && rm /tmp/ping
WORKDIR /app
# Owned by root, run as node: the process cannot rewrite its own code.
COPY --from=build /out /app
USER node
EXPOSE 9464
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HEALTH_PORT||9464)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# One process, PID 1 is node itself: SIGTERM reaches the service (30 s graceful shutdown).
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "src/main.ts"]
