import { BODY_BOUNDS } from '@uptime/client';
import { addProblem, integerProblem, type FormErrors } from '../../app/field-checks';

const BOUNDS = BODY_BOUNDS.PreferencesUpdate;

/** The default interval's bounds: the install's floor (`minCheckInterval`) to the declared ceiling. */
export const intervalBounds = (minCheckInterval: number): { min: number; max: number } => ({
  min: Math.max(minCheckInterval, BOUNDS.default_check_interval.minimum),
  max: BOUNDS.default_check_interval.maximum,
});

/** The default timeout's bounds. */
export const TIMEOUT_BOUNDS = { min: BOUNDS.default_timeout.minimum, max: BOUNDS.default_timeout.maximum };

/**
 * The preferences' problems before sending (docs/web.md, "Forms"): the default interval and
 * timeout by the bounds of `PreferencesUpdate` in the OpenAPI document, the interval no shorter
 * than the install's floor, which the API checks too.
 */
export function checkPreferencesForm(values: { interval: string; timeout: string }, minCheckInterval: number): FormErrors {
  const errors: FormErrors = {};
  const interval = intervalBounds(minCheckInterval);
  addProblem(errors, 'default_check_interval', integerProblem(values.interval, interval.min, interval.max, 'seconds'));
  addProblem(errors, 'default_timeout', integerProblem(values.timeout, TIMEOUT_BOUNDS.min, TIMEOUT_BOUNDS.max, 'seconds'));
  return errors;
}

/** The fields the form shows a message beside, by API name. */
export const PREFERENCE_FIELDS = new Set(['timezone', 'email_notifications', 'default_check_interval', 'default_timeout']);
