import { BODY_BOUNDS } from '@uptime/client';
import { addProblem, boundedIntegerProblem, textProblem, type FormErrors } from '../../app/field-checks';

/**
 * The new token form's problems before sending (docs/web.md, "Forms"), by the bounds of
 * `TokenCreate` in the OpenAPI document: a name, and days to expiry when given (empty: never).
 */
export function checkTokenForm(values: { name: string; days: string }): FormErrors {
  const bounds = BODY_BOUNDS.TokenCreate;
  const errors: FormErrors = {};
  addProblem(errors, 'name', textProblem(values.name, bounds.name, 'a name for the token'));
  if (values.days.trim() !== '') addProblem(errors, 'expires_in_days', boundedIntegerProblem(values.days, bounds.expires_in_days, 'days'));
  return errors;
}

/** The fields the form shows a message beside, by API name. */
export const TOKEN_FIELDS = new Set(['name', 'expires_in_days']);
