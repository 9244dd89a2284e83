import { BODY_BOUNDS } from '@uptime/client';
import { addProblem, textProblem, type FormErrors } from '../../app/field-checks';

/** What an agent's address may be, in words (the pattern of `AgentCreate.url`). */
export const AGENT_URL_SHAPE = 'http:// or https:// and a host, with no query, fragment or user';

/**
 * The agent form's problems before sending (docs/web.md, "Forms"), by the bounds of
 * `AgentCreate` in the OpenAPI document: a name, a location, and the agent's address.
 */
export function checkAgentForm(values: { name: string; location: string; url: string }): FormErrors {
  const bounds = BODY_BOUNDS.AgentCreate;
  const errors: FormErrors = {};
  addProblem(errors, 'name', textProblem(values.name, bounds.name, 'a name for the agent'));
  addProblem(errors, 'location', textProblem(values.location, bounds.location, 'where the agent runs'));
  addProblem(errors, 'url', textProblem(values.url, bounds.url, `the agent's address, ${AGENT_URL_SHAPE}`, AGENT_URL_SHAPE));
  return errors;
}

/** The fields the form shows a message beside, by API name. */
export const AGENT_FIELDS = new Set(['name', 'location', 'url', 'is_public']);
