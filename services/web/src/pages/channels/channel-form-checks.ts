import { BODY_BOUNDS } from '@uptime/client';
import type { ChannelFieldSpec } from '@uptime/probe/src/channel-configs/channel-fields';
import { isEmailAddress, isHttpUrl } from '@uptime/probe/src/fields/value-tests';
import { addProblem, integerProblem, textProblem, type FormErrors } from '../../app/field-checks';
import { channelFormFields, type ChannelFormValues } from './channel-form-values';

/** "the webhook URL", "the bot token": how a required field's message names it. */
const theField = (field: ChannelFieldSpec): string => `the ${field.form.label.charAt(0).toLowerCase()}${field.form.label.slice(1)}`;

/** One config field's problem by its declaration (packages/probe/src/channel-configs/channel-fields.ts); null when fine. */
function configProblem(field: ChannelFieldSpec, text: string): string | null {
  const t = field.type;
  switch (t.kind) {
    case 'url':
      if (text.length > t.maxLength) return `At most ${t.maxLength} characters (now ${text.length})`;
      return isHttpUrl(text) ? null : 'Not a full address: write it as http:// or https://, with a host';
    case 'text':
      return textProblem(
        text,
        { minLength: t.minLength, maxLength: t.maxLength, pattern: t.pattern?.source },
        theField(field),
        t.pattern?.message,
      );
    case 'integer':
      return integerProblem(text, t.min, t.max, '');
    case 'choice':
      return t.values.includes(text) ? null : `One of ${t.values.join(', ')}`;
    case 'emails': {
      const addresses = text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = addresses.filter((a) => !isEmailAddress(a));
      if (bad.length > 0) return `Not an email address: ${bad.join(', ')}`;
      return addresses.length > t.maxItems ? `At most ${t.maxItems} addresses (now ${addresses.length})` : null;
    }
    default:
      return null;
  }
}

/**
 * The channel form's problems by the API's field names (`name`, `config.<field>`), all at once,
 * before sending (docs/web.md, "Forms"). `storedSecrets` names the secrets a saved channel holds:
 * left empty on an edit, they are kept, so they are not missing.
 */
export function checkChannelForm(values: ChannelFormValues, storedSecrets: ReadonlySet<string> = new Set()): FormErrors {
  const errors: FormErrors = {};
  addProblem(errors, 'name', textProblem(values.name, BODY_BOUNDS.ChannelCreate.name, 'a name for the channel'));
  for (const field of channelFormFields(values.type)) {
    const text = (values.config[field.wire] ?? '').trim();
    const key = `config.${field.wire}`;
    if (text === '') {
      if (!field.optional && !storedSecrets.has(field.wire)) addProblem(errors, key, `Required: ${theField(field)}`);
      continue;
    }
    addProblem(errors, key, configProblem(field, text));
  }
  return errors;
}

/** The API's refusals by the form's fields: a config field keeps its path (`config.url`), anything else its first name. */
export const channelFieldOf = (key: string): string => (key.startsWith('config.') ? key : key.split(/[.[]/)[0]!);
