export * from './fake-service';
export * from './fake-chat-webhooks';
export * from './fake-telegram';
export * from './fake-pagerduty';
export * from './fake-ntfy-pushover';
export * from './every-fake-channel';
