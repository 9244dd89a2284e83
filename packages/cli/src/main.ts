import { askOnTerminal, runCli } from './cli';

/** `uptime ...` (packages/cli/bin/uptime.cjs, `pnpm uptime ...`): docs/config-as-code.md. */
void runCli(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  confirm: process.stdin.isTTY ? askOnTerminal : undefined,
}).then((code) => {
  process.exitCode = code;
});
