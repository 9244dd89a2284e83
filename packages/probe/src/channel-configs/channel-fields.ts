/**
 * The configuration of every channel type (docs/channels.md), declared once as field specs
 * (../fields/field-spec.ts): the API validates a channel's `config` with them, shows `<field>_set`
 * for the secret ones and describes them in the OpenAPI document, the web form reads their labels
 * and hints, the notifier types what it sends with. Pure data and pure functions: the web app
 * may import this file.
 */
import type { FieldKind, FieldSpec, ValueOf } from '../fields/field-spec';
import { HTTP_URL_MAX_LENGTH } from '../fields/value-tests';

/** The channels of outside services, beside the original `email`, `slack` and `webhook`. */
export const SERVICE_CHANNEL_TYPES = ['discord', 'telegram', 'teams', 'pagerduty', 'ntfy', 'pushover', 'google_chat', 'mattermost'] as const;
export type ServiceChannelType = (typeof SERVICE_CHANNEL_TYPES)[number];

export const isServiceChannelType = (value: unknown): value is ServiceChannelType =>
  typeof value === 'string' && (SERVICE_CHANNEL_TYPES as readonly string[]).includes(value);

/**
 * The types whose service keeps an incident of its own that this product's acknowledgement
 * moves (PagerDuty's `acknowledge`): acknowledging a downtime queues them a message.
 */
export const ACKNOWLEDGING_CHANNEL_TYPES: readonly ServiceChannelType[] = ['pagerduty'];

/** Every type a channel can take: the original three, then the services. */
export const CHANNEL_TYPES = ['email', 'slack', 'webhook', ...SERVICE_CHANNEL_TYPES] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const isChannelType = (value: unknown): value is ChannelType => typeof value === 'string' && (CHANNEL_TYPES as readonly string[]).includes(value);

/** What a channel field holds: a check field's kinds, and a list of email addresses (stored lower-cased, each once). */
export type ChannelFieldKind = FieldKind | { kind: 'emails'; maxItems: number };

/**
 * A field of a channel's config. `secret`: write-only (answers show `<wire>_set: true`, the value
 * is encrypted at rest); a webhook URL that carries its own credential is a secret. `check` is
 * always false: nothing here is part of a check.
 */
export interface ChannelFieldSpec extends Omit<FieldSpec, 'type'> {
  readonly type: ChannelFieldKind;
  readonly secret: boolean;
  /** Absent from a config: the default applies (or null when the field is nullable and has none). */
  readonly optional: boolean;
}

type Declared = Omit<ChannelFieldSpec, 'check' | 'nullable' | 'optional' | 'secret' | 'wire'> & {
  secret?: true;
  optional?: true;
  nullable?: true;
};

/** Field declarations keyed by wire name (the name in `config`), which is also the property name. */
function fields<const F extends Record<string, Declared>>(declared: F): { readonly [K in keyof F]: ChannelFieldSpec & F[K] & { wire: K; nullable: F[K] extends { nullable: true } ? true : false } } {
  return Object.fromEntries(
    Object.entries(declared).map(([wire, d]) => [
      wire,
      { ...d, wire, check: false, secret: d.secret ?? false, optional: d.optional ?? false, nullable: d.nullable ?? false },
    ]),
  ) as never;
}

const webhookUrl = (label: string, hint: string) => ({
  type: { kind: 'url' as const, maxLength: HTTP_URL_MAX_LENGTH, scheme: 'http' as const },
  secret: true as const,
  description: `The ${label}: its path or query carries the credential, so it is kept secret. Any host is accepted under the outbound target rules.`,
  form: { label: 'Webhook URL', hint },
});

/** A secret token of fixed shape. */
const token = (source: string, message: string, description: string, label: string, hint: string) => ({
  type: { kind: 'text' as const, minLength: 1, maxLength: 200, pattern: { source, message } },
  secret: true as const,
  description,
  form: { label, hint },
});

/** Where a channel's form and the OpenAPI document name a type ("Google Chat"). */
export const CHANNEL_LABELS: { readonly [T in ChannelType]: string } = {
  email: 'Email',
  slack: 'Slack',
  webhook: 'Webhook',
  discord: 'Discord',
  telegram: 'Telegram',
  teams: 'Microsoft Teams',
  pagerduty: 'PagerDuty',
  ntfy: 'ntfy',
  pushover: 'Pushover',
  google_chat: 'Google Chat',
  mattermost: 'Mattermost',
};

