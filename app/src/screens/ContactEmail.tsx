import { useState } from 'preact/hooks';
import type { Contact } from '../contracts';
import { t } from '../i18n';
import { ErrorBox, useAction, useApp } from '../ui';

/**
 * Where email goes (PUT /api/user/contact): the sign-in's verified address is offered first and
 * counts at once; any other waits for the link sent to it ("check your inbox"), the confirmed one
 * staying in use meanwhile. Also the language emails and pushes are written in.
 */
export function ContactEmail(props: { contact: Contact; onChange: (contact: Contact) => void }) {
  const { api } = useApp();
  const { contact } = props;
  const [draft, setDraft] = useState('');
  const action = useAction();
  const save = (email: string | null, language = contact.language) =>
    action.run(async () => {
      props.onChange(await api.send<Contact>('PUT', '/api/user/contact', { email, language }));
      setDraft('');
    });
  const offerSignIn = contact.signInEmail && contact.signInEmail !== contact.email;
  // Beside an address in use or offered, the field is for a different one.
  const another = Boolean(offerSignIn || contact.email);
  return (
    <fieldset class="card" data-testid="contact">
      <legend>{t('contact.title')}</legend>
      <p data-testid="contact-state">
        {contact.email && contact.emailConfirmed !== false ? t('contact.current', { email: contact.email }) : t('contact.none')}
      </p>
      {contact.pendingEmail ? (
        <p class="notice" role="status" data-testid="contact-pending">
          {t('contact.pending', { email: contact.pendingEmail })}
        </p>
      ) : null}
      {offerSignIn ? (
        <button type="button" class="button" disabled={action.busy} onClick={() => void save(contact.signInEmail)}>
          {t('contact.useSignIn', { email: contact.signInEmail ?? '' })}
        </button>
      ) : null}
      <form class="row" onSubmit={action.submit(() => save(draft.trim()))}>
        <label class="field field-grow">
          <span>{t(another ? 'contact.other' : 'contact.email')}</span>
          <input
            type="email"
            value={draft}
            required
            maxLength={254}
            autoComplete="email"
            onInput={(event) => setDraft(event.currentTarget.value)}
          />
        </label>
        <button type="submit" class={offerSignIn ? 'button button-secondary' : 'button'} disabled={action.busy}>
          {t('contact.save')}
        </button>
      </form>
      <label class="field">
        <span>{t('contact.language')}</span>
        <select
          value={contact.language}
          disabled={action.busy}
          onChange={(event) => void save(contact.email, event.currentTarget.value as Contact['language'])}
        >
          <option value="de">Deutsch</option>
          <option value="en">English</option>
        </select>
      </label>
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </fieldset>
  );
}
