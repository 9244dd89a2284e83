import { MANAGED_BY_VALUES, RESOURCE_KEY_MAX, RESOURCE_KEY_PATTERN } from '../http/resource-key';
import { enumOf, nullable, str, type JsonSchema } from './json-schema';

/** What `key` and `managed_by` mean, on every resource a configuration file declares (docs/config-as-code.md). */
export const KEY_DESCRIPTION =
  'Its stable name in a configuration file, unique per kind within the organization; null when made in the UI. A key another resource of the kind has is 409 RESOURCE_EXISTS (docs/config-as-code.md)';
export const MANAGED_BY_DESCRIPTION =
  'config: `uptime apply` made or adopted it, and `uptime apply --prune` deletes it once the file no longer declares it; null: made by hand, never pruned (docs/config-as-code.md)';

/** `key` as a body gives it and an answer shows it (the DTOs' ResourceKey rule, http/resource-key.ts). */
export const keySchema = (): JsonSchema =>
  nullable(
    str({
      minLength: 1,
      maxLength: RESOURCE_KEY_MAX,
      pattern: RESOURCE_KEY_PATTERN.source,
      description: KEY_DESCRIPTION,
      examples: ['api-health'],
    }),
  );

/** `managed_by` as a body gives it and an answer shows it. */
export const managedBySchema = (): JsonSchema => nullable(enumOf(MANAGED_BY_VALUES, { description: MANAGED_BY_DESCRIPTION }));
