import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { LANGUAGES, type Language } from '../../web/kit/language';
import type { AuthSession } from '../../web/signin/session';
import { createApi } from './api';
import { Bell } from './Bell';
import { language, loadTexts, setLanguage, t } from './i18n';
import { hashOf, NAV_SCREENS, parseRoute, type Route } from './routes';
import { Challenges } from './screens/Challenges';
import { Club, Clubs } from './screens/Club';
import { ConfirmEmail } from './screens/ConfirmEmail';
import { Inbox } from './screens/Inbox';
import { Join } from './screens/Join';
import { Leaderboard } from './screens/Leaderboard';
import { Member } from './screens/Member';
import { Profile } from './screens/Profile';
import { Settings } from './screens/Settings';
import { ShooterLinkScreen } from './screens/ShooterLink';
import { SignIn } from './screens/SignIn';
import { AppContext } from './ui';
import { releasePushOnSignOut } from './webPush';

const LANGUAGE_KEY = 'app.language';

type SessionState = { kind: 'signed-in' } | { kind: 'signed-out'; reason: 'signed-out' | 'expired' | 'start' };

function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function App(props: { session: AuthSession; initialLanguage: Language; signInFailure?: string }) {
  const { session } = props;
  const [lang, setLang] = useState<Language>(props.initialLanguage);
  setLanguage(lang);
  const [state, setState] = useState<SessionState>(() =>
    session.user() ? { kind: 'signed-in' } : { kind: 'signed-out', reason: 'start' },
  );
  const [bellRound, setBellRound] = useState(0);
  const route = useHashRoute();
  const api = useMemo(() => createApi(session, () => setState({ kind: 'signed-out', reason: 'expired' })), [session]);

  useEffect(() => {
    session.onSignedOut((reason) => setState({ kind: 'signed-out', reason }));
  }, [session]);
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = t('app.title');
  }, [lang]);

  // After navigating, focus moves to the new screen's heading, so keyboard and screen-reader users start there.
  const firstRender = useRef(true);
  // A filter of the challenges is part of the hash too, but the member stays in the control they changed.
  const routeKey = route.screen === 'challenges' ? hashOf({ screen: 'challenges', tab: route.tab }) : hashOf(route);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    document.getElementById('page-title')?.focus();
  }, [routeKey, state.kind]);

  const changeLanguage = (next: Language) =>
    void loadTexts(next).then(() => {
      localStorage.setItem(LANGUAGE_KEY, next);
      setLanguage(next);
      setLang(next);
    });
  const user = session.user();
  const signOut = () => releasePushOnSignOut(api).finally(() => session.signOut());

  return (
    <>
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('app.skip')}
      </a>
      <header class="top">
        <div class="top-row">
          <a class="brand" href={hashOf({ screen: 'challenges', tab: 'global' })}>
            {t('app.title')}
          </a>
          <div class="top-tools">
            <label class="language">
              <span class="visually-hidden">{t('language.label')}</span>
              <select
                aria-label={t('language.label')}
                value={language()}
                onChange={(event) => changeLanguage(event.currentTarget.value as Language)}
              >
                {LANGUAGES.map((code) => (
                  <option value={code} key={code}>
                    {code === 'de' ? 'Deutsch' : 'English'}
                  </option>
                ))}
              </select>
            </label>
            {state.kind === 'signed-in' ? <Bell api={api} round={bellRound} /> : null}
            {state.kind === 'signed-in' ? (
              <button type="button" class="button button-small button-secondary" onClick={() => void signOut()}>
                {t('session.signOut')}
              </button>
            ) : null}
          </div>
        </div>
        {state.kind === 'signed-in' ? (
          <nav class="main-nav" aria-label={t('nav.label')}>
            {NAV_SCREENS.map((screen) => (
              <a
                key={screen}
                href={screen === 'challenges' ? hashOf({ screen, tab: 'global' }) : hashOf({ screen })}
                aria-current={
                  route.screen === screen ||
                  (screen === 'challenges' && route.screen === 'leaderboard') ||
                  (screen === 'clubs' && route.screen === 'club')
                    ? 'page'
                    : undefined
                }
              >
                {t(`nav.${screen}`)}
              </a>
            ))}
          </nav>
        ) : null}
      </header>
      <main id="main" tabIndex={-1}>
        {state.kind === 'signed-in' && user ? (
          <AppContext.Provider value={{ api, userId: user.sub, refreshBell: () => setBellRound((round) => round + 1), signOut }}>
            <Screen route={route} />
          </AppContext.Provider>
        ) : (
          <SignIn
            session={session}
            reason={state.kind === 'signed-out' ? state.reason : 'start'}
            failure={state.kind === 'signed-out' && state.reason === 'start' ? props.signInFailure : undefined}
            onSignedIn={() => setState({ kind: 'signed-in' })}
          />
        )}
      </main>
    </>
  );
}

function Screen(props: { route: Route }) {
  const { route } = props;
  switch (route.screen) {
    case 'challenges':
      return <Challenges route={route} key={route.tab} />;
    case 'leaderboard':
      return <Leaderboard challengeId={route.challengeId} board={route.board} />;
    case 'profile':
      return <Profile />;
    case 'inbox':
      return <Inbox />;
    case 'settings':
      return <Settings />;
    case 'shooter':
      return <ShooterLinkScreen />;
    case 'join':
      return <Join code={route.code} />;
    case 'confirm-email':
      return <ConfirmEmail token={route.token} key={route.token} />;
    case 'clubs':
      return <Clubs />;
    case 'club':
      return <Club clubId={route.clubId} key={route.clubId} />;
    case 'member':
      return <Member userId={route.userId} key={route.userId} />;
  }
}

export { LANGUAGE_KEY };
