import type { IncidentContext } from './incident.repository';

/**
 * Who gets a monitor's alert emails: its `email_recipients`, or its owner when that list is empty
 * (docs/monitors.md). Blank entries are dropped and addresses differing only in case are sent once.
 */
export function recipientsOf(ctx: Pick<IncidentContext, 'emailRecipients' | 'ownerEmail'>): string[] {
  const seen = new Set<string>();
  const recipients: string[] = [];
  for (const raw of ctx.emailRecipients) {
    const address = raw.trim();
    const key = address.toLowerCase();
    if (address === '' || seen.has(key)) continue;
    seen.add(key);
    recipients.push(address);
  }
  return recipients.length > 0 ? recipients : [ctx.ownerEmail];
}
