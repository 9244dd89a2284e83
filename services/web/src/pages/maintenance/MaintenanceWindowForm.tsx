import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BODY_BOUNDS, type Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { FieldError } from '../../components/FieldError';
import { FormSummary } from '../../components/FormSummary';
import { TextField } from '../../components/FormFields';
import { QueryState } from '../../components/QueryState';
import { TimeZoneField } from '../../components/TimeZoneField';
import {
  emptyMaintenanceForm,
  formToMaintenanceBody,
  maintenanceFieldErrors,
  maintenanceFormErrors,
  maintenanceToForm,
  REPEATS,
  WEEKDAYS,
  type MaintenanceFormValues,
  type Repeat,
} from './maintenance-form-values';
import { ManagedMark } from '../../components/ManagedBy';
import { useFormProblems } from '../../components/useFormProblems';
import { MAINTENANCE_KEY } from './useMaintenanceWindows';

/** A window covers at most 100 monitors (docs/alert-rules.md): the first 100 of yours are offered. */
const PICKER_LIMIT = 100;

/** The duration's bounds before anything is typed, from the OpenAPI document (`MaintenanceWindowCreate`). */
const DURATION_HINT = `${BODY_BOUNDS.MaintenanceWindowCreate.duration_minutes.minimum} to ${BODY_BOUNDS.MaintenanceWindowCreate.duration_minutes.maximum} minutes (a week)`;

/** The fields the form shows a message beside, by API name. */
const SHOWN = new Set(['name', 'monitor_ids', 'starts_at', 'duration_minutes', 'timezone', 'repeat', 'weekdays']);

/**
 * Create a maintenance window (window null) or edit one: every field checked before sending, all
 * problems at once next to their fields, the API's refusals there too (docs/web.md, "Forms").
 */
