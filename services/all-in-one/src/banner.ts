import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@uptime/config';
import type { Logger } from '@uptime/logger';
import { REPO_ROOT } from './local/data-dir';
import type { LocalServices } from './local/local-services';

/** The web application's build, served at `/` by the API when present. */
export const WEB_APP_INDEX = path.join(REPO_ROOT, 'services/web/dist/index.html');

export interface Banner {
  url: string;
  /** The data folder of the embedded servers, or where the configured ones are. */
  data: string;
  database: string;
  redis: string;
  email: string;
  stop: string;
}

/** What a person starting the service needs to know, once everything is up. */
export function startupBanner(config: Config, local: LocalServices, webAppBuilt = existsSync(WEB_APP_INDEX)): Banner {
  const base = config.http.publicUrl;
  const email = config.mail.sendgrid
    ? `sent with SendGrid (${config.mail.sendgrid.apiUrl})`
    : config.mail.smtpUrl
      ? `sent by SMTP to ${new URL(config.mail.smtpUrl).host}`
      : 'emails are only logged: set SENDGRID_API_KEY or SMTP_URL to send them';
  return {
    url: webAppBuilt ? `${base}/` : `${base}/api/docs (the API explorer)`,
    data: local.dataDir ?? 'in the PostgreSQL and Redis below (nothing embedded)',
    database: local.database,
    redis: local.redis,
    email,
    stop: `press Ctrl+C (or send SIGTERM); ${whatStops(local.started)}`,
  };
}

/** What Ctrl+C stops: the embedded servers this process started, never the user's own. */
function whatStops(started: LocalServices['started']): string {
  const ours = [started.database && 'the embedded database', started.redis && 'the private Redis'].filter(Boolean).join(' and ');
  if (ours === '') return 'the services drain and stop; your database and Redis keep running';
  const yours = !started.database ? '; your database keeps running' : !started.redis ? '; your Redis keeps running' : '';
  return `the services drain, then ${ours} stop${ours.includes(' and ') ? '' : 's'}${yours}`;
}

/** At a terminal, a few plain lines; for log readers, one JSON entry with the same fields. */
export function printBanner(banner: Banner, pretty: boolean, logger: Logger, out: NodeJS.WritableStream = process.stdout): void {
  if (!pretty) {
    logger.info({ ...banner }, `uptime is ready: open ${banner.url}`);
    return;
  }
  out.write(
    [
      '',
      '  uptime is ready',
      `  open:      ${banner.url}`,
      `  data:      ${banner.data}`,
      `  database:  ${banner.database}`,
      `  redis:     ${banner.redis}`,
      `  email:     ${banner.email}`,
      `  stop:      ${banner.stop}`,
      '',
      '',
    ].join('\n'),
  );
}
