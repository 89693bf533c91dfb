import { render } from 'preact';
import { storedLanguage } from '../../web/kit/language';
import { startAuthSession } from '../../web/signin/session';
import { App, LANGUAGE_KEY } from './App';
import { loadTexts } from './i18n';

const initialLanguage = storedLanguage(LANGUAGE_KEY);
// The texts of the language in use come before the first drawing (each language is a chunk of its own).
const texts = loadTexts(initialLanguage);
const root = document.getElementById('app');
if (root) {
  const options = { client: 'app', basePath: '/app/' } as const;
  // A failed callback (state mismatch, provider refused or down) has cleared the URL by now, so a
  // second start gives the signed-out session the failure is shown on.
  let failure: string | undefined;
  const session = await startAuthSession(options).catch((error: unknown) => {
    failure = error instanceof Error ? error.message : String(error);
    return startAuthSession(options);
  });
  await texts;
  root.replaceChildren();
  render(<App session={session} initialLanguage={initialLanguage} signInFailure={failure} />, root);
}
