import { useViewerReason } from '../../app/organizations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { HeartbeatForm } from '../heartbeat/HeartbeatForm';
import { monitorSaved } from '../monitor-detail/useMonitorDetail';
import { emptyHeartbeatForm, heartbeatToForm } from '../heartbeat/heartbeat-form-values';
import { api, data } from '../../app/api';
import { errorMessage, fieldErrors } from '../../app/errors';
import { FIELDS_NEED_A_CHANGE } from '../../app/field-checks';
import { useMinCheckInterval } from '../../app/monitor-limits';
import { useNotices } from '../../app/notices';
import { usePreferences } from '../../app/session';
import { ManagedEditDialog, ManagedMark } from '../../components/ManagedBy';
import { QueryState } from '../../components/QueryState';
import { usePageTitle } from '../../components/usePageTitle';
import { DnsFields } from './DnsFormFields';
import { CheckFields, ConnectionFields, DeclaredFields, FormActions, OrganiseFields, PingFields, RequestFields, UpWhenFields, type FieldsProps } from './MonitorFormFields';
import { checkMonitorForm, humanFieldMessage } from './monitor-form-checks';
import {
  emptyMonitorForm,
  fieldOfErrorKey,
  formToMonitorBody,
  monitorToForm,
  type FormErrors,
  type MonitorFormValues,
} from './monitor-form-values';

/**
 * Create (`/monitors/new`) or edit (`/monitors/:id/edit`) a monitor; `/monitors/new?type=heartbeat`
 * and a heartbeat's edit page show the heartbeat form (docs/heartbeats.md).
 */
export function MonitorFormPage() {
  const { id } = useParams();
  const [search, setSearch] = useSearchParams();
  const heartbeat = search.get('type') === 'heartbeat';
  const monitorId = id === undefined ? undefined : Number(id);
  usePageTitle(monitorId ? 'Edit monitor' : 'Add monitor');
  const preferences = usePreferences();
  const monitor = useQuery({
    queryKey: ['monitor', monitorId],
    queryFn: async () => (await data(api.get('/api/v1/monitors/{id}', { path: { id: monitorId! } }))).data,
    enabled: monitorId !== undefined,
  });
  if (monitorId === undefined) {
    // Under the form's title, which names the kind chosen ("Add monitor", "Add heartbeat").
    const kind = (
      <div className="row-wrap kind-choice" role="group" aria-label="Kind of monitor">
        <button type="button" className={`button${heartbeat ? '' : ' primary'}`} aria-pressed={!heartbeat} onClick={() => setSearch({})}>
          A URL or port we check
        </button>
        <button type="button" className={`button${heartbeat ? ' primary' : ''}`} aria-pressed={heartbeat} onClick={() => setSearch({ type: 'heartbeat' })}>
          A heartbeat your job pings
        </button>
      </div>
    );
    return heartbeat ? (
      <HeartbeatForm initial={emptyHeartbeatForm()} kind={kind} />
    ) : (
      <QueryState query={preferences} what="your defaults">
        {(p) => <MonitorForm initial={emptyMonitorForm(p)} kind={kind} />}
      </QueryState>
    );
  }
  return (
    <QueryState query={monitor} what="the monitor">
      {(m) => (
        <>
          <ManagedEditGate m={m} />
          {m.type === 'heartbeat' ? <HeartbeatForm initial={heartbeatToForm(m)} monitorId={m.id} /> : <MonitorForm initial={monitorToForm(m)} monitorId={m.id} />}
        </>
      )}
    </QueryState>
  );
}

/**
 * A monitor declared in uptime.yaml (`managed_by: "config"`) says so above its edit form, and the
 * form asks first when it opens, whichever way it was reached (the Edit button or the address):
 * a change made here is drift that the next `uptime plan` shows and `uptime apply` undoes
 * (docs/config-as-code.md). Cancel goes back to the monitor's page, changing nothing. The form
 * sends neither `key` nor `managed_by` (src/pages/monitor-form/monitor-form-values.ts), so a
 * save keeps both.
 */
function ManagedEditGate({ m }: { m: { id: number; name: string; key: string | null; managed_by: 'config' | null } }) {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(m.managed_by === 'config');
  if (m.managed_by !== 'config') return null;
  return (
    <>
      <p className="info-box">
        <ManagedMark resource={m} /> Changes made here show as drift in the next <span className="mono">uptime plan</span>.
      </p>
      {asking && <ManagedEditDialog name={m.name} resource={m} onContinue={() => setAsking(false)} onCancel={() => navigate(`/monitors/${m.id}`)} />}
    </>
  );
}

