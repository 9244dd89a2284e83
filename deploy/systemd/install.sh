#!/usr/bin/env bash
# Installs uptime as a system service on Debian or Ubuntu, from the checkout this script is in:
# a copy of its files in /opt/uptime (owned by root), the system user `uptime`, the settings in
# /etc/uptime/uptime.env (made once, with a random SESSION_SECRET and SECRETS_KEY), and deploy/systemd/uptime.service,
# enabled and started. Run it again after `git pull` in your checkout to update: the new copy
# replaces the old one and the service restarts. docs/operations.md, "A system service", walks
# through it.
#
#   sudo bash deploy/systemd/install.sh                 install or update, then start
#   bash deploy/systemd/install.sh --print-unit         the unit file as it would be installed
#
# PREFIX, CONFIG_DIR and UNIT_DIR move the code, the settings and the unit; NODE names the node
# binary (default: the one on the PATH).
set -euo pipefail
umask 022

SRC=$(cd "$(dirname "$0")/../.." && pwd)
PREFIX=${PREFIX:-/opt/uptime}
CONFIG_DIR=${CONFIG_DIR:-/etc/uptime}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
NODE=${NODE:-$(command -v node || true)}

# The unit names /opt/uptime and /usr/bin/node; this machine's may differ (nvm, another PREFIX).
render_unit() {
  sed -e "s|/opt/uptime|${PREFIX}|g" -e "s|^ExecStart=/usr/bin/node |ExecStart=${NODE} |" "$SRC/deploy/systemd/uptime.service"
}

fail() {
  echo "install.sh: $*" >&2
  exit 1
}

if [[ "${1:-}" == "--print-unit" ]]; then
  [[ -n "$NODE" ]] || fail "no node on the PATH: set NODE to the node binary"
  render_unit
  exit 0
fi

[[ $(id -u) -eq 0 ]] || fail "run it as root: sudo bash deploy/systemd/install.sh"
[[ -n "$NODE" ]] || fail "Node.js 20 is needed (https://github.com/nodesource/distributions, or apt-get install nodejs on Debian 13)"
major=$("$NODE" -p 'process.versions.node.split(".")[0]')
((major >= 20)) || fail "Node.js 20 or newer is needed, $NODE is $("$NODE" --version)"
command -v systemctl >/dev/null || fail "systemctl is missing: this script installs a systemd service"
if ! command -v redis-server >/dev/null && ! grep -qs '^REDIS_URL=.' "$CONFIG_DIR/uptime.env"; then
  fail "Redis is needed: apt-get install redis-server (or set REDIS_URL in $CONFIG_DIR/uptime.env)"
fi
bash "$SRC/scripts/ensure-pnpm.sh"

# The service's own user, which owns nothing but /var/lib/uptime (StateDirectory= makes it).
if ! id -u uptime >/dev/null 2>&1; then
  useradd --system --user-group --home-dir /var/lib/uptime --no-create-home --shell /usr/sbin/nologin uptime
  echo "made the system user uptime"
fi

# The code: this checkout's files (as git lists them, without what .gitignore leaves out) in a new
# folder, installed and built there, then swapped in. Owned by root: the service only reads it.
stage="${PREFIX}.new"
rm -rf "$stage"
mkdir -p "$stage"
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$SRC" ls-files -z --cached --others --exclude-standard |
    tar -C "$SRC" --null --files-from=- --ignore-failed-read -cf - 2>/dev/null | tar -C "$stage" -xf -
else
  tar -C "$SRC" --exclude=./node_modules --exclude='*/node_modules' --exclude=./.data -cf - . | tar -C "$stage" -xf -
fi
(cd "$stage" && pnpm install --frozen-lockfile && bash scripts/build-web.sh)
chown -R root:root "$stage"

# The settings, made once; kept as they are on every update.
mkdir -p "$CONFIG_DIR"
if [[ ! -f "$CONFIG_DIR/uptime.env" ]]; then
  cat >"$CONFIG_DIR/uptime.env" <<ENV
# Settings of the uptime service (docs/configuration.md); \`systemctl restart uptime\` applies them.
# The unit sets NODE_ENV=production, DATA_DIR=/var/lib/uptime and LOG_FORMAT=json.
SESSION_SECRET=$("$NODE" -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("hex"))')
# Seals channel secrets in the database (docs/channels.md): keep it with your backups.
SECRETS_KEY=$("$NODE" -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("hex"))')
# Behind a TLS reverse proxy on this machine (Caddy, nginx): keep HOST=127.0.0.1, set PUBLIC_URL to
# https://your.domain and TRUST_PROXY=loopback. To try it over plain HTTP from another machine:
# HOST=0.0.0.0, PUBLIC_URL=http://<this machine's address>:3000 and REQUIRE_HTTPS=false.
HOST=127.0.0.1
PORT=3000
PUBLIC_URL=http://localhost:3000
# Email: SMTP_URL=smtp://user:password@mail.example:587 or SENDGRID_API_KEY=...; unset, emails are only logged.
# A PostgreSQL or Redis of your own instead of the embedded ones: DATABASE_URL=..., REDIS_URL=...
ENV
  echo "wrote $CONFIG_DIR/uptime.env"
fi
chown root:uptime "$CONFIG_DIR/uptime.env"
chmod 0640 "$CONFIG_DIR/uptime.env"

render_unit >"$UNIT_DIR/uptime.service"
systemctl daemon-reload
if [[ -d "$PREFIX" ]]; then
  systemctl stop uptime 2>/dev/null || true
  rm -rf "${PREFIX}.old"
  mv "$PREFIX" "${PREFIX}.old"
fi
mv "$stage" "$PREFIX"
rm -rf "${PREFIX}.old"
systemctl enable uptime
systemctl restart uptime
echo "uptime is installed: systemctl status uptime; journalctl -u uptime -f; settings in $CONFIG_DIR/uptime.env"
