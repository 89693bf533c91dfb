/**
 * The box UI's browser script (plain DOM, no framework): signs in, shows the agent's state and
 * runs the consent and re-snapshot actions through the box interface's own JSON routes. Data is
 * only ever set as text, never as markup. Bundled into one classic script (edge/boxUiBundle.ts).
 */
import type { BoxState, PushStatus, StepError } from './status';
import { TEXTS, type Language } from './texts';

interface Answer {
  status: number;
  ok: boolean;
  json: unknown;
}
type Row = [key: string, value: string | null | undefined, className?: string];

let stored: string | null = null;
try {
  stored = localStorage.getItem('boxUiLanguage');
} catch {
  stored = null;
}
let lang: Language =
  stored === 'de' || stored === 'en' ? stored : (navigator.language || 'en').toLowerCase().indexOf('de') === 0 ? 'de' : 'en';
let last: BoxState | null = null;

function t(key: string): string {
  return TEXTS[lang][key] || key;
}

/** The page's element with that id, of the type the script uses it as (the page is edge/boxUiPage.ts). */
function $<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function applyLanguage(): void {
  document.documentElement.lang = lang;
  document.title = t('title');
  document.querySelectorAll('[data-t]').forEach((el) => {
    el.textContent = t(el.getAttribute('data-t') ?? '');
  });
  document.querySelectorAll('[data-t-label]').forEach((el) => el.setAttribute('aria-label', t(el.getAttribute('data-t-label') ?? '')));
  document.querySelectorAll('[data-lang]').forEach((el) => el.setAttribute('aria-pressed', String(el.getAttribute('data-lang') === lang)));
  if (last) render(last);
}

function when(iso: string | null | undefined): string {
  if (!iso) return t('none');
  const date = new Date(iso);
  if (isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

function list(id: string, rows: Row[]): void {
  const dl = $(id);
  dl.textContent = '';
  for (const [key, value, className] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = t(key);
    const dd = document.createElement('dd');
    dd.textContent = value === null || value === undefined || value === '' ? t('none') : String(value);
    if (className) dd.className = className;
    dl.appendChild(dt);
    dl.appendChild(dd);
  }
}

function errorText(error: StepError | null | undefined): string | null {
  if (!error) return null;
  return error.message + (error.step ? ' (' + error.step + ')' : '') + (error.at ? ' – ' + when(error.at) : '');
}

/** The class of a value that is good (`state-ok`) or bad (`state-bad`). */
const mark = (good: boolean) => (good ? 'state-ok' : 'state-bad');

function pushRows(status: PushStatus): Row[] {
  return [
    ['enabled', status.enabled ? t('yes') : t('no')],
    ['lastRun', when(status.lastRunAt)],
    ['lastSuccess', when(status.lastSuccessAt)],
    ['lastError', errorText(status.lastError), status.lastError ? 'state-bad' : ''],
    ['nextRun', when(status.nextRunAt)],
  ];
}

/** The header's line naming the club the box publishes for and the box itself. */
function renderIdentity(identity: BoxState['identity']): void {
  if (!identity) return;
  $('identity-club').textContent = identity.clubNumber
    ? t('club') + ' ' + identity.clubNumber + (identity.clubName ? ' – ' + identity.clubName : '')
    : t('clubNotSet');
  $('identity-box').textContent = '· ' + t('box') + ' ' + identity.box;
}

function render(data: BoxState): void {
  renderIdentity(data.identity);
  const c = data.connector;
  if (c && c.enabled !== false) {
    list('consent', [
      ['state', t(c.consent.state), mark(c.consent.state === 'GRANTED')],
      ['by', c.consent.changedBy],
      ['at', when(c.consent.changedAt)],
      ...(c.consent.problem ? [['problem', c.consent.problem, 'state-bad'] satisfies Row] : []),
    ]);
    const action = c.lastAction;
    list('connector', [
      ['gate', c.gate === 'open' ? t('gateOpen') : t('gateClosed'), mark(c.gate === 'open')],
      ['reason', c.reason],
      ['connector', c.connectorName ? c.connectorName + ': ' + (c.connector ? c.connector.state : t('none')) : t('notManaged')],
      ['tasks', (c.tasks || []).map((task) => '#' + task.id + ' ' + task.state).join(', ')],
      ['lastAction', action ? action.name + ' – ' + (action.ok ? t('ok') : t('failed')) + ' – ' + when(action.at) : null],
      ['lastActionError', action && action.error ? errorText(action.error) : null, action && action.error ? 'state-bad' : ''],
      ['observeError', c.observeError ? errorText(c.observeError) : null, c.observeError ? 'state-bad' : ''],
    ]);
    $<HTMLButtonElement>('resnapshot').disabled = !c.managed || c.consent.state !== 'GRANTED';
  }
  if (data.clubMaster) list('clubmaster', pushRows(data.clubMaster));
  if (data.starterlist) list('starterlist', pushRows(data.starterlist));
  if (data.freshness) {
    const f = data.freshness;
    list('freshness', [
      ['lastCheck', when(f.lastCheck && f.lastCheck.checkedAt)],
      ['result', f.lastCheck ? t(f.lastCheck.result) : null, f.lastCheck ? mark(f.lastCheck.result === 'green') : ''],
      ['lastError', f.lastError ? f.lastError.message + ' – ' + when(f.lastError.at) : null, f.lastError ? 'state-bad' : ''],
      ['nextCheck', when(f.nextCheckAt)],
    ]);
  }
}

function say(text: string, failed: boolean): void {
  const message = $('message');
  message.textContent = text;
  message.className = failed ? 'failed' : '';
}

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'same-origin', headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (response.status === 401) {
    showSignIn();
    throw new Error(t('signInFailed'));
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, ok: response.ok, json };
}

function problemOf(answer: Answer): string {
  const json = (answer.json || {}) as { error?: { message?: string }; detail?: string; message?: string };
  if (json.error && json.error.message) return json.error.message;
  return json.detail || json.message || 'HTTP ' + answer.status;
}

const STATUS_PATHS: Record<keyof BoxState, string> = {
  clubMaster: '/api/club-master-sync/status',
  starterlist: '/api/starterlist-sync/status',
  freshness: '/api/freshness/status',
  connector: '/api/connector/status',
  identity: '/api/box/identity',
};

async function load(): Promise<void> {
  const keys = Object.keys(STATUS_PATHS) as (keyof BoxState)[];
  try {
    const answers = await Promise.all(keys.map((key) => call('GET', STATUS_PATHS[key])));
    const data: Record<string, unknown> = {};
    keys.forEach((key, i) => {
      const answer = answers[i];
      if (answer?.ok) data[key] = answer.json;
    });
    last = data;
    render(last);
    showApp();
  } catch (error) {
    if (!$('app').hidden) say(t('loadFailed') + (error as Error).message, true);
  }
}

function showSignIn(): void {
  $('app').hidden = true;
  $('signin').hidden = false;
  $('password').focus();
}

function showApp(): void {
  if ($('app').hidden) {
    $('signin').hidden = true;
    $('app').hidden = false;
  }
}

function busy(flag: boolean): void {
  document.querySelectorAll<HTMLButtonElement>('#app button').forEach((button) => {
    button.disabled = flag;
  });
}

/** Runs an action with every button off, says how it went, then reads the state again. */
async function act(action: Promise<Answer>, success: (json: unknown) => string): Promise<void> {
  busy(true);
  try {
    const answer = await action;
    if (answer.ok) say(success(answer.json), false);
    else say(t('actionFailed') + problemOf(answer), true);
  } catch (error) {
    say(t('actionFailed') + (error as Error).message, true);
  }
  busy(false);
  return load();
}

async function signIn(): Promise<void> {
  const password = $<HTMLInputElement>('password');
  const error = $('signin-error');
  try {
    const response = await fetch('/ui/login', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: password.value }),
    });
    if (response.status === 204) {
      password.value = '';
      await load();
      $('refresh').focus();
      return;
    }
    error.textContent = response.status === 429 ? t('tooMany') : response.status === 401 ? t('wrongPassword') : t('signInFailed');
  } catch {
    error.textContent = t('signInFailed');
  }
}

