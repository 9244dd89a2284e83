#!/usr/bin/env node
// @ts-check
/**
 * Compiles native/icmp_socket.c into build/icmp_socket.node (docs/operations.md, "ICMP ping"):
 * the system C compiler (CC, else cc), against the headers of the Node that runs this script
 * (<prefix>/include/node), no node-gyp and nothing downloaded. Run by `pnpm install` (this
 * package's install script) and by the Dockerfiles' build stage. Without a compiler or headers
 * it says so and exits 0: the install goes on and the check-worker pings with iputils `ping`.
 * `--strict` (the Dockerfiles) makes a failed build fail the image instead.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, rmSync } = require('node:fs');
const path = require('node:path');

const strict = process.argv.includes('--strict');
const root = path.resolve(__dirname, '..');
const source = path.join(root, 'native', 'icmp_socket.c');
const output = path.join(root, 'build', 'icmp_socket.node');
const headers = path.resolve(process.execPath, '../../include/node');
const compiler = process.env.CC || 'cc';

/** @param {string} why */
function skip(why) {
  const consequence = strict ? 'required here (--strict)' : 'ping checks will run iputils ping';
  const message = `@uptime/probe: ICMP socket addon not built (${why}); ${consequence}`;
  process.stderr.write(`${message}\n`);
  process.exit(strict ? 1 : 0);
}

if (process.platform !== 'linux') skip(`ICMP datagram sockets are a Linux feature, this is ${process.platform}`);
if (!existsSync(path.join(headers, 'node_api.h'))) skip(`no Node headers at ${headers}`);
mkdirSync(path.dirname(output), { recursive: true });
// A failed build must not leave the previous Node's addon behind.
rmSync(output, { force: true });
const args = ['-O2', '-Wall', '-shared', '-fPIC', '-fvisibility=hidden', `-I${headers}`, source, '-o', output];
const run = spawnSync(compiler, args, { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
if (run.error) skip(`${compiler}: ${run.error.message}`);
if (run.status !== 0) skip(`${compiler} failed: ${run.stderr.trim().split('\n').slice(-3).join(' / ')}`);
process.stdout.write(`@uptime/probe: built ${path.relative(process.cwd(), output)} for Node ${process.version}\n`);
