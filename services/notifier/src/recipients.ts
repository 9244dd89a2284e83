
/** Blank entries dropped, addresses differing only in case (or surrounding spaces) kept once. */
export function uniqueAddresses(list: string[]): string[] {
  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const raw of list) {
    const address = raw.trim();
    const key = address.toLowerCase();
    if (address === '' || seen.has(key)) continue;
    seen.add(key);
    addresses.push(address);
  }
  return addresses;
}

/**
 * Who gets a monitor's alert emails: its `email_recipients`, or when that list is empty the members
 * of its organization who have alerts on (docs/monitors.md, docs/organizations.md). Blank entries
 * are dropped and addresses differing only in case are sent once.
 */
export function recipientsOf(ctx: { emailRecipients: string[]; memberEmails: string[] }): string[] {
  const recipients = uniqueAddresses(ctx.emailRecipients);
  return recipients.length > 0 ? recipients : uniqueAddresses(ctx.memberEmails);
}
