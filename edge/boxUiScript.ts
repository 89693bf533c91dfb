/**
 * The box UI's browser script (plain DOM, no framework): signs in, shows the agent's state and
 * runs the consent and re-snapshot actions through the box interface's own JSON routes. Data is
 * only ever set as text, never as markup.
 */
export const BOX_UI_SCRIPT = String.raw`'use strict';
(function () {
  var TEXTS = {
    en: {
      title: 'Box agent', language: 'Language', signInTitle: 'Sign in', password: 'Password', signIn: 'Sign in',
      wrongPassword: 'Wrong password.', tooMany: 'Too many wrong passwords. Wait a minute and try again.', signInFailed: 'Sign-in failed.',
      refresh: 'Refresh', signOut: 'Sign out', consentTitle: 'Data-sharing consent', recordedBy: 'Recorded by (name, board resolution)',
      recordConsent: 'Record consent', revoke: 'Revoke', connectorTitle: 'Score-data connector', resnapshot: 'Reset and Re-Snapshot',
      clubMasterTitle: 'Club master push', starterlistTitle: 'Starter-list push', freshnessTitle: 'Thursday mirror check',
      confirmTitle: 'Reset and Re-Snapshot?',
      confirmText: 'The connector is deleted with its offsets and created again: a full snapshot of all score tables follows and is sent to the cloud again.',
      cancel: 'Cancel', confirmGo: 'Reset and start full snapshot',
      state: 'State', by: 'Recorded by', at: 'Recorded at', problem: 'Problem', gate: 'Gate', gateOpen: 'open', gateClosed: 'closed',
      reason: 'Reason', connector: 'Connector', tasks: 'Tasks', lastAction: 'Last action', lastActionError: 'Its error', observeError: 'Kafka Connect',
      enabled: 'Enabled', yes: 'yes', no: 'no', lastRun: 'Last run', lastSuccess: 'Last success', lastError: 'Last error', nextRun: 'Next run',
      lastCheck: 'Last check', result: 'Result', green: 'green (hits after the evening)', red: 'red (no hits after the evening)', nextCheck: 'Next check',
      none: '–', notManaged: 'not managed by the agent', ok: 'done', failed: 'failed',
      NONE: 'none recorded', GRANTED: 'granted', REVOKED: 'revoked',
      byRequired: 'Say who records the decision.', consentSaved: 'Consent recorded: ', resnapshotDone: 'Reset done: a full snapshot is running.',
      actionFailed: 'The action failed: ', loadFailed: 'The state could not be read: ', signedOut: 'Signed out.'
    },
    de: {
      title: 'Box-Agent', language: 'Sprache', signInTitle: 'Anmelden', password: 'Passwort', signIn: 'Anmelden',
      wrongPassword: 'Falsches Passwort.', tooMany: 'Zu viele falsche Passwörter. Bitte eine Minute warten.', signInFailed: 'Anmeldung fehlgeschlagen.',
      refresh: 'Aktualisieren', signOut: 'Abmelden', consentTitle: 'Einwilligung zur Datenweitergabe', recordedBy: 'Erfasst von (Name, Vorstandsbeschluss)',
      recordConsent: 'Einwilligung erfassen', revoke: 'Widerrufen', connectorTitle: 'Konnektor für Trefferdaten', resnapshot: 'Zurücksetzen und neu einlesen',
      clubMasterTitle: 'Vereinsstammdaten-Übertragung', starterlistTitle: 'Startlisten-Übertragung', freshnessTitle: 'Donnerstags-Prüfung der Spiegeldatenbank',
      confirmTitle: 'Zurücksetzen und neu einlesen?',
      confirmText: 'Der Konnektor wird mit seinen Offsets gelöscht und neu angelegt: Danach folgt ein vollständiger Snapshot aller Treffertabellen, der erneut in die Cloud übertragen wird.',
      cancel: 'Abbrechen', confirmGo: 'Zurücksetzen und vollständigen Snapshot starten',
      state: 'Status', by: 'Erfasst von', at: 'Erfasst am', problem: 'Problem', gate: 'Schranke', gateOpen: 'offen', gateClosed: 'geschlossen',
      reason: 'Begründung', connector: 'Konnektor', tasks: 'Tasks', lastAction: 'Letzte Aktion', lastActionError: 'Ihr Fehler', observeError: 'Kafka Connect',
      enabled: 'Eingeschaltet', yes: 'ja', no: 'nein', lastRun: 'Letzter Lauf', lastSuccess: 'Letzter Erfolg', lastError: 'Letzter Fehler', nextRun: 'Nächster Lauf',
      lastCheck: 'Letzte Prüfung', result: 'Ergebnis', green: 'grün (Treffer nach dem Abend)', red: 'rot (keine Treffer nach dem Abend)', nextCheck: 'Nächste Prüfung',
      none: '–', notManaged: 'nicht vom Agenten verwaltet', ok: 'erledigt', failed: 'fehlgeschlagen',
      NONE: 'keine erfasst', GRANTED: 'erteilt', REVOKED: 'widerrufen',
      byRequired: 'Bitte angeben, wer die Entscheidung erfasst.', consentSaved: 'Einwilligung erfasst: ', resnapshotDone: 'Zurückgesetzt: Ein vollständiger Snapshot läuft.',
      actionFailed: 'Die Aktion ist fehlgeschlagen: ', loadFailed: 'Der Zustand konnte nicht gelesen werden: ', signedOut: 'Abgemeldet.'
    }
  };
  var stored = null;
  try { stored = localStorage.getItem('boxUiLanguage'); } catch (e) { stored = null; }
  var lang = stored === 'de' || stored === 'en' ? stored : (navigator.language || 'en').toLowerCase().indexOf('de') === 0 ? 'de' : 'en';
  var last = null;
  function t(key) { return TEXTS[lang][key] || key; }
  function $(id) { return document.getElementById(id); }

  function applyLanguage() {
    document.documentElement.lang = lang;
    document.title = t('title');
    document.querySelectorAll('[data-t]').forEach(function (el) { el.textContent = t(el.getAttribute('data-t')); });
    document.querySelectorAll('[data-t-label]').forEach(function (el) { el.setAttribute('aria-label', t(el.getAttribute('data-t-label'))); });
    document.querySelectorAll('[data-lang]').forEach(function (el) { el.setAttribute('aria-pressed', String(el.getAttribute('data-lang') === lang)); });
    if (last) render(last);
  }

  function when(iso) {
    if (!iso) return t('none');
    var date = new Date(iso);
    if (isNaN(date.getTime())) return iso;
    return new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  }

  function list(id, rows) {
    var dl = $(id);
    dl.textContent = '';
    rows.forEach(function (row) {
      var dt = document.createElement('dt');
      dt.textContent = t(row[0]);
      var dd = document.createElement('dd');
      dd.textContent = row[1] === null || row[1] === undefined || row[1] === '' ? t('none') : String(row[1]);
      if (row[2]) dd.className = row[2];
      dl.appendChild(dt);
      dl.appendChild(dd);
    });
  }

  function errorText(error) {
    if (!error) return null;
    return error.message + (error.step ? ' (' + error.step + ')' : '') + (error.at ? ' – ' + when(error.at) : '');
  }

  function pushRows(status) {
    return [
      ['enabled', status.enabled ? t('yes') : t('no')],
      ['lastRun', when(status.lastRunAt)],
      ['lastSuccess', when(status.lastSuccessAt)],
      ['lastError', errorText(status.lastError), status.lastError ? 'state-bad' : ''],
      ['nextRun', when(status.nextRunAt)]
    ];
  }

  function render(data) {
    var c = data.connector;
    if (c && c.enabled !== false) {
      list('consent', [
        ['state', t(c.consent.state), c.consent.state === 'GRANTED' ? 'state-ok' : 'state-bad'],
        ['by', c.consent.changedBy],
        ['at', when(c.consent.changedAt)]
      ].concat(c.consent.problem ? [['problem', c.consent.problem, 'state-bad']] : []));
      var action = c.lastAction;
      list('connector', [
        ['gate', c.gate === 'open' ? t('gateOpen') : t('gateClosed'), c.gate === 'open' ? 'state-ok' : 'state-bad'],
        ['reason', c.reason],
        ['connector', c.connectorName ? c.connectorName + ': ' + (c.connector ? c.connector.state : t('none')) : t('notManaged')],
        ['tasks', (c.tasks || []).map(function (task) { return '#' + task.id + ' ' + task.state; }).join(', ')],
        ['lastAction', action ? action.name + ' – ' + (action.ok ? t('ok') : t('failed')) + ' – ' + when(action.at) : null],
        ['lastActionError', action && action.error ? errorText(action.error) : null, action && action.error ? 'state-bad' : ''],
        ['observeError', c.observeError ? errorText(c.observeError) : null, c.observeError ? 'state-bad' : '']
      ]);
      $('resnapshot').disabled = !c.managed || c.consent.state !== 'GRANTED';
    }
    if (data.clubMaster) list('clubmaster', pushRows(data.clubMaster));
    if (data.starterlist) list('starterlist', pushRows(data.starterlist));
    if (data.freshness) {
      var f = data.freshness;
      list('freshness', [
        ['lastCheck', when(f.lastCheck && f.lastCheck.checkedAt)],
        ['result', f.lastCheck ? t(f.lastCheck.result) : null, f.lastCheck ? (f.lastCheck.result === 'green' ? 'state-ok' : 'state-bad') : ''],
        ['lastError', f.lastError ? f.lastError.message + ' – ' + when(f.lastError.at) : null, f.lastError ? 'state-bad' : ''],
        ['nextCheck', when(f.nextCheckAt)]
      ]);
    }
  }

  function say(text, failed) {
    var message = $('message');
    message.textContent = text;
    message.className = failed ? 'failed' : '';
  }

  function call(method, path, body) {
    var init = { method: method, credentials: 'same-origin', headers: { accept: 'application/json' } };
    if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (response) {
      if (response.status === 401) { showSignIn(); throw new Error(t('signInFailed')); }
      return response.text().then(function (text) {
        var json = null;
        try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
        return { status: response.status, ok: response.ok, json: json };
      });
    });
  }

  function problemOf(answer) {
    var json = answer.json || {};
    if (json.error && json.error.message) return json.error.message;
    return json.detail || json.message || 'HTTP ' + answer.status;
  }

  function load() {
    var paths = { clubMaster: '/api/club-master-sync/status', starterlist: '/api/starterlist-sync/status', freshness: '/api/freshness/status', connector: '/api/connector/status' };
    var keys = Object.keys(paths);
    return Promise.all(keys.map(function (key) { return call('GET', paths[key]); })).then(function (answers) {
      var data = {};
      keys.forEach(function (key, i) { if (answers[i].ok) data[key] = answers[i].json; });
      last = data;
      render(data);
      showApp();
    }).catch(function (error) { if (!$('app').hidden) say(t('loadFailed') + error.message, true); });
  }

  function showSignIn() { $('app').hidden = true; $('signin').hidden = false; $('password').focus(); }
  function showApp() { if ($('app').hidden) { $('signin').hidden = true; $('app').hidden = false; } }

  function busy(flag) { document.querySelectorAll('#app button').forEach(function (b) { b.disabled = flag; }); }

  function act(promise, success) {
    busy(true);
    return promise.then(function (answer) {
      if (answer.ok) say(success(answer.json), false);
      else say(t('actionFailed') + problemOf(answer), true);
    }).catch(function (error) { say(t('actionFailed') + error.message, true); })
      .then(function () { busy(false); return load(); });
  }

  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('[data-lang]').forEach(function (button) {
      button.addEventListener('click', function () {
        lang = button.getAttribute('data-lang');
        try { localStorage.setItem('boxUiLanguage', lang); } catch (e) { /* private mode: the choice lasts this page */ }
        applyLanguage();
      });
    });
    $('signin-form').addEventListener('submit', function (event) {
      event.preventDefault();
      $('signin-error').textContent = '';
      fetch('/ui/login', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: $('password').value }) })
        .then(function (response) {
          if (response.status === 204) { $('password').value = ''; return load().then(function () { $('refresh').focus(); }); }
          $('signin-error').textContent = response.status === 429 ? t('tooMany') : response.status === 401 ? t('wrongPassword') : t('signInFailed');
        }).catch(function () { $('signin-error').textContent = t('signInFailed'); });
    });
    var consentForm = $('consent-form');
    consentForm.addEventListener('submit', function (event) {
      event.preventDefault();
      var state = event.submitter ? event.submitter.getAttribute('data-action') : 'GRANTED';
      var by = $('consent-by').value.trim();
      $('consent-error').textContent = '';
      $('consent-by').removeAttribute('aria-invalid');
      if (!by) { $('consent-error').textContent = t('byRequired'); $('consent-by').setAttribute('aria-invalid', 'true'); $('consent-by').focus(); return; }
      act(call('PUT', '/api/connector/consent', { state: state, by: by }), function (json) { return t('consentSaved') + t(json.consent.state); });
    });
    $('refresh').addEventListener('click', function () { say('', false); load(); });
    $('signout').addEventListener('click', function () {
      call('POST', '/ui/logout').then(function () { last = null; showSignIn(); $('signin-error').textContent = t('signedOut'); });
    });
    var dialog = $('confirm');
    $('resnapshot').addEventListener('click', function () { dialog.showModal(); $('confirm-cancel').focus(); });
    $('confirm-cancel').addEventListener('click', function () { dialog.close(); $('resnapshot').focus(); });
    $('confirm-go').addEventListener('click', function () {
      dialog.close();
      act(call('POST', '/api/connector/resnapshot'), function () { return t('resnapshotDone'); }).then(function () { $('resnapshot').focus(); });
    });
    applyLanguage();
    call('GET', '/ui/session').then(function (answer) { if (answer.ok) load(); else showSignIn(); }).catch(function () { /* showSignIn ran */ });
  });
})();
`;
