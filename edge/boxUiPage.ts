/**
 * The box UI's page. Texts carry `data-t` keys that the script fills in the chosen language
 * (edge/ui/texts.ts); the English in the markup is what shows before the script runs.
 */
export const BOX_UI_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Box agent</title>
<link rel="stylesheet" href="/ui/app.css">
<script src="/ui/app.js" defer></script>
</head>
<body>
<header class="top">
  <div class="heading">
    <h1 data-t="title">Box agent</h1>
    <p id="identity" class="identity" data-testid="box-identity"><span id="identity-club"></span> <span id="identity-box"></span></p>
  </div>
  <div class="lang" role="group" aria-label="Language" data-t-label="language">
    <button type="button" data-lang="de" lang="de">Deutsch</button>
    <button type="button" data-lang="en" lang="en">English</button>
  </div>
</header>
<main id="main">
  <section id="signin" hidden aria-labelledby="signin-title">
    <h2 id="signin-title" data-t="signInTitle">Sign in</h2>
    <form id="signin-form" novalidate>
      <label for="password" data-t="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <button type="submit" class="primary" data-t="signIn">Sign in</button>
      <p id="signin-error" class="error" role="alert"></p>
    </form>
  </section>
  <div id="app" hidden>
    <div class="toolbar">
      <button type="button" id="refresh" data-t="refresh">Refresh</button>
      <button type="button" id="signout" data-t="signOut">Sign out</button>
    </div>
    <p id="message" role="status" aria-live="polite"></p>
    <section class="panel" aria-labelledby="consent-title">
      <h2 id="consent-title" data-t="consentTitle">Data-sharing consent</h2>
      <dl id="consent"></dl>
      <form id="consent-form" novalidate>
        <label for="consent-by" data-t="recordedBy">Recorded by (name, board resolution)</label>
        <input id="consent-by" name="by" type="text" maxlength="200" autocomplete="off" required aria-describedby="consent-error">
        <p id="consent-error" class="error"></p>
        <div class="actions">
          <button type="submit" class="primary" data-action="GRANTED" data-t="recordConsent">Record consent</button>
          <button type="submit" class="danger" data-action="REVOKED" data-t="revoke">Revoke</button>
        </div>
      </form>
    </section>
    <section class="panel" aria-labelledby="connector-title">
      <h2 id="connector-title" data-t="connectorTitle">Score-data connector</h2>
      <dl id="connector"></dl>
      <button type="button" id="resnapshot" class="danger" data-t="resnapshot">Reset and Re-Snapshot</button>
    </section>
    <section class="panel" aria-labelledby="clubmaster-title">
      <h2 id="clubmaster-title" data-t="clubMasterTitle">Club master push</h2>
      <dl id="clubmaster"></dl>
    </section>
    <section class="panel" aria-labelledby="starterlist-title">
      <h2 id="starterlist-title" data-t="starterlistTitle">Starter-list push</h2>
      <dl id="starterlist"></dl>
    </section>
    <section class="panel" aria-labelledby="freshness-title">
      <h2 id="freshness-title" data-t="freshnessTitle">Thursday mirror check</h2>
      <dl id="freshness"></dl>
    </section>
  </div>
</main>
<dialog id="confirm" aria-labelledby="confirm-title" aria-describedby="confirm-text">
  <h2 id="confirm-title" data-t="confirmTitle">Reset and Re-Snapshot?</h2>
  <p id="confirm-text" data-t="confirmText">The connector is deleted with its offsets and created again: a full snapshot of all score tables follows and is sent to the cloud again.</p>
  <div class="actions">
    <button type="button" id="confirm-cancel" data-t="cancel">Cancel</button>
    <button type="button" id="confirm-go" class="danger" data-t="confirmGo">Reset and start full snapshot</button>
  </div>
</dialog>
</body>
</html>
`;

/** What the UI answers while no password is set: how to set one, in both languages. */
export const BOX_UI_UNCONFIGURED_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Box agent: no UI password set</title>
<link rel="stylesheet" href="/ui/app.css">
</head>
<body>
<main id="main">
  <h1>No UI password set</h1>
  <p>The box UI opens only with a password set at install. On the box, run
  <code>node /opt/box-agent/edge-agent.js hash-password</code>, type the password twice, put the printed
  <code>SVC_BOX_UI_PASSWORD_HASH=…</code> line into <code>/opt/box-agent/.env</code> and restart the agent
  (<code>systemctl restart box-agent</code>).</p>
  <h2 lang="de">Kein UI-Passwort gesetzt</h2>
  <p lang="de">Die Box-Oberfläche öffnet sich nur mit einem bei der Installation gesetzten Passwort. Auf der Box
  <code>node /opt/box-agent/edge-agent.js hash-password</code> ausführen, das Passwort zweimal eingeben, die ausgegebene
  Zeile <code>SVC_BOX_UI_PASSWORD_HASH=…</code> in <code>/opt/box-agent/.env</code> eintragen und den Agenten neu starten
  (<code>systemctl restart box-agent</code>).</p>
</main>
</body>
</html>
`;
