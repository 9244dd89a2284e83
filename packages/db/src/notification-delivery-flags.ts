/**
 * What a notification shows of its deliveries, as SQL over a notification aliased `n`: the one
 * definition shared by the API's answers (services/api/src/notifications/notifications.repository.ts)
 * and the notification a webhook carries (services/notifier/src/notification.repository.ts), which
 * must read alike (docs/webhooks.md).
 */
export const NOTIFICATION_DELIVERY_FLAGS = {
  /** One of its deliveries may have reached its receiver twice (docs/reliability.md). */
  possibleDuplicate: `EXISTS (SELECT 1 FROM notification_deliveries d WHERE d.notification_id = n.id AND d.possible_duplicate)`,
  /**
   * Its emails were only written to the log, no mail transport being configured: each email
   * delivery recorded as sent was logged, and there is one (docs/notifications.md).
   * `email_sent_at` is then when the first was logged.
   */
  emailLoggedOnly: `COALESCE((SELECT bool_and(d.logged_only) FROM notification_deliveries d
      WHERE d.notification_id = n.id AND d.channel = 'email' AND d.status = 'sent'), false)`,
} as const;
