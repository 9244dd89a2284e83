# syntax=docker/dockerfile:1
# The reference agent image: GET /v1/health and POST /v1/check on PORT, signed with AGENT_ID/AGENT_SECRET (the health check signs its request too).
# Build from the repository root: docker build -f deploy/docker/agent.Dockerfile -t uptime/agent .
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# pnpm itself from the npm registry, pinned to the workspace's packageManager (no corepack download).
RUN npm install -g pnpm@9.15.9
# The lockfile alone fills pnpm's store: this layer is rebuilt only when dependencies change.
# All of it, dev dependencies too: pnpm 9's deploy resolves the whole service before pruning.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
# Only this service, its workspace packages and their production dependencies, as plain files.
# --prefer-offline, not --offline: deploy re-resolves the workspace packages' version ranges, which
# needs registry metadata that `pnpm fetch` does not keep (ERR_PNPM_NO_OFFLINE_META on a cold cache);
# the tarballs themselves come from the store filled above.
RUN pnpm --filter @uptime/agent deploy --prod --prefer-offline /out \
 && rm -rf /out/test
COPY deploy/docker/tsconfig.runtime.json /out/tsconfig.json

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
# iputils ping for ping checks, as a plain program: the copy has neither the file capability
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
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const c=require('node:crypto');const t=String(Math.floor(Date.now()/1000));const s=c.createHmac('sha256',process.env.AGENT_SECRET||'').update(t+'.').digest('hex');fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/v1/health',{headers:{'X-Agent-Id':process.env.AGENT_ID||'','X-Timestamp':t,'X-Signature':'sha256='+s}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# One process, PID 1 is node itself: SIGTERM reaches the service (30 s graceful shutdown).
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "src/main.ts"]
