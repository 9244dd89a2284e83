import { BODY_BOUNDS } from '@uptime/client';
import { addProblem, textProblem, type FormErrors } from '../../app/field-checks';

/**
 * What an incident's composers check before sending (docs/web.md, "Forms"), by the bounds of
 * `IncidentCreate` and `IncidentUpdateCreate` in the OpenAPI document: a new incident's title and
 * first message, an update's message.
 */
export function checkIncidentForm(values: { title: string; message: string }): FormErrors {
  const errors: FormErrors = {};
  addProblem(errors, 'title', textProblem(values.title, BODY_BOUNDS.IncidentCreate.title, 'a title for the incident'));
  addProblem(errors, 'message', textProblem(values.message, BODY_BOUNDS.IncidentCreate.message, 'what visitors should know'));
  return errors;
}

/** An update's problems: its message. */
export function checkIncidentUpdate(values: { message: string }): FormErrors {
  const errors: FormErrors = {};
  addProblem(errors, 'message', textProblem(values.message, BODY_BOUNDS.IncidentUpdateCreate.message, 'what visitors should know'));
  return errors;
}

/** The fields the composers show a message beside, by API name. */
export const INCIDENT_FIELDS = new Set(['title', 'impact', 'monitor_ids', 'status', 'message']);
