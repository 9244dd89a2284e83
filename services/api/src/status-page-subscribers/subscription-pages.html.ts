import { escapeMarkup as e } from '../status-pages/html-escape';
import { htmlDocument } from '../status-pages/status-page.html';

/** A short page answering a visitor's subscription step: what happened, and the way back to the page. */
export function renderSubscriptionNotice(pagePath: string, heading: string, text: string, extra = ''): string {
  return htmlDocument(
    heading,
    `<header>
<p class="back"><a href="${e(pagePath)}">Back to the status page</a></p>
<h1>${e(heading)}</h1>
<p class="description">${e(text)}</p>
${extra}
</header>`,
  );
}

/**
 * The unsubscribe link's page: a button that posts to the same address. Opening the link changes
 * nothing (mail scanners open links); mail clients that offer one-click unsubscribe post to it
 * directly (RFC 8058).
 */
export const leaveForm = (action: string): string =>
  `<form class="leave" method="post" action="${e(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`;