/** The least characters of a webhook's HMAC signing key (docs/webhooks.md). */
export const WEBHOOK_SECRET_MIN_LENGTH = 16;

export const CHANNEL_FIELDS = {
  email: fields({
    recipients: {
      type: { kind: 'emails', maxItems: 20 },
      description: 'Up to 20 addresses the alert is emailed to.',
      form: { label: 'Recipients', hint: 'Addresses separated by commas; each gets every alert of the monitors using this channel.' },
    },
  }),
  slack: fields({
    webhook_url: webhookUrl('Slack incoming webhook URL', 'Slack → your app → Incoming Webhooks → Add New Webhook to Workspace → pick the channel → copy the URL.'),
  }),
  webhook: fields({
    url: {
      type: { kind: 'url', maxLength: HTTP_URL_MAX_LENGTH, scheme: 'http' },
      description: 'Where the signed JSON alert is POSTed (docs/webhooks.md).',
      form: { label: 'URL', hint: 'Your endpoint; it receives a JSON POST signed in X-Uptime-Signature.' },
    },
    secret: {
      type: { kind: 'text', minLength: WEBHOOK_SECRET_MIN_LENGTH, maxLength: 128 },
      secret: true,
      optional: true,
      description: 'The HMAC-SHA256 signing key (16 to 128 characters); generated when not given and shown once, in the answer that made it.',
      form: { label: 'Signing secret', hint: 'Leave empty to have one generated; it is shown once, after saving.' },
    },
  }),
  discord: fields({
    webhook_url: webhookUrl('Discord channel webhook URL', 'Channel settings → Integrations → Webhooks → New Webhook → Copy Webhook URL.'),
  }),
  telegram: fields({
    bot_token: token(
      '^[0-9]{1,20}:[A-Za-z0-9_-]{30,60}$',
      'a Bot API token: digits, a colon, then 30 to 60 letters, digits, "_" or "-"',
      "The bot's Bot API token from @BotFather.",
      'Bot token',
      'Talk to @BotFather, send /newbot, and copy the token it answers (123456789:AA...).',
    ),
    chat_id: {
      type: { kind: 'text', minLength: 1, maxLength: 64, pattern: { source: '^(-?[0-9]{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$', message: 'a numeric chat id or @channelusername' } },
      description: 'The chat the bot posts to: a numeric id (negative for groups) or @username of a public channel.',
      form: { label: 'Chat ID', hint: 'Add the bot to the chat, send it a message, then read "chat":{"id":...} from https://api.telegram.org/bot<token>/getUpdates.' },
    },
  }),
  teams: fields({
    webhook_url: webhookUrl(
      'Microsoft Teams Workflows URL',
      'In Teams: the channel → Workflows → "Post to a channel when a webhook request is received" → copy the URL.',
    ),
  }),
  pagerduty: fields({
    routing_key: token(
      '^[A-Za-z0-9]{32}$',
      'a 32-character integration key',
      'The Integration Key of an Events API v2 integration of a PagerDuty service.',
      'Integration key',
      'PagerDuty → Services → your service → Integrations → Add → Events API V2 → Integration Key.',
    ),
    severity: {
      type: { kind: 'choice', values: ['critical', 'error', 'warning', 'info'] },
      optional: true,
      default: 'critical',
      description: 'The severity of the incidents a downtime opens (slow and certificate alerts are sent as warning at most).',
      form: { label: 'Severity' },
    },
  }),
  ntfy: fields({
    server_url: {
      type: { kind: 'url', maxLength: HTTP_URL_MAX_LENGTH, scheme: 'http' },
      optional: true,
      default: 'https://ntfy.sh',
      description: 'The ntfy server: https://ntfy.sh or your own.',
      form: { label: 'Server URL' },
    },
    topic: {
      type: { kind: 'text', minLength: 1, maxLength: 64, pattern: { source: '^[-_A-Za-z0-9]{1,64}$', message: 'letters, digits, "-" and "_"' } },
      description: 'The topic to publish to; on a public server anyone who knows it can read it, so make it hard to guess.',
      form: { label: 'Topic', hint: 'The name you subscribed to in the ntfy app.' },
    },
    token: {
      ...token('^[^\\s]{1,200}$', 'no spaces', 'An access token (tk_...) for a protected topic; sent as a Bearer token.', 'Access token', 'ntfy web app → Account → Access tokens. Leave empty for an open topic.'),
      optional: true,
      nullable: true,
    },
    priority: {
      type: { kind: 'integer', min: 1, max: 5 },
      optional: true,
      default: 5,
      description: 'The priority of down, slow and certificate messages (1 min to 5 urgent); recoveries and tests are sent at 3 at most.',
      form: { label: 'Priority', showBounds: true },
    },
  }),
  pushover: fields({
    app_token: token(
      '^[A-Za-z0-9]{30}$',
      'a 30-character application token',
      'The API token of a Pushover application.',
      'Application token',
      'pushover.net → Your Applications → Create an Application/API Token.',
    ),
    user_key: token(
      '^[A-Za-z0-9]{30}$',
      'a 30-character user or group key',
      'The user key (or a delivery group key) to notify.',
      'User key',
      'Shown at the top of your pushover.net dashboard.',
    ),
    device: {
      type: { kind: 'text', minLength: 1, maxLength: 200, pattern: { source: '^[A-Za-z0-9_-]{1,25}(,[A-Za-z0-9_-]{1,25})*$', message: 'device names separated by commas' } },
      optional: true,
      nullable: true,
      description: "Only these devices (comma-separated names); every device of the user's when unset.",
      form: { label: 'Devices' },
    },
    priority: {
      type: { kind: 'integer', min: -2, max: 2 },
      optional: true,
      default: 1,
      description: 'The priority of down messages (-2 lowest to 2 emergency, repeated until acknowledged in Pushover); other messages are sent at 0 at most.',
      form: { label: 'Priority', showBounds: true },
    },
    retry: {
      type: { kind: 'integer', min: 30, max: 10800 },
      optional: true,
      default: 60,
      description: 'With emergency priority: seconds between repeats of a down message until it is acknowledged.',
      form: { label: 'Retry (emergency)', showBounds: true },
    },
    expire: {
      type: { kind: 'integer', min: 30, max: 10800 },
      optional: true,
      default: 3600,
      description: 'With emergency priority: seconds after which a down message stops repeating.',
      form: { label: 'Expire (emergency)', showBounds: true },
    },
  }),
  google_chat: fields({
    webhook_url: webhookUrl('Google Chat space webhook URL', 'In the space: Apps & integrations → Webhooks → Add webhook → copy the URL.'),
  }),
  mattermost: fields({
    webhook_url: webhookUrl('Mattermost incoming webhook URL', 'Main menu → Integrations → Incoming Webhooks → Add Incoming Webhook → copy the URL.'),
    channel: {
      type: { kind: 'text', minLength: 1, maxLength: 64, pattern: { source: '^[a-z0-9_-]{1,64}$', message: 'a channel name: lower-case letters, digits, "-" and "_"' } },
      optional: true,
      nullable: true,
      description: "Post to this channel instead of the webhook's own (when the webhook allows it).",
      form: { label: 'Channel' },
    },
    username: {
      type: { kind: 'text', minLength: 1, maxLength: 64 },
      optional: true,
      nullable: true,
      description: 'The name shown as the sender (when the server allows overriding it).',
      form: { label: 'Username' },
    },
  }),
} as const satisfies { [T in ChannelType]: Record<string, ChannelFieldSpec> };

type FieldsOf<T extends ChannelType> = (typeof CHANNEL_FIELDS)[T];

/** The config of a channel of type `T` once parsed: every field present, defaults filled in. */
export type ChannelConfigOf<T extends ChannelType> = { -readonly [K in keyof FieldsOf<T>]: ValueOfSpec<FieldsOf<T>[K]> };

type ValueOfSpec<S> = S extends { type: { kind: 'emails' } } ? string[] : S extends FieldSpec ? ValueOf<S> : never;

/** The field specs of `type`, in declaration order. */
export const channelFieldsOf = (type: ChannelType): ChannelFieldSpec[] => Object.values(CHANNEL_FIELDS[type] as Record<string, ChannelFieldSpec>);

/** A channel of any service type with its config. */
export type ServiceChannelConfig = { [T in ServiceChannelType]: { type: T; config: ChannelConfigOf<T> } }[ServiceChannelType];

/** The wire names of the secret fields of `type`: write-only in the API, encrypted at rest. */
export const secretFieldsOf = (type: ChannelType): string[] =>
  channelFieldsOf(type)
    .filter((f) => f.secret)
    .map((f) => f.wire);
