import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './deploy-files';

export const UNIT_FILE = path.join(ROOT, 'deploy/systemd/uptime.service');
export const INSTALL_SCRIPT = path.join(ROOT, 'deploy/systemd/install.sh');

/** A unit file's settings: section → key → every value given, in order (systemd's format, without line continuations). */
export type Unit = Record<string, Record<string, string[]>>;

export function parseUnit(text: string): Unit {
  const unit: Unit = {};
  let section: string | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const header = /^\[([A-Za-z]+)\]$/.exec(line);
    if (header) {
      section = header[1];
      unit[section] ??= {};
      return;
    }
    const setting = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/.exec(line);
    if (!setting || !section) throw new Error(`line ${index + 1} is neither a [Section] nor Key=value in a section: ${raw}`);
    (unit[section][setting[1]] ??= []).push(setting[2]);
  });
  return unit;
}

/** The variables of a unit's `Environment=` lines (space-separated assignments, no quoting used). */
export function unitEnvironment(unit: Unit): Record<string, string> {
  return Object.fromEntries(
    (unit.Service.Environment ?? [])
      .flatMap((line) => line.split(/\s+/))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** The unit as install.sh writes it to /etc/systemd/system, for a code folder and a node binary. */
export function installedUnit(prefix: string, node: string): string {
  const result = spawnSync('bash', [INSTALL_SCRIPT, '--print-unit'], { env: { ...process.env, PREFIX: prefix, NODE: node }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`install.sh --print-unit exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}
