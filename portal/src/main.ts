import { startAuthSession, type AuthSession } from '../../web/signin/session';
import { ApiError, fetchSession } from './api';
import { notificationBell } from './bell';
import { h, replace } from './dom';
import { initLanguage, language, setLanguage, t, type Language } from './i18n';
import { clubPage } from './pages/club';
import { costsPage } from './pages/costs';
import { diagnosticsPage } from './pages/diagnostics';
import { overviewPage } from './pages/overview';
import { signInPage } from './pages/signIn';
import { setAuthSession } from './session';
import type { Capability, Session } from './types';
import { problemBox } from './ui';
import { capabilityName } from './words';

/**
 * The admin portal: sign in (web/signin: code + PKCE at the OpenID provider, or the developer
 * token paste), then the pages the session's capabilities
 * allow (GET /api/me decides; the API enforces the same rules on every call). Routes are
 * hash-based (`#/costs`), so the server only ever serves index.html and its assets.
 */
interface Page {
  path: string;
  label: () => string;
  /** The capabilities of which the session needs one (none: every session). */
  capabilities?: Capability[];
  /** A page per item (`#/clubs/<id>`): the path is a prefix, the rest names the item; not in the navigation. */
  item?: true;
  render: (main: HTMLElement, session: Session, item: string) => void | Promise<void>;
}

const PAGES: Page[] = [
  { path: '/', label: () => t('nav.overview'), render: overviewPage },
  { path: '/costs', label: () => t('nav.costs'), capabilities: ['costs.read'], render: (main) => costsPage(main) },
  {
    path: '/diagnostics',
    label: () => t('nav.diagnostics'),
    capabilities: ['diagnostics.read'],
    render: (main, session) => diagnosticsPage(main, session.capabilities),
  },
  {
    path: '/clubs/',
    label: () => t('nav.club'),
    capabilities: ['diagnostics.read', 'clubs.manage'],
    item: true,
    render: (main, session, clubId) => clubPage(main, session, clubId),
  },
];

const root = document.getElementById('app') as HTMLElement;
let session: Session | undefined;
let auth: AuthSession | undefined;
/** A sign-in that failed (callback or start-up), shown once on the sign-in page. */
let signInFailure: unknown;
let stopBell: (() => void) | undefined;
let main: HTMLElement | undefined;
let nav: HTMLElement | undefined;

const currentPath = () => (location.hash.startsWith('#/') ? location.hash.slice(1) : '/');
const allowed = (page: Page) => !page.capabilities || page.capabilities.some((capability) => session?.capabilities.includes(capability));

