import type { Preferences } from './preferences.service';

/** Preferences as the API shows them (docs/dashboard.md). */
export function toPreferencesResponse(p: Preferences) {
  return {
    timezone: p.timezone,
    email_notifications: p.emailNotifications,
    default_check_interval: p.defaultCheckInterval,
    default_timeout: p.defaultTimeout,
    default_locations: p.defaultLocations,
    theme: p.theme,
  };
}
