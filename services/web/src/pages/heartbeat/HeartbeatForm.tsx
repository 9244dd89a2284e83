import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, data } from '../../app/api';
import { errorMessage, fieldErrors } from '../../app/errors';
import { FIELDS_NEED_A_CHANGE } from '../../app/field-checks';
import { useNotices } from '../../app/notices';
import { useViewerReason } from '../../app/organizations';
import { Field, FormActions } from '../monitor-form/MonitorFormFields';
import { heartbeatFormToBody, previewTimes, type FormErrors, type HeartbeatBody, type HeartbeatFormValues } from './heartbeat-form-values';
import { monitorSaved } from '../monitor-detail/useMonitorDetail';

/**
 * A heartbeat monitor's form (docs/heartbeats.md): a name, a period or a cron in a zone, a grace,
 * and the next five times a ping is expected, in that zone.
 */
export function HeartbeatForm({ initial, monitorId, kind }: { initial: HeartbeatFormValues; monitorId?: number; kind?: ReactNode }) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const set = <K extends keyof HeartbeatFormValues>(key: K, value: HeartbeatFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const viewer = useViewerReason();
  const save = useSaveHeartbeat(monitorId, (refused, message) => {
    setErrors(refused);
    setFormError(message);
  });
  const field = (name: string) => ({ errors: errors[name], name });
  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    const { body, errors: local } = heartbeatFormToBody(values, monitorId === undefined ? 'create' : 'update');
    setErrors(local);
    if (Object.keys(local).length > 0) return setFormError(FIELDS_NEED_A_CHANGE);
    setFormError(null);
    save.mutate(body);
  };
  return (
    <form className="monitor-form" noValidate onSubmit={onSubmit} aria-labelledby="heartbeat-form-title">
      <div className="page-head">
        <h1 id="heartbeat-form-title">{monitorId === undefined ? 'Add heartbeat' : `Edit ${initial.name}`}</h1>
      </div>
      {kind}
      {formError && (
        <div className="error-box" role="alert">
          {formError}
        </div>
      )}
      <fieldset className="card">
        <legend>When pings are expected</legend>
        <div className="grid-2">
          <Field label="Name" {...field('name')}>
            {(p) => <input {...p} value={values.name} onChange={(e) => set('name', e.target.value)} autoComplete="off" required />}
          </Field>
          <Field label="Schedule" {...field('schedule')}>
            {(p) => (
              <select {...p} value={values.schedule} onChange={(e) => set('schedule', e.target.value as HeartbeatFormValues['schedule'])}>
                <option value="period">Every so many seconds</option>
                <option value="cron">On a cron schedule</option>
              </select>
            )}
          </Field>
          {values.schedule === 'period' ? (
            <Field label="Period" hint="seconds between pings, 30 s to 365 days" {...field('heartbeat_period')}>
              {(p) => <input {...p} inputMode="numeric" value={values.period} onChange={(e) => set('period', e.target.value)} />}
            </Field>
          ) : (
            <>
              <Field label="Cron expression" hint="5 fields: minute hour day month weekday" {...field('heartbeat_cron')}>
                {(p) => <input {...p} className="mono" value={values.cron} onChange={(e) => set('cron', e.target.value)} autoComplete="off" />}
              </Field>
              <Field label="Time zone" hint="IANA name, e.g. Europe/Berlin" {...field('heartbeat_timezone')}>
                {(p) => <input {...p} value={values.timezone} onChange={(e) => set('timezone', e.target.value)} autoComplete="off" />}
              </Field>
            </>
          )}
          <Field label="Grace" hint="seconds after a due time before the monitor is offline, 30 s to 30 days" {...field('heartbeat_grace')}>
            {(p) => <input {...p} inputMode="numeric" value={values.grace} onChange={(e) => set('grace', e.target.value)} />}
          </Field>
        </div>
        <SchedulePreview values={values} />
      </fieldset>
      <FormActions reasonId="heartbeat-form-reason" viewer={viewer} busy={save.isPending} monitorId={monitorId} />
    </form>
  );
}

/** The next five expected times, in the schedule's zone (a period's in the browser's), with the grace. */
function SchedulePreview({ values }: { values: HeartbeatFormValues }) {
  const preview = useMemo(() => previewTimes(values, new Date()), [values]);
  const zone = values.schedule === 'cron' ? values.timezone.trim() : undefined;
  // dateStyle and timeStyle do not go with timeZoneName: the parts are named one by one.
  const format = new Intl.DateTimeFormat(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: zone, timeZoneName: 'short' });
  const shown = (d: Date) => format.format(d);
  return (
    <section aria-label="Next expected pings" className="schedule-preview">
      <p className="strong">Next expected pings</p>
      {'problem' in preview ? (
        <p className="muted">Give {preview.problem} to see them.</p>
      ) : (
        <>
          <ol>
            {preview.times.map((t) => (
              <li key={t.getTime()}>{shown(t)}</li>
            ))}
          </ol>
          <p className="muted small">Offline when no ping has come {values.grace.trim() || '?'} s after one of them.</p>
        </>
      )}
    </section>
  );
}

function useSaveHeartbeat(monitorId: number | undefined, onRefused: (errors: FormErrors, message: string) => void) {
  const navigate = useNavigate();
  const notices = useNotices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: HeartbeatBody) =>
      monitorId === undefined
        ? (await data(api.post('/api/v1/monitors', { body }))).data
        : (await data(api.patch('/api/v1/monitors/{id}', { path: { id: monitorId }, body }))).data,
    onSuccess: (m) => {
      notices.success(monitorId === undefined ? `Heartbeat "${m.name}" added` : 'Heartbeat saved');
      monitorSaved(queryClient, m.id);
      void queryClient.invalidateQueries({ queryKey: ['monitors'] });
      navigate(`/monitors/${m.id}`);
    },
    onError: (err) => onRefused(fieldErrors(err), errorMessage(err)),
  });
}
