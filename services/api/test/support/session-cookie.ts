import { createHmac, randomBytes } from 'node:crypto';
import IORedis from 'ioredis';

/**
 * The `uptime.sid` cookie of a signed-in session written straight into Redis, as a completed
 * sign-in leaves it (express-session's JSON, connect-redis's key, cookie-signature's signature).
 */
export async function signedInSessionCookie(userId: number, opts: { secret: string; prefix: string }): Promise<string> {
  const sid = randomBytes(16).toString('hex');
  const redis = new IORedis(process.env.REDIS_URL!);
  const expires = new Date(Date.now() + 3_600_000);
  await redis.set(
    `${opts.prefix}:sess:${sid}`,
    JSON.stringify({ cookie: { originalMaxAge: 3_600_000, expires, httpOnly: true, path: '/', sameSite: 'lax' }, userId, provider: 'github' }),
    'EX',
    3600,
  );
  await redis.quit();
  const signature = createHmac('sha256', opts.secret).update(sid).digest('base64').replace(/=+$/, '');
  return `uptime.sid=${encodeURIComponent(`s:${sid}.${signature}`)}`;
}