export function MaintenanceWindowForm({ window: w, onDone }: { window: Schema<'MaintenanceWindow'> | null; onDone: () => void }) {
  const fmt = useFormat();
  const [values, setValues] = useState<MaintenanceFormValues>(() => (w ? maintenanceToForm(w) : emptyMaintenanceForm(fmt.timeZone)));
  const { errors, summary, summaryRef, checked, refused } = useFormProblems();
  const save = useSaveWindow(w, onDone, (err) => refused(err, maintenanceFieldErrors(err), (field) => SHOWN.has(field)));
  const set = (change: Partial<MaintenanceFormValues>) => setValues((v) => ({ ...v, ...change }));
  const heading = w ? `Edit ${w.name}` : 'New maintenance window';
  const submit = () => {
    if (checked(maintenanceFormErrors(values))) save.mutate(formToMaintenanceBody(values));
  };
  return (
    <form
      className="card"
      aria-label={heading}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2>
        {heading}
        {w && <ManagedMark resource={w} />}
      </h2>
      <FormSummary summary={summary} summaryRef={summaryRef} />
      <TextField id="mw-name" label="Name" value={values.name} onChange={(name) => set({ name })} errors={errors.name} />
      <MonitorChecklist chosen={values.monitorIds} onChange={(monitorIds) => set({ monitorIds })} errors={errors.monitor_ids} />
      <div className="grid-2">
        <div className="field">
          <label htmlFor="mw-starts">Starts</label>
          <input
            id="mw-starts"
            type="datetime-local"
            value={values.startsAt}
            onChange={(e) => set({ startsAt: e.target.value })}
            aria-invalid={errors.starts_at ? true : undefined}
            aria-describedby="mw-starts-hint mw-starts-error"
          />
          <p className="hint muted small" id="mw-starts-hint">
            In the window&apos;s time zone, below. A recurring window starts at this time of day.
          </p>
          <FieldError id="mw-starts-error" messages={errors.starts_at} />
        </div>
        <TextField
          id="mw-duration"
          label="Duration (minutes)"
          inputMode="numeric"
          value={values.durationMinutes}
          onChange={(durationMinutes) => set({ durationMinutes })}
          errors={errors.duration_minutes}
          hint={DURATION_HINT}
        />
        <TimeZoneField
          id="mw-timezone"
          initial={w?.timezone ?? fmt.timeZone}
          value={values.timezone}
          onChange={(timezone) => set({ timezone })}
          errors={errors.timezone}
          hint="The start is read in this zone; recurring windows keep their local time across daylight-saving changes."
        />
        <div className="field">
          <label htmlFor="mw-repeat">Repeat</label>
          <select id="mw-repeat" value={values.repeat} onChange={(e) => set({ repeat: e.target.value as Repeat })} aria-describedby="mw-repeat-error">
            {REPEATS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          <FieldError id="mw-repeat-error" messages={errors.repeat} />
        </div>
      </div>
      {values.repeat === 'weekly' && <WeekdayChecklist chosen={values.weekdays} onChange={(weekdays) => set({ weekdays })} errors={errors.weekdays} />}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {w ? 'Save' : 'Create maintenance window'}
        </button>
        <button type="button" className="button ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Creates (window null) or replaces the window's fields; a refusal goes to `onRefused`. */
function useSaveWindow(w: Schema<'MaintenanceWindow'> | null, onDone: () => void, onRefused: (err: unknown) => void) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  return useMutation({
    mutationFn: async (body: Schema<'MaintenanceWindowCreate'>) => {
      const answer = w
        ? await data(api.put('/api/v1/maintenance-windows/{id}', { path: { id: w.id }, body }))
        : await data(api.post('/api/v1/maintenance-windows', { body }));
      return answer.data;
    },
    onSuccess: (saved) => {
      notices.success(w ? `Maintenance window "${saved.name}" saved` : `Maintenance window "${saved.name}" created`);
      void queryClient.invalidateQueries({ queryKey: MAINTENANCE_KEY });
      onDone();
    },
    onError: (err) => onRefused(err),
  });
}

const toggle = (ids: number[], id: number, on: boolean) => (on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id));

/** The monitors the window covers, each a checkbox. */
function MonitorChecklist({ chosen, onChange, errors }: { chosen: number[]; onChange: (ids: number[]) => void; errors: string[] | undefined }) {
  const monitors = useQuery({
    queryKey: ['monitors', 'picker'],
    queryFn: async () => (await data(api.get('/api/v1/monitors', { query: { page: 1, limit: PICKER_LIMIT } }))).data,
  });
  return (
    <fieldset className="field" aria-describedby={errors ? 'mw-monitor_ids-error' : undefined}>
      <legend>Monitors</legend>
      <QueryState query={monitors} what="your monitors">
        {(list) =>
          list.length === 0 ? (
            <p className="muted">You have no monitors yet.</p>
          ) : (
            <ul className="plain-list checks">
              {list.map((m) => (
                <li key={m.id}>
                  <label className="check">
                    <input type="checkbox" checked={chosen.includes(m.id)} onChange={(e) => onChange(toggle(chosen, m.id, e.target.checked))} /> {m.name}
                  </label>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <FieldError id="mw-monitor_ids-error" messages={errors} />
    </fieldset>
  );
}

/** The days of a weekly window; none chosen: the weekday of its start. */
function WeekdayChecklist({ chosen, onChange, errors }: { chosen: number[]; onChange: (days: number[]) => void; errors: string[] | undefined }) {
  return (
    <fieldset className="field" aria-describedby="mw-weekdays-hint mw-weekdays-error">
      <legend>Days</legend>
      <ul className="plain-list checks">
        {WEEKDAYS.map((day, i) => (
          <li key={day}>
            <label className="check">
              <input type="checkbox" checked={chosen.includes(i + 1)} onChange={(e) => onChange(toggle(chosen, i + 1, e.target.checked))} /> {day}
            </label>
          </li>
        ))}
      </ul>
      <p className="hint muted small" id="mw-weekdays-hint">
        None chosen: the day of its start.
      </p>
      <FieldError id="mw-weekdays-error" messages={errors} />
    </fieldset>
  );
}
