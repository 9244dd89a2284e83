import { BODY_BOUNDS } from '@uptime/client';
import { addProblem, choiceProblem, textProblem, type FormErrors } from '../../app/field-checks';
import type { StatusPageFormValues } from './status-page-form-values';

const BOUNDS = BODY_BOUNDS.StatusPageCreate;
const SECTION = BOUNDS.sections.items.properties.name;

/** What a slug may be, in words, from its bounds: "3 to 64 of a–z, 0–9 and -". */
export const SLUG_SHAPE = `${BOUNDS.slug.minLength} to ${BOUNDS.slug.maxLength} of a–z, 0–9 and -`;

/**
 * The status page form's problems by the API's field names, all at once, before sending
 * (docs/web.md, "Forms"): the bounds of `StatusPageCreate` in the OpenAPI document, and the rules
 * of its sections the API states there (docs/status-pages.md, "Sections"): each named, no name
 * twice (letter case aside). Whether a slug is free is the API's to say.
 */
export function checkStatusPageForm(values: StatusPageFormValues): FormErrors {
  const errors: FormErrors = {};
  addProblem(errors, 'slug', textProblem(values.slug.toLowerCase(), BOUNDS.slug, `an address for the page, ${SLUG_SHAPE}`, SLUG_SHAPE));
  addProblem(errors, 'title', textProblem(values.title, BOUNDS.title, 'a title for the page'));
  addProblem(errors, 'description', textProblem(values.description, BOUNDS.description, 'a description'));
  addProblem(errors, 'monitor_ids', choiceProblem(values.monitorIds.length, BOUNDS.monitor_ids, 'monitor', 'monitors'));
  addProblem(errors, 'sections', choiceProblem(values.sections.length, BOUNDS.sections, 'section', 'sections'));
  const firstNamed = new Map<string, number>();
  values.sections.forEach((section, i) => {
    const problem = textProblem(section.name, SECTION, 'a name');
    if (problem)
      return addProblem(
        errors,
        'sections',
        problem.startsWith('Required') ? `Section ${i + 1} needs a name` : `Section ${i + 1}: ${problem}`,
      );
    const key = section.name.trim().toLowerCase();
    const first = firstNamed.get(key);
    if (first === undefined) firstNamed.set(key, i);
    else addProblem(errors, 'sections', `Section ${i + 1} has the name of section ${first + 1}: each section needs its own`);
  });
  return errors;
}