/** The page a path opens and, for an item page, the item it names. */
function pageOf(path: string): { page: Page; item: string } | undefined {
  for (const page of PAGES) {
    if (!page.item && page.path === path) return { page, item: '' };
    if (page.item && path.startsWith(page.path) && path.length > page.path.length) {
      try {
        return { page, item: decodeURIComponent(path.slice(page.path.length)) };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function languageSwitch(): HTMLElement {
  const select = h(
    'select',
    { id: 'language', 'data-testid': 'language' },
    h('option', { value: 'de', lang: 'de' }, 'Deutsch'),
    h('option', { value: 'en', lang: 'en' }, 'English'),
  );
  select.value = language();
  select.addEventListener('change', () => {
    setLanguage(select.value as Language);
    renderShell(undefined, false);
    document.getElementById('language')?.focus();
  });
  return h('div', { class: 'language' }, h('label', { for: 'language' }, t('nav.language')), select);
}

/** Draws the header and the page; `moveFocus` puts focus on the page heading (not on first load). */
function renderShell(notice?: string, moveFocus = true): void {
  stopBell?.();
  stopBell = undefined;
  document.title = t('app.title');
  const skip = document.querySelector('.skip-link');
  if (skip) skip.textContent = t('app.skip');
  main = h('main', { id: 'main', tabindex: -1 });
  if (!session) {
    nav = undefined;
    replace(
      root,
      h('header', { class: 'top' }, h('span', { class: 'brand' }, t('app.title')), h('div', { class: 'tools' }, languageSwitch())),
      main,
    );
    const error = signInFailure;
    signInFailure = undefined;
    signInPage(main, {
      auth,
      notice,
      error,
      signedIn: (signedIn) => {
        session = signedIn;
        renderShell();
      },
    });
    if (moveFocus) main.querySelector<HTMLElement>('h1')?.focus();
    return;
  }
  const bell = notificationBell();
  stopBell = () => bell.stop();
  nav = h('nav', { 'aria-label': t('nav.label') });
  const signOut = h('button', { type: 'button', class: 'button button-secondary', 'data-testid': 'sign-out' }, t('nav.signOut'));
  // The session's onSignedOut listener draws the sign-in page; then the provider's sign-out page follows.
  signOut.addEventListener('click', () => void auth?.signOut());
  replace(
    root,
    h(
      'header',
      { class: 'top' },
      h('a', { class: 'brand', href: '#/' }, t('app.title')),
      nav,
      h(
        'div',
        { class: 'tools' },
        languageSwitch(),
        bell.element,
        h('span', { class: 'who muted small', 'data-testid': 'who' }, auth?.user()?.name ?? session.sub),
        signOut,
      ),
    ),
    main,
  );
  renderRoute(moveFocus);
}

function renderRoute(moveFocus = true): void {
  if (!session || !main || !nav) return;
  const path = currentPath();
  replace(
    nav,
    h(
      'ul',
      {},
      PAGES.filter((page) => allowed(page) && !page.item).map((page) =>
        h(
          'li',
          {},
          h('a', { href: `#${page.path}`, 'aria-current': page.path === path ? 'page' : false, 'data-nav': page.path }, page.label()),
        ),
      ),
    ),
  );
  main.replaceChildren();
  const found = pageOf(path);
  const page = found?.page;
  if (!page) {
    main.append(h('h1', { tabindex: -1 }, t('common.notFound')));
  } else if (!allowed(page)) {
    main.append(
      h('h1', { tabindex: -1 }, page.label()),
      h(
        'div',
        { class: 'alert alert-warning', role: 'alert' },
        h('p', {}, t('common.noAccess', { capability: (page.capabilities ?? []).map(capabilityName).join(' / ') })),
      ),
    );
  } else {
    const rendering = page.render(main, session, found.item);
    if (rendering) void rendering.catch((error: unknown) => main?.append(problemBox(page.label(), error)));
  }
  if (moveFocus) main.querySelector<HTMLElement>('h1')?.focus();
}

async function start(): Promise<void> {
  initLanguage();
  document.querySelector('.skip-link')?.addEventListener('click', (event) => {
    event.preventDefault();
    main?.focus();
  });
  window.addEventListener('hashchange', () => {
    if (location.hash === '' || location.hash.startsWith('#/')) renderRoute();
  });
  auth = await openAuthSession();
  if (auth) setAuthSession(auth);
  auth?.onSignedOut((reason) => {
    session = undefined;
    renderShell(reason === 'expired' ? t('signin.expired') : t('signin.signedOut'));
  });
  let notice: string | undefined;
  if (auth?.user()) {
    try {
      session = await fetchSession();
    } catch (error) {
      // A 401 has ended the session already (its listener drew the sign-in page).
      if (!(error instanceof ApiError && error.status === 401)) notice = (error as Error).message;
    }
  }
  if (!session && main?.querySelector('#signin-title')) return;
  renderShell(notice, false);
}

/**
 * The tab's sign-in. A failed callback (state mismatch, no code, provider down) is kept to show on
 * the sign-in page; the callback parameters are gone from the URL by then, so the second start
 * restores a signed-out session.
 */
async function openAuthSession(): Promise<AuthSession | undefined> {
  const options = { client: 'portal', basePath: '/portal/' } as const;
  try {
    return await startAuthSession(options);
  } catch (error) {
    signInFailure = error;
    return startAuthSession(options).catch(() => undefined);
  }
}

void start();
