/** The validated, typed configuration of every process (contract §1). Frozen after loading. */
export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly http: { readonly port: number; readonly host: string; readonly publicUrl: string; readonly appUrl: string };
  readonly databaseUrl: string;
  readonly redis: { readonly url: string; readonly queuePrefix: string };
  readonly session: { readonly secret: string; readonly ttlSeconds: number };
  readonly oauth: {
    readonly github?: OAuthProviderConfig & { readonly userEmailUrl: string };
    readonly google?: OAuthProviderConfig;
  };
  readonly adminEmails: readonly string[];
  readonly mail: {
    readonly from: string;
    readonly sendgrid?: { readonly apiKey: string; readonly apiUrl: string };
    readonly smtpUrl?: string;
  };
  readonly rateLimitPerHour: number;
  readonly minCheckIntervalSeconds: number;
  readonly allowPrivateTargets: boolean;
  readonly corsOrigins: readonly string[];
  readonly requireHttps: boolean;
  readonly trustProxy?: string | number | boolean;
  readonly checkConcurrency: number;
  /** The name of the workers' own location in multi-location checks (CHECK_LOCATION, default `local`). */
  readonly checkLocation: string;
  readonly logLevel: string;
  /** LOG_FORMAT: unset = pretty when stdout is a terminal, JSON lines otherwise. */
  readonly logFormat?: 'json' | 'pretty';
  /**
   * What `pnpm start` may run by itself when nothing is configured (docs/first-run.md): where it
   * keeps their data, and whether DATABASE_URL / REDIS_URL were set (then they always win).
   */
  readonly local?: { readonly dataDir?: string; readonly databaseUrlSet: boolean; readonly redisUrlSet: boolean };
  readonly resultRetentionDays: number;
  /** Port of the health/metrics listener of workers and notifier; 0 = an ephemeral port. */
  readonly healthPort?: number;
}

export interface OAuthProviderConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  readonly userProfileUrl: string;
}
