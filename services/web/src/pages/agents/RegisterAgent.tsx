import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { refusalsByField } from '../../app/field-checks';
import { useNotices } from '../../app/notices';
import { CheckField, TextField } from '../../components/FormFields';
import { FormSummary } from '../../components/FormSummary';
import { SecretOnce } from '../../components/SecretOnce';
import { useFormProblems } from '../../components/useFormProblems';
import { AGENT_FIELDS, checkAgentForm } from './agent-form-checks';

/**
 * Register an agent: its name, location and address checked before sending (docs/web.md,
 * "Forms"), all at once next to each field, the API's refusals there too; the secret shown once.
 */
export function RegisterAgent() {
  const [values, setValues] = useState({ name: '', location: '', url: '', is_public: false });
  const [created, setCreated] = useState<Schema<'AgentWithSecret'> | null>(null);
  const problems = useFormProblems();
  const create = useRegisterAgent(
    values,
    (agent) => {
      setCreated(agent);
      setValues({ name: '', location: '', url: '', is_public: false });
    },
    (err) => problems.refused(err, refusalsByField(err), (field) => AGENT_FIELDS.has(field)),
  );
  const { errors } = problems;
  return (
    <section className="card" aria-labelledby="new-agent">
      <h2 id="new-agent">Register an agent</h2>
      <FormSummary summary={problems.summary} summaryRef={problems.summaryRef} />
      <form
        className="grid-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (problems.checked(checkAgentForm(values))) create.mutate();
        }}
      >
        {(
          [
            ['name', 'Agent name', 'eu-west-1'],
            ['location', 'Location', 'Frankfurt'],
            ['url', 'Agent URL', 'https://agent.example.com'],
          ] as const
        ).map(([key, label, placeholder]) => (
          <TextField
            key={key}
            id={`agent-${key}`}
            label={label}
            value={values[key]}
            placeholder={placeholder}
            onChange={(value) => setValues({ ...values, [key]: value })}
            errors={errors[key]}
          />
        ))}
        <CheckField
          label="Public: others may use it"
          checked={values.is_public}
          onChange={(is_public) => setValues({ ...values, is_public })}
        />
        <div>
          <button type="submit" className="button primary" disabled={create.isPending}>
            Register agent
          </button>
        </div>
      </form>
      {created && (
        <SecretOnce
          label={`Secret of ${created.name}`}
          value={created.secret}
          note="The agent signs its requests with it. Copy it now; later it is shown only when you ask for the credentials."
        />
      )}
    </section>
  );
}

/** Registers an agent from the form's values; `onRegistered` shows its secret and clears the form. */
/** Registers the agent; a refusal goes to `onRefused`. */
function useRegisterAgent(
  values: Schema<'AgentCreate'>,
  onRegistered: (agent: Schema<'AgentWithSecret'>) => void,
  onRefused: (err: unknown) => void,
) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  return useMutation({
    mutationFn: async () => (await data(api.post('/api/v1/agents', { body: values }))).data,
    onSuccess: (agent) => {
      onRegistered(agent);
      notices.success(`Agent "${agent.name}" registered`);
      void queryClient.invalidateQueries({ queryKey: ['agents'] });
    },
    onError: onRefused,
  });
}
