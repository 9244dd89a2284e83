import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { statusPageBaseUrl } from '@uptime/db';
import { DomainError } from '@uptime/errors';
import { sendMessage } from '../http/envelope';
import { inputGuard } from '../http/input-guard';
import { jsonBody } from '../http/json-body';
import { parseInput } from '../http/validate';
import { SubscribeDto } from './subscribe.dto';
import { leaveForm, renderSubscriptionNotice } from './subscription-pages.html';
import { confirmPageSubscription, leavePageSubscription, requestPageSubscription, type SubscriptionDeps } from './subscriptions.service';

export interface PublicSubscriptionDeps extends SubscriptionDeps {
  /** The per-IP and per-page limits of subscribing (`subscribeRateLimiters`). */
  subscribeLimiters: RequestHandler[];
}

/** The one answer to a subscription request, whether the address was known or not. */
export const SUBSCRIBE_ANSWER =
  'If this address can receive email, a confirmation link is on its way. The subscription starts once it is used.';

const formBody = express.urlencoded({ extended: false, limit: '4kb' });

const slugOf = (req: Request): string => String(req.params.slug);
const pagePath = (req: Request): string => new URL(statusPageBaseUrl('http://x', { slug: slugOf(req) })).pathname;

function sendHtml(res: Response, status: number, html: string): void {
  // Answers about one visitor's subscription: never cached, never shared.
  res.status(status).setHeader('Cache-Control', 'no-store').type('html').send(html);
}

/** 400 or 404 as a page a browser shows; anything else goes on to the error handler. */
async function answerHtml(req: Request, res: Response, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (!(err instanceof DomainError) || (err.status !== 400 && err.status !== 404)) throw err;
    const heading = err.status === 400 ? 'That is not an email address' : 'Status page not found';
    sendHtml(
      res,
      err.status,
      renderSubscriptionNotice(
        pagePath(req),
        heading,
        err.status === 400 ? 'Go back and check the address.' : 'There is no published status page at this address.',
      ),
    );
  }
}

/**
 * A visitor's side of subscribing (docs/status-pages.md, "Subscribers"), on `/status`: the page's
 * form posts to `/{slug}/subscribe`; the emails link to `/{slug}/subscription/confirm/{token}` and
 * `/{slug}/subscription/unsubscribe/{token}` (the latter also the target of one-click unsubscribe).
 */
export function addSubscriptionPages(router: Router, deps: PublicSubscriptionDeps): void {
  router.post('/:slug/subscribe', ...deps.subscribeLimiters, formBody, async (req, res) => {
    await answerHtml(req, res, async () => {
      await requestPageSubscription(deps, slugOf(req), (req.body as Record<string, unknown> | undefined)?.email);
      sendHtml(res, 200, renderSubscriptionNotice(pagePath(req), 'Check your inbox', SUBSCRIBE_ANSWER));
    });
  });

  router.get('/:slug/subscription/confirm/:token', async (req, res) => {
    const ok = await confirmPageSubscription(deps.ds, slugOf(req), req.params.token);
    if (ok)
      sendHtml(
        res,
        200,
        renderSubscriptionNotice(
          pagePath(req),
          'Subscription confirmed',
          'You will get an email when an incident is published, updated or resolved. Every email has a link to unsubscribe.',
        ),
      );
    else
      sendHtml(
        res,
        404,
        renderSubscriptionNotice(
          pagePath(req),
          'This link does not work',
          'It was used already, is older than 24 hours, or is not a confirmation link. Subscribe again from the status page.',
        ),
      );
  });

  router.get('/:slug/subscription/unsubscribe/:token', (req, res) => {
    sendHtml(
      res,
      200,
      renderSubscriptionNotice(pagePath(req), 'Unsubscribe', 'Stop getting emails about this status page?', leaveForm(req.originalUrl)),
    );
  });

  // One-click unsubscribe (RFC 8058): mail clients post `List-Unsubscribe=One-Click` here.
  router.post('/:slug/subscription/unsubscribe/:token', formBody, async (req, res) => {
    if (await leavePageSubscription(deps.ds, slugOf(req), req.params.token)) {
      sendHtml(
        res,
        200,
        renderSubscriptionNotice(pagePath(req), 'You are unsubscribed', 'No more emails about this status page will be sent to you.'),
      );
    } else {
      sendHtml(
        res,
        404,
        renderSubscriptionNotice(pagePath(req), 'This link does not work', 'It is not an unsubscribe link of this status page.'),
      );
    }
  });
}

/** `POST /api/v1/public/status-pages/{slug}/subscribers` `{email}`: 202 and the one answer. */
export function addSubscribeJson(router: Router, deps: PublicSubscriptionDeps): void {
  router.post('/status-pages/:slug/subscribers', ...deps.subscribeLimiters, jsonBody, inputGuard, async (req, res) => {
    const { email } = await parseInput(SubscribeDto, req.body ?? {});
    await requestPageSubscription(deps, slugOf(req), email);
    sendMessage(res, SUBSCRIBE_ANSWER, undefined, 202);
  });
}
