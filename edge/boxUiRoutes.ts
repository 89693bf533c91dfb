import type { BoxRoute } from './server';
import type { BoxAccess } from './boxUiAccess';
import { BOX_UI_PAGE, BOX_UI_UNCONFIGURED_PAGE } from './boxUiPage';
import { boxUiScript } from './boxUiScript';
import { BOX_UI_STYLE } from './boxUiStyle';

export const UI_PATH = '/ui';
export const UI_SCRIPT_PATH = '/ui/app.js';
export const UI_STYLE_PATH = '/ui/app.css';
export const UI_LOGIN_PATH = '/ui/login';
export const UI_LOGOUT_PATH = '/ui/logout';
export const UI_SESSION_PATH = '/ui/session';

/** Scripts and styles from the agent only; no framing, no referrer leaves the box. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The operator's web UI on the box interface: one page (edge/boxUiPage.ts) that reads the status
 * routes and calls the consent and re-snapshot routes with the session cookie set at sign-in.
 * Without a UI password the page is refused and says how to set one.
 */
export function boxUiRoutes(access: BoxAccess): Record<string, BoxRoute> {
  const asset = (text: () => string, type: string): BoxRoute => ({
    method: 'GET',
    public: true,
    handle: () => Promise.resolve({ status: 200, text: text(), headers: { ...PAGE_HEADERS, 'content-type': type } }),
  });
  return {
    '': { method: 'GET', public: true, handle: () => Promise.resolve({ status: 303, text: '', headers: { location: UI_PATH } }) },
    [UI_PATH]: {
      method: 'GET',
      public: true,
      handle: () =>
        Promise.resolve(
          access.configured
            ? { status: 200, text: BOX_UI_PAGE, headers: { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8' } }
            : { status: 503, text: BOX_UI_UNCONFIGURED_PAGE, headers: { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8' } },
        ),
    },
    [UI_SCRIPT_PATH]: asset(boxUiScript, 'text/javascript; charset=utf-8'),
    [UI_STYLE_PATH]: asset(() => BOX_UI_STYLE, 'text/css; charset=utf-8'),
    [UI_LOGIN_PATH]: {
      method: 'POST',
      public: true,
      async handle({ body, facts }) {
        const password = typeof body === 'object' && body !== null ? (body as { password?: unknown }).password : undefined;
        const outcome = await access.signIn(password, facts);
        if (!outcome.ok) return outcome.refusal;
        return { status: 204, text: '', headers: { 'set-cookie': outcome.cookie } };
      },
    },
    [UI_LOGOUT_PATH]: {
      method: 'POST',
      handle: ({ facts }) => Promise.resolve({ status: 204, text: '', headers: { 'set-cookie': access.signOut(facts) } }),
    },
    [UI_SESSION_PATH]: { method: 'GET', handle: () => Promise.resolve({ status: 200, body: { signedIn: true } }) },
  };
}
