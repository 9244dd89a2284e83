/**
 * Every type of notification channel the product names (issue 33; docs/channels.md). The
 * `channels` table accepts all of them; the API accepts the ones with a config schema in
 * `CHANNEL_CONFIGS` (a type becomes usable with its schema there and its sender in the notifier).
 */
export const CHANNEL_TYPE_NAMES = ['email', 'slack', 'webhook', 'discord', 'telegram', 'teams', 'pagerduty', 'ntfy', 'pushover', 'google_chat', 'mattermost'] as const;
export type ChannelTypeName = (typeof CHANNEL_TYPE_NAMES)[number];

/**
 * What a config field holds: `url` an absolute http(s) URL (the SSRF guard applies at save and
 * at send), `text` a string, `emails` a list of addresses, `choice` one of `choices`.
 */
export type ChannelFieldKind = 'url' | 'text' | 'emails' | 'choice';

export interface ChannelFieldSpec {
  name: string;
  kind: ChannelFieldKind;
  required: boolean;
  /** Write-only: sealed at rest, never in an answer (which shows `<name>_set` instead). */
  secret: boolean;
  /** The most characters (a `text` or `url`), or addresses (`emails`). */
  max: number;
  choices?: readonly string[];
  /** What the field is and where to find it: the form's hint and the OpenAPI description. */
  description: string;
}

export interface ChannelConfigSpec {
  type: ChannelTypeName;
  /** The form's name of the type ("Slack"). */
  label: string;
  fields: readonly ChannelFieldSpec[];
}

const URL_MAX = 2048;

/** The config schema of each type the API accepts, keyed by type. */
export const CHANNEL_CONFIGS = {
  email: {
    type: 'email',
    label: 'Email',
    fields: [{ name: 'recipients', kind: 'emails', required: true, secret: false, max: 20, description: 'Up to 20 addresses the alert is emailed to' }],
  },
  slack: {
    type: 'slack',
    label: 'Slack',
    fields: [
      {
        name: 'webhook_url',
        kind: 'url',
        required: true,
        secret: true,
        max: URL_MAX,
        description: 'An incoming webhook URL (Slack app → Incoming Webhooks → Add New Webhook); it carries its own secret',
      },
    ],
  },
  webhook: {
    type: 'webhook',
    label: 'Webhook',
    fields: [
      { name: 'url', kind: 'url', required: true, secret: false, max: URL_MAX, description: 'Where the signed JSON alert is POSTed (docs/webhooks.md)' },
      {
        name: 'secret',
        kind: 'text',
        required: false,
        secret: true,
        max: 128,
        description: 'The HMAC-SHA256 signing key (16 to 128 characters); generated when not given and shown once, in the answer that made it',
      },
    ],
  },
} as const satisfies Partial<Record<ChannelTypeName, ChannelConfigSpec>>;

/** The types the API accepts today. */
export type ChannelType = keyof typeof CHANNEL_CONFIGS;
export const CHANNEL_TYPES = Object.keys(CHANNEL_CONFIGS) as ChannelType[];

export const isChannelType = (value: unknown): value is ChannelType => typeof value === 'string' && Object.prototype.hasOwnProperty.call(CHANNEL_CONFIGS, value);

/** A type's schema. */
export const channelConfigSpec = (type: ChannelType): ChannelConfigSpec => CHANNEL_CONFIGS[type];