function recordConsent(event: SubmitEvent): void {
  event.preventDefault();
  const state = event.submitter ? event.submitter.getAttribute('data-action') : 'GRANTED';
  const input = $<HTMLInputElement>('consent-by');
  const by = input.value.trim();
  const error = $('consent-error');
  error.textContent = '';
  input.removeAttribute('aria-invalid');
  if (!by) {
    error.textContent = t('byRequired');
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    return;
  }
  void act(call('PUT', '/api/connector/consent', { state, by }), (json) => {
    // Each decision names who records it: the next one (a revoke after a grant) asks again.
    input.value = '';
    return t('consentSaved') + t((json as { consent: { state: string } }).consent.state);
  });
}

document.addEventListener('DOMContentLoaded', () => {
  document.querySelectorAll('[data-lang]').forEach((button) => {
    button.addEventListener('click', () => {
      lang = button.getAttribute('data-lang') === 'de' ? 'de' : 'en';
      try {
        localStorage.setItem('boxUiLanguage', lang);
      } catch {
        // private mode: the choice lasts this page
      }
      applyLanguage();
    });
  });
  $('signin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    $('signin-error').textContent = '';
    void signIn();
  });
  $('consent-form').addEventListener('submit', (event) => recordConsent(event));
  $('refresh').addEventListener('click', () => {
    say('', false);
    void load();
  });
  $('signout').addEventListener('click', () => {
    void call('POST', '/ui/logout').then(() => {
      last = null;
      showSignIn();
      $('signin-error').textContent = t('signedOut');
    });
  });
  const dialog = $<HTMLDialogElement>('confirm');
  $('resnapshot').addEventListener('click', () => {
    dialog.showModal();
    $('confirm-cancel').focus();
  });
  $('confirm-cancel').addEventListener('click', () => {
    dialog.close();
    $('resnapshot').focus();
  });
  $('confirm-go').addEventListener('click', () => {
    dialog.close();
    void act(call('POST', '/api/connector/resnapshot'), () => t('resnapshotDone')).then(() => $('resnapshot').focus());
  });
  applyLanguage();
  void call('GET', '/ui/session').then(
    (answer) => (answer.ok ? load() : showSignIn()),
    () => undefined, // showSignIn ran
  );
});
