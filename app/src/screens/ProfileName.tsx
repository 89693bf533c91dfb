import { useState } from 'preact/hooks';
import type { Profile } from '../contracts';
import { t } from '../i18n';
import { Avatar, ErrorBox, LoadedSection, useAction, useApp, useLoad } from '../ui';

/** As long as the service lets a display name be. */
const NAME_MAX = 50;

/**
 * The member's name as others see it (GET/PUT /api/me/profile): taken from the sign-in until the
 * member writes their own, with the initials avatar it makes; without a name, the reader's word for
 * a member as the hint and a neutral avatar.
 */
export function ProfileName() {
  const { api, userId } = useApp();
  const { loaded, reload, set } = useLoad(() => api.get<Profile>('/api/me/profile'), []);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const profile = loaded.state === 'ready' ? loaded.data : undefined;
  return (
    <LoadedSection loaded={loaded} onRetry={reload} name="profile-name" title={t('profile.nameTitle')}>
      {profile ? (
        <form
          class="row"
          onSubmit={action.submit(async () => {
            const answer = await api.send<Profile>('PUT', '/api/me/profile', { displayName: (draft ?? profile.displayName ?? '').trim() });
            set(answer);
            setDraft(undefined);
            setSaved(true);
          })}
        >
          <Avatar person={{ userId, initials: profile.initials }} large />
          <label class="field field-grow">
            <span>{t('profile.name')}</span>
            <input
              value={draft ?? profile.displayName ?? ''}
              placeholder={t('person.unknown')}
              required
              maxLength={NAME_MAX}
              autoComplete="nickname"
              onInput={(event) => {
                setSaved(false);
                setDraft(event.currentTarget.value);
              }}
            />
          </label>
          <button type="submit" class="button" disabled={action.busy}>
            {t('settings.save')}
          </button>
        </form>
      ) : null}
      <p class="small muted" role="status">
        {saved
          ? t('settings.saved')
          : profile && profile.displayName === null
            ? t('profile.noName')
            : profile?.nameFromSignIn
              ? t('profile.nameFromSignIn')
              : ''}
      </p>
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </LoadedSection>
  );
}
