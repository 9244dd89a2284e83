import { BODY_BOUNDS } from '@uptime/client';
import { isEmailAddress } from '@uptime/probe/src/fields/value-tests';
import { addProblem, textProblem, type FormErrors } from '../../app/field-checks';

/**
 * The invitation form's problems before sending (docs/web.md, "Forms"): an address, within the
 * bounds of `InvitationCreate` in the OpenAPI document, shaped as an email address.
 */
export function checkInviteForm(values: { email: string }): FormErrors {
  const errors: FormErrors = {};
  const email = values.email.trim();
  const problem = textProblem(email, BODY_BOUNDS.InvitationCreate.email, 'the address to invite');
  addProblem(errors, 'email', problem ?? (isEmailAddress(email) ? null : 'Not an email address: write it as name@example.com'));
  return errors;
}

/** The fields the form shows a message beside, by API name. */
export const INVITE_FIELDS = new Set(['email', 'role']);
