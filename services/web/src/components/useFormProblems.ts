import { useRef, useState } from 'react';
import { errorMessage } from '../app/errors';
import { FIELDS_NEED_A_CHANGE, type FormErrors } from '../app/field-checks';

/**
 * A form's problems and its one summary (docs/web.md, "Forms"): `checked()` shows what the form
 * found before sending, `refused()` what the API refused; either way each message stands next to
 * its field and the summary at the top takes the focus.
 */
export function useFormProblems() {
  const [errors, setErrors] = useState<FormErrors>({});
  const [summary, setSummary] = useState<string | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  // After the render that shows the summary, so there is something to focus.
  const focusSummary = () => requestAnimationFrame(() => summaryRef.current?.focus());
  /** Shows `found`; true when the form may be sent (nothing found). */
  const checked = (found: FormErrors): boolean => {
    setErrors(found);
    const clean = Object.keys(found).length === 0;
    setSummary(clean ? null : FIELDS_NEED_A_CHANGE);
    if (!clean) focusSummary();
    return clean;
  };
  /**
   * Shows an API refusal: `byField` next to the fields, and the API's own message at the top
   * when some field it names is not one the form shows (`shown`), or when it named none.
   */
  const refused = (err: unknown, byField: FormErrors, shown: (field: string) => boolean) => {
    setErrors(byField);
    const fields = Object.keys(byField);
    setSummary(fields.length > 0 && fields.every(shown) ? FIELDS_NEED_A_CHANGE : errorMessage(err));
    focusSummary();
  };
  return { errors, summary, summaryRef, checked, refused };
}
