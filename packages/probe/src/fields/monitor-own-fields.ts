/**
 * The bounds of a monitor's own fields (not its check's: those are in each type's `fields.ts`),
 * declared once: the API's DTO (services/api/src/monitors/monitor-fields.dto.ts) validates with
 * them, the OpenAPI document shows them, and the web form checks them before sending. Pure data:
 * the web app imports this file. The interval's floor is config (MIN_CHECK_INTERVAL_SECONDS),
 * answered by GET /api/v1/monitors/limits.
 */
export const MONITOR_OWN_FIELDS = {
  name: { minLength: 1, maxLength: 200 },
  checkInterval: { min: 1, max: 86400 },
} as const;
