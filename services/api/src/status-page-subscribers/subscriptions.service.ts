import { createHash, randomBytes } from 'node:crypto';
import { isEmail } from 'class-validator';
import { statusPageBaseUrl, subscriptionLinks, type DataSource } from '@uptime/db';
import { NotFoundError, ValidationError } from '@uptime/errors';
import { enqueue, JOBS, type CatalogQueue, type QueueName } from '@uptime/queues';
import { SLUG_PATTERN } from '../status-pages/status-page.dto';
import { confirmSubscription, findPageId, findPublishedPage, requestSubscription, unsubscribe } from './subscribers.repository';

export interface SubscriptionDeps {
  ds: DataSource;
  /** The queue every notifier consumes: the confirmation goes out through the install's one mail transport. */
  statusChanges: CatalogQueue<typeof QueueName.statusChanges>;
  publicUrl: string;
}

/** How long a confirmation link works (docs/status-pages.md, "Subscribers"). */
export const CONFIRMATION_TTL_MS = 24 * 3600_000;

const EMAIL_MAX = 320;

const secret = (): string => randomBytes(32).toString('base64url');
/** A link's secret as this service makes them (base64url); anything else is known not to be one. */
const isSecretShaped = (token: unknown): token is string => typeof token === 'string' && /^[\w-]{1,100}$/.test(token);
const hashOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/** The address as stored: trimmed and lower-cased, so one mailbox subscribes once; 400 when it is not one. */
export function parseSubscriberEmail(raw: unknown): string {
  const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (email.length === 0 || email.length > EMAIL_MAX || !isEmail(email)) {
    throw new ValidationError('Invalid body: email', { email: [`email must be an email address of at most ${EMAIL_MAX} characters`] });
  }
  return email;
}

async function publishedPage(ds: DataSource, slug: string): Promise<{ id: number; slug: string; title: string; custom_domain: string | null }> {
  const page = SLUG_PATTERN.test(slug) ? await findPublishedPage(ds, slug) : null;
  if (!page) throw new NotFoundError('route');
  return page;
}

/**
 * A visitor asks to subscribe `email` to the page. Whatever the address's state, the caller
 * learns nothing from the answer (it is the same): a new, pending or departed address is sent a
 * confirmation link (a new one; an older link stops working), a confirmed one nothing at all.
 */
export async function requestPageSubscription(deps: SubscriptionDeps, slug: string, rawEmail: unknown): Promise<void> {
  const email = parseSubscriberEmail(rawEmail);
  const page = await publishedPage(deps.ds, slug);
  const confirm = secret();
  const pending = await deps.ds.transaction((em) =>
    requestSubscription(em, page.id, email, { confirmHash: hashOf(confirm), unsubscribeToken: secret() }),
  );
  if (!pending) return;
  const links = subscriptionLinks(statusPageBaseUrl(deps.publicUrl, page), { confirm, unsubscribe: pending.unsubscribe_token });
  await enqueue(deps.statusChanges, JOBS.subscriptionConfirmation, {
    to: email,
    pageTitle: page.title,
    confirmUrl: links.confirmUrl!,
    unsubscribeUrl: links.unsubscribeUrl,
    expiresAt: new Date(Date.now() + CONFIRMATION_TTL_MS).toISOString(),
  });
}

/** Uses a confirmation link; false when it is unknown, used already or older than 24 hours. */
export async function confirmPageSubscription(ds: DataSource, slug: string, token: unknown): Promise<boolean> {
  if (!isSecretShaped(token) || !SLUG_PATTERN.test(slug)) return false;
  const page = await findPublishedPage(ds, slug);
  return page !== null && confirmSubscription(ds, page.id, hashOf(token));
}

/** The subscriber of an unsubscribe link leaves; false when the link is unknown. */
export async function leavePageSubscription(ds: DataSource, slug: string, token: unknown): Promise<boolean> {
  if (!isSecretShaped(token) || !SLUG_PATTERN.test(slug)) return false;
  // A page unpublished since still lets its subscribers leave.
  const pageId = await findPageId(ds, slug);
  return pageId !== null && ds.transaction((em) => unsubscribe(em, pageId, token));
}
