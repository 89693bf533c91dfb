import { useEffect, useState } from 'preact/hooks';
import { t, type TextKey } from '../i18n';
import { settingsSections, withValue, type SettingsField } from '../settingsModel';
import type { NotificationPreferences, SharingPreferences, UserSettings } from '../types';
import { ErrorBox, LoadState, Screen, Toggle, useAction, useApp, useLoad } from '../ui';
import type { Contact } from '../contracts';
import { ContactEmail } from './ContactEmail';
import { DeleteAccount } from './DeleteAccount';
import { PushDevice } from './PushDevice';

const SUMMARY_MODES = ['off', 'daily', 'weekly', 'monthly'] as const;

/**
 * Notification settings: the contact email (confirmed before use); every key of the v1
 * `notifications` block, saved as the whole block (PUT /api/user/settings, the canonical form),
 * its email switches disabled until an address is confirmed; push on this device (its browser
 * subscription); the sharing defaults new participations take; and deleting the account.
 */
export function Settings() {
  const { api } = useApp();
  const { loaded, reload, set } = useLoad(() => api.get<UserSettings>('/api/user/settings'), []);
  const contact = useLoad(() => api.get<Contact>('/api/user/contact'), []);
  // Email can be delivered once an address is confirmed (a service that does not say so yet: as before, any stored address).
  const emailReady =
    contact.loaded.state !== 'ready' || (contact.loaded.data.email !== null && contact.loaded.data.emailConfirmed !== false);
  return (
    <Screen title={t('settings.title')}>
      <LoadState loaded={contact.loaded} onRetry={contact.reload} />
      {contact.loaded.state === 'ready' ? <ContactEmail contact={contact.loaded.data} onChange={contact.set} /> : null}
      <LoadState loaded={loaded} onRetry={reload} />
      {loaded.state === 'ready' ? <NotificationForm settings={loaded.data} onSaved={set} emailReady={emailReady} /> : null}
      <PushDevice />
      <SharingDefaults />
      <DeleteAccount />
    </Screen>
  );
}

function NotificationForm(props: { settings: UserSettings; onSaved: (settings: UserSettings) => void; emailReady: boolean }) {
  const { api } = useApp();
  const [block, setBlock] = useState<NotificationPreferences>(props.settings.notifications);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const change = (path: string[], value: boolean | string | null) => {
    setSaved(false);
    setBlock(withValue(block, path, value));
  };
  return (
    <form
      class="settings"
      data-testid="settings-form"
      onSubmit={action.submit(async () => {
        const answer = await api.send<UserSettings>('PUT', '/api/user/settings', { notifications: block });
        setBlock(answer.notifications);
        props.onSaved(answer);
        setSaved(true);
      })}
    >
      {props.emailReady ? null : (
        <p class="notice" id="email-unavailable" data-testid="email-unavailable">
          {t('contact.emailOff')}
        </p>
      )}
      {settingsSections(block).map((section) => (
        <fieldset class="card" key={section.name}>
          <legend>{t(`settings.section.${section.name}` as TextKey)}</legend>
          {section.fields.map((field) => (
            <Field field={field} onChange={change} key={field.path.join('.')} off={!props.emailReady && byEmail(field.path)} />
          ))}
        </fieldset>
      ))}
      <div class="row">
        <button type="submit" class="button" disabled={action.busy}>
          {t('settings.save')}
        </button>
        <p role="status" class="small" data-testid="settings-status">
          {saved ? t('settings.saved') : ''}
        </p>
      </div>
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </form>
  );
}

/** A switch that sends email: the email section's and the reminders' "by email". */
function byEmail(path: string[]): boolean {
  return path[0] === 'email' || path[path.length - 1] === 'viaEmail';
}

/** One setting; `off`: an email switch while no address is confirmed, shown off and disabled, saying why. */
function Field(props: { field: SettingsField; off?: boolean; onChange: (path: string[], value: boolean | string | null) => void }) {
  const { field } = props;
  const label = t(`settings.${field.path.join('.')}` as TextKey);
  const name = field.path.join('.');
  if (field.kind === 'flag') {
    return (
      <Toggle
        label={label}
        checked={field.value === true && !props.off}
        disabled={props.off}
        describedBy={props.off ? 'email-unavailable' : undefined}
        testId={name}
        onChange={(value) => props.onChange(field.path, value)}
      />
    );
  }
  if (field.kind === 'mode') {
    return (
      <label class="field">
        <span>{label}</span>
        <select value={String(field.value)} data-testid={name} onChange={(event) => props.onChange(field.path, event.currentTarget.value)}>
          {SUMMARY_MODES.map((mode) => (
            <option value={mode} key={mode}>
              {t(`settings.summary.mode.${mode}`)}
            </option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <label class="field">
      <span>{label}</span>
      <input
        type="time"
        value={typeof field.value === 'string' ? field.value : ''}
        data-testid={name}
        onChange={(event) => props.onChange(field.path, event.currentTarget.value === '' ? null : event.currentTarget.value)}
      />
    </label>
  );
}

function SharingDefaults() {
  const { api } = useApp();
  const { loaded, reload } = useLoad(() => api.get<SharingPreferences>('/api/challenges/sharing-preferences'), []);
  const [value, setValue] = useState<SharingPreferences | undefined>(undefined);
  const action = useAction();
  useEffect(() => {
    if (loaded.state === 'ready') setValue(loaded.data);
  }, [loaded]);
  const change = (next: SharingPreferences) =>
    action.run(async () => setValue(await api.send<SharingPreferences>('PUT', '/api/challenges/sharing-preferences', next)));
  return (
    <fieldset class="card" data-testid="sharing-defaults">
      <legend>{t('settings.sharing')}</legend>
      <p class="small muted">{t('settings.sharingHint')}</p>
      <LoadState loaded={loaded} onRetry={reload} />
      {value ? (
        <>
          <Toggle
            label={t('privacy.club')}
            checked={value.shareWithinClub}
            disabled={action.busy}
            onChange={(shareWithinClub) => void change({ ...value, shareWithinClub })}
          />
          <Toggle
            label={t('privacy.global')}
            checked={value.shareGlobally}
            disabled={action.busy}
            onChange={(shareGlobally) => void change({ ...value, shareGlobally })}
          />
        </>
      ) : null}
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </fieldset>
  );
}