function MonitorForm({ initial, monitorId, kind }: { initial: MonitorFormValues; monitorId?: number; kind?: ReactNode }) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const errorBox = useRef<HTMLDivElement>(null);
  // A refused save brings the summary into view and to the screen reader's attention.
  useEffect(() => {
    if (formError) errorBox.current?.focus();
  }, [formError, errors]);
  const set = <K extends keyof MonitorFormValues>(key: K, value: MonitorFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  const viewer = useViewerReason();
  const minCheckInterval = useMinCheckInterval();
  const save = useSaveMonitor(monitorId, (refused) => {
    setErrors(refused.errors);
    setFormError(refused.message);
  });

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    const { body, errors: shaped } = formToMonitorBody(values, monitorId === undefined ? 'create' : 'update');
    // Every problem at once, before anything is sent: the declared bounds and formats first (in
    // words), then what the mapping to the body found in fields they do not cover.
    const local: FormErrors = { ...shaped, ...checkMonitorForm(values, { minCheckInterval }) };
    setErrors(local);
    if (Object.keys(local).length > 0) {
      setFormError(FIELDS_NEED_A_CHANGE);
      return;
    }
    setFormError(null);
    save.mutate(body);
  };

  const field = (name: string) => ({ errors: errors[name], name });
  const fieldsProps: FieldsProps = { values, set, field, errors, minCheckInterval };

  return (
    <form className="monitor-form" noValidate onSubmit={onSubmit} aria-labelledby="form-title">
      <div className="page-head">
        <h1 id="form-title">{monitorId === undefined ? 'Add monitor' : `Edit ${initial.name}`}</h1>
      </div>
      {kind}
      {formError && (
        <div className="error-box" role="alert" tabIndex={-1} ref={errorBox}>
          {formError}
        </div>
      )}
      <CheckFields {...fieldsProps} />
      <RequestFields {...fieldsProps} />
      <ConnectionFields {...fieldsProps} />
      <DnsFields {...fieldsProps} />
      <PingFields {...fieldsProps} />
      <UpWhenFields {...fieldsProps} />
      <DeclaredFields {...fieldsProps} />
      <OrganiseFields {...fieldsProps} />
      <FormActions reasonId="monitor-form-reason" viewer={viewer} busy={save.isPending} monitorId={monitorId} />
    </form>
  );
}

/**
 * Creates (no `monitorId`) or updates the monitor, then opens its page. A refused save gives
 * `onRefused` the API's messages by form field, and the summary for the top of the form: the
 * API's message when some message has no field to stand by.
 */
function useSaveMonitor(monitorId: number | undefined, onRefused: (refused: { errors: FormErrors; message: string }) => void) {
  const navigate = useNavigate();
  const notices = useNotices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReturnType<typeof formToMonitorBody>['body']) =>
      monitorId === undefined
        ? (await data(api.post('/api/v1/monitors', { body }))).data
        : (await data(api.patch('/api/v1/monitors/{id}', { path: { id: monitorId }, body }))).data,
    onSuccess: (m) => {
      notices.success(monitorId === undefined ? `Monitor "${m.name}" added` : 'Monitor saved');
      monitorSaved(queryClient, m.id);
      void queryClient.invalidateQueries({ queryKey: ['monitors'] });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      navigate(`/monitors/${m.id}`);
    },
    onError: (err) => {
      const byKey = fieldErrors(err);
      const byField: FormErrors = {};
      // In the form's own words, next to the field it belongs to.
      for (const [key, messages] of Object.entries(byKey)) {
        const f = fieldOfErrorKey(key);
        (byField[f] ??= []).push(...messages.map((m) => humanFieldMessage(f, m)));
      }
      const unplaced = Object.keys(byField).filter((f) => !FIELDS.has(f));
      // The summary at the top of the form says it, and takes the focus: no second message.
      onRefused({
        errors: byField,
        message:
          Object.keys(byField).length === 0 || unplaced.length > 0
            ? errorMessage(err)
            : FIELDS_NEED_A_CHANGE,
      });
    },
  });
}

/** The form's fields by API name: an API error for one of them shows next to it. */
const FIELDS = new Set([
  'name',
  'url',
  'method',
  'check_interval',
  'timeout',
  'retry_count',
  'response_time_threshold',
  'recovery_threshold',
  'headers',
  'body',
  'expected_status',
  'expected_content',
  'excluded_content',
  'json_path',
  'expected_json_value',
  'follow_redirects',
  'verify_ssl',
  'tags',
  'locations',
]);
