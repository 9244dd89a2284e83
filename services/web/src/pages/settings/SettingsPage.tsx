import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { refusalsByField } from '../../app/field-checks';
import { useMinCheckInterval } from '../../app/monitor-limits';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { keys, usePreferences, useUser } from '../../app/session';
import { applyTheme, type Theme } from '../../app/theme';
import { CheckField, TextField } from '../../components/FormFields';
import { FormSummary } from '../../components/FormSummary';
import { useFormProblems } from '../../components/useFormProblems';
import { checkPreferencesForm, intervalBounds, PREFERENCE_FIELDS, TIMEOUT_BOUNDS } from './preferences-form-checks';
import { QueryState } from '../../components/QueryState';
import { TimeZoneField } from '../../components/TimeZoneField';
import { usePageTitle } from '../../components/usePageTitle';
import { TokensCard } from './TokensCard';

export function SettingsPage() {
  usePageTitle('Settings');
  const preferences = usePreferences();
  const user = useUser();
  return (
    <>
      <div className="page-head">
        <h1>Settings</h1>
      </div>
      <section className="card" aria-labelledby="account-title">
        <h2 id="account-title">Account</h2>
        {user.data && (
          <p>
            Signed in as <span className="strong">{user.data.email}</span>
            {user.data.provider ? ` through ${user.data.provider === 'github' ? 'GitHub' : 'Google'}` : ''}.
          </p>
        )}
        <p className="muted small">
          Sign out with the button at the top right: it ends the session and forgets everything this page loaded.
        </p>
      </section>
      <QueryState query={preferences} what="preferences">
        {(p) => <PreferencesForm initial={p} />}
      </QueryState>
      <TokensCard />
    </>
  );
}

const THEMES: { value: Theme; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'System' },
];

/** The PUT body of the form (the theme is saved on its own, when picked). */
const preferencesBody = (values: {
  timezone: string;
  email_notifications: boolean;
  interval: string;
  timeout: string;
}): Schema<'PreferencesUpdate'> => ({
  timezone: values.timezone,
  email_notifications: values.email_notifications,
  default_check_interval: Number(values.interval),
  default_timeout: Number(values.timeout),
});

function PreferencesForm({ initial }: { initial: Schema<'Preferences'> }) {
  const [values, setValues] = useState({
    ...initial,
    interval: String(initial.default_check_interval),
    timeout: String(initial.default_timeout),
  });
  const notices = useNotices();
  const { save, pickTheme } = usePreferencesSave((theme) => setValues((v) => ({ ...v, theme })));
  const problems = useFormProblems();
  const minCheckInterval = useMinCheckInterval();
  const interval = intervalBounds(minCheckInterval);
  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!problems.checked(checkPreferencesForm(values, minCheckInterval))) return;
    save.mutate(preferencesBody(values), {
      onSuccess: () => notices.success('Preferences saved'),
      onError: (err) =>
        problems.refused(err, refusalsByField(err, { unitOf: (field) => (field === 'timezone' || field === 'email_notifications' ? '' : 'seconds') }), (field) => PREFERENCE_FIELDS.has(field)),
    });
  };
  const { errors } = problems;
  const fmt = useFormat();
  return (
    <section className="card" aria-labelledby="prefs-title">
      <h2 id="prefs-title">Preferences</h2>
      <ThemePicker theme={values.theme} onPick={pickTheme} />
      <FormSummary summary={problems.summary} summaryRef={problems.summaryRef} />
      <form onSubmit={onSubmit} noValidate className="grid-2" aria-label="Preferences">
        <TimeZoneField
          id="pref-timezone"
          hint={`Every time in the app is shown in it. Now: ${fmt.dateTime(new Date().toISOString())}`}
          initial={initial.timezone}
          value={values.timezone}
          onChange={(timezone) => setValues({ ...values, timezone })}
          errors={errors.timezone}
        />
        <div className="field">
          <span className="label-like">Email</span>
          <CheckField
            label="Email me about downtime"
            checked={values.email_notifications}
            onChange={(checked) => setValues({ ...values, email_notifications: checked })}
          />
        </div>
        <TextField
          id="pref-interval"
          label="Default check interval"
          inputMode="numeric"
          value={values.interval}
          onChange={(text) => setValues({ ...values, interval: text })}
          errors={errors.default_check_interval}
          hint={`seconds between checks of a new monitor, ${interval.min} to ${interval.max}`}
        />
        <TextField
          id="pref-timeout"
          label="Default timeout"
          inputMode="numeric"
          value={values.timeout}
          onChange={(timeout) => setValues({ ...values, timeout })}
          errors={errors.default_timeout}
          hint={`seconds, ${TIMEOUT_BOUNDS.min} to ${TIMEOUT_BOUNDS.max}`}
        />
        <div className="form-actions span-2">
          <button type="submit" className="button primary" disabled={save.isPending}>
            Save
          </button>
        </div>
      </form>
    </section>
  );
}

/** The theme as three radio buttons: picking one applies it at once. */
function ThemePicker({ theme, onPick }: { theme: Theme; onPick: (theme: Theme) => void }) {
  return (
    <fieldset className="theme-picker">
      <legend>Theme</legend>
      {THEMES.map((t) => (
        <label key={t.value} className="check">
          <input type="radio" name="theme" value={t.value} checked={theme === t.value} onChange={() => onPick(t.value)} /> {t.label}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Saving preferences. A theme applies the moment it is picked (`onTheme` shows it picked) and is
 * saved in the background; a refused save puts the saved one back.
 */
function usePreferencesSave(onTheme: (theme: Theme) => void) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  const save = useMutation({
    mutationFn: async (body: Schema<'PreferencesUpdate'>) => (await data(api.put('/api/v1/preferences', { body }))).data,
    onSuccess: (p) => {
      queryClient.setQueryData(keys.preferences, p);
      applyTheme(p.theme);
    },
  });

  // The theme applies the moment it is picked, and is saved in the background.
  const pickTheme = (theme: Theme) => {
    onTheme(theme);
    applyTheme(theme);
    save.mutate(
      { theme },
      {
        onSuccess: () => notices.success(`Theme set to ${theme}`),
        onError: (err) => {
          applyTheme(queryClient.getQueryData<Schema<'Preferences'>>(keys.preferences)?.theme ?? 'system');
          notices.error(errorMessage(err));
        },
      },
    );
  };
  return { save, pickTheme };
}
