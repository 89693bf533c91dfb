import { render } from 'preact';
import { startAuthSession } from '../../web/signin/session';
import { App, LANGUAGE_KEY } from './App';
import { browserLanguage, LANGUAGES, type Language } from './language';

const stored = localStorage.getItem(LANGUAGE_KEY);
const initialLanguage: Language = (LANGUAGES as readonly string[]).includes(stored ?? '')
  ? (stored as Language)
  : browserLanguage(navigator.languages);
const root = document.getElementById('app');
if (root) {
  const session = await startAuthSession({ client: 'app', basePath: '/app/' });
  root.replaceChildren();
  render(<App session={session} initialLanguage={initialLanguage} />, root);
}
