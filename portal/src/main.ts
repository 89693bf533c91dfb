import { ApiError, fetchSession, whenUnauthorized } from './api';
import { notificationBell } from './bell';
import { h, replace } from './dom';
import { initLanguage, language, setLanguage, t, type Language } from './i18n';
import { costsPage } from './pages/costs';
import { diagnosticsPage } from './pages/diagnostics';
import { overviewPage } from './pages/overview';
import { signInPage } from './pages/signIn';
import { forgetToken, storedToken } from './session';
import type { Capability, Session } from './types';
import { problemBox } from './ui';

/**
 * The admin portal: sign in with a bearer token, then the pages the session's capabilities
 * allow (GET /api/me decides; the API enforces the same rules on every call). Routes are
 * hash-based (`#/costs`), so the server only ever serves index.html and its assets.
 */
interface Page {
  path: string;
  label: () => string;
  capability?: Capability;
  render: (main: HTMLElement, session: Session) => void | Promise<void>;
}

const PAGES: Page[] = [
  { path: '/', label: () => t('nav.overview'), render: overviewPage },
  { path: '/costs', label: () => t('nav.costs'), capability: 'costs.read', render: (main) => costsPage(main) },
  {
    path: '/diagnostics',
    label: () => t('nav.diagnostics'),
    capability: 'diagnostics.read',
    render: (main, session) => diagnosticsPage(main, session.capabilities),
  },
];

const root = document.getElementById('app') as HTMLElement;
let session: Session | undefined;
let stopBell: (() => void) | undefined;
let main: HTMLElement | undefined;
let nav: HTMLElement | undefined;

const currentPath = () => (location.hash.startsWith('#/') ? location.hash.slice(1) : '/');
const allowed = (page: Page) => !page.capability || (session?.capabilities.includes(page.capability) ?? false);

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
    signInPage(main, notice, (signedIn) => {
      session = signedIn;
      renderShell();
    });
    if (moveFocus) main.querySelector<HTMLElement>('h1')?.focus();
    return;
  }
  const bell = notificationBell();
  stopBell = () => bell.stop();
  nav = h('nav', { 'aria-label': t('nav.label') });
  const signOut = h('button', { type: 'button', class: 'button button-secondary', 'data-testid': 'sign-out' }, t('nav.signOut'));
  signOut.addEventListener('click', () => {
    forgetToken();
    session = undefined;
    renderShell();
  });
  replace(
    root,
    h(
      'header',
      { class: 'top' },
      h('a', { class: 'brand', href: '#/' }, t('app.title')),
      nav,
      h('div', { class: 'tools' }, languageSwitch(), bell.element, h('span', { class: 'who muted small' }, session.sub), signOut),
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
      PAGES.filter(allowed).map((page) =>
        h(
          'li',
          {},
          h('a', { href: `#${page.path}`, 'aria-current': page.path === path ? 'page' : false, 'data-nav': page.path }, page.label()),
        ),
      ),
    ),
  );
  main.replaceChildren();
  const page = PAGES.find((candidate) => candidate.path === path);
  if (!page) {
    main.append(h('h1', { tabindex: -1 }, t('common.notFound')));
  } else if (!allowed(page)) {
    main.append(
      h('h1', { tabindex: -1 }, page.label()),
      h('div', { class: 'alert alert-warning', role: 'alert' }, h('p', {}, t('common.noAccess', { capability: page.capability ?? '' }))),
    );
  } else {
    const rendering = page.render(main, session);
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
  whenUnauthorized(() => {
    forgetToken();
    session = undefined;
    renderShell(t('signin.expired'));
  });
  window.addEventListener('hashchange', () => {
    if (location.hash === '' || location.hash.startsWith('#/')) renderRoute();
  });
  const token = storedToken();
  let notice: string | undefined;
  if (token) {
    try {
      session = await fetchSession(token);
    } catch (error) {
      forgetToken();
      notice = error instanceof ApiError && error.status === 401 ? t('signin.expired') : (error as Error).message;
    }
  }
  renderShell(notice, false);
}

void start();
