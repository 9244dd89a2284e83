import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useMemo, useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage, fieldErrors } from '../../app/errors';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { keys, usePreferences, useUser } from '../../app/session';
import { applyTheme, type Theme } from '../../app/theme';
import { FieldError } from '../../components/FieldError';
import { QueryState } from '../../components/QueryState';
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

function PreferencesForm({ initial }: { initial: Schema<'Preferences'> }) {
  const [values, setValues] = useState({
    ...initial,
    interval: String(initial.default_check_interval),
    timeout: String(initial.default_timeout),
  });
  const queryClient = useQueryClient();
  const notices = useNotices();
  const fmt = useFormat();
  const zones = useMemo(() => {
    const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    return all.includes(initial.timezone) ? all : [initial.timezone, ...all];
  }, [initial.timezone]);

  const save = useMutation({
    mutationFn: async (body: Schema<'PreferencesUpdate'>) => (await data(api.put('/api/v1/preferences', { body }))).data,
    onSuccess: (p) => {
      queryClient.setQueryData(keys.preferences, p);
      applyTheme(p.theme);
    },
  });

  // The theme applies the moment it is picked, and is saved in the background.
  const pickTheme = (theme: Theme) => {
    setValues((v) => ({ ...v, theme }));
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

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        timezone: values.timezone,
        email_notifications: values.email_notifications,
        default_check_interval: Number(values.interval),
        default_timeout: Number(values.timeout),
      },
      { onSuccess: () => notices.success('Preferences saved'), onError: (err) => notices.error(errorMessage(err)) },
    );
  };
  const errors = save.error ? fieldErrors(save.error) : {};

  return (
    <section className="card" aria-labelledby="prefs-title">
      <h2 id="prefs-title">Preferences</h2>
      <fieldset className="theme-picker">
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label key={t.value} className="check">
            <input type="radio" name="theme" value={t.value} checked={values.theme === t.value} onChange={() => pickTheme(t.value)} />{' '}
            {t.label}
          </label>
        ))}
      </fieldset>
      <form onSubmit={onSubmit} noValidate className="grid-2">
        <div className="field">
          <label htmlFor="pref-timezone">Time zone</label>
          <select
            id="pref-timezone"
            value={values.timezone}
            onChange={(e) => setValues({ ...values, timezone: e.target.value })}
            aria-describedby="pref-timezone-hint pref-timezone-error"
          >
            {zones.map((z) => (
              <option key={z}>{z}</option>
            ))}
          </select>
          <p className="hint" id="pref-timezone-hint">
            Every time in the app is shown in it. Now: {fmt.dateTime(new Date().toISOString())}
          </p>
          <FieldError id="pref-timezone-error" messages={errors.timezone} />
        </div>
        <div className="field">
          <span className="label-like">Email</span>
          <label className="check">
            <input
              type="checkbox"
              checked={values.email_notifications}
              onChange={(e) => setValues({ ...values, email_notifications: e.target.checked })}
            />{' '}
            Email me about downtime
          </label>
        </div>
        <div className="field">
          <label htmlFor="pref-interval">Default check interval</label>
          <input
            id="pref-interval"
            inputMode="numeric"
            value={values.interval}
            onChange={(e) => setValues({ ...values, interval: e.target.value })}
            aria-describedby="pref-interval-error"
          />
          <FieldError id="pref-interval-error" messages={errors.default_check_interval} />
        </div>
        <div className="field">
          <label htmlFor="pref-timeout">Default timeout</label>
          <input
            id="pref-timeout"
            inputMode="numeric"
            value={values.timeout}
            onChange={(e) => setValues({ ...values, timeout: e.target.value })}
            aria-describedby="pref-timeout-error"
          />
          <FieldError id="pref-timeout-error" messages={errors.default_timeout} />
        </div>
        <div className="form-actions span-2">
          <button type="submit" className="button primary" disabled={save.isPending}>
            Save
          </button>
        </div>
      </form>
    </section>
  );
}
