import { DEMO_PASSWORD, DEMO_USERS } from './demoUsers';

/** The local provider's own pages: plain HTML, no script, readable at phone width. */

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:26rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #c9ced6;border-radius:8px}
h1{font-size:1.4rem;margin-top:0}
label{display:block;font-weight:600;margin:.8rem 0 .3rem}
input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;border:1px solid #5c6470;border-radius:4px}
button{margin-top:1rem;padding:.6rem 1rem;font-size:1rem;border-radius:4px;border:1px solid #0b4f9c;background:#0b4f9c;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b4f9c}
:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
.error{color:#a4001c;font-weight:600}
.note{font-size:.9rem;color:#434a54}
table{border-collapse:collapse;font-size:.9rem;margin-top:.5rem;width:100%}
th,td{text-align:left;padding:.25rem .4rem;border-bottom:1px solid #dde1e6}
@media (max-width:30rem){main{margin:0;border-radius:0;border-width:0 0 1px}}
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** The sign-in form of an interaction; `error` is shown above it after a failed attempt. */
export function loginPage(options: { uid: string; clientName: string; username?: string; error?: string }): string {
  const action = `/interaction/${encodeURIComponent(options.uid)}`;
  const rows = DEMO_USERS.map(
    (user) => `<tr><td><code>${escape(user.username)}</code></td><td>${escape(user.roles.join(', ') || '—')}</td></tr>`,
  ).join('');
  return layout(
    'Local sign-in',
    `<h1>Local sign-in</h1>
<p class="note">Development provider for ${escape(options.clientName)}. Never used in Azure.</p>
${options.error ? `<p class="error" role="alert" id="login-error">${escape(options.error)}</p>` : ''}
<form method="post" action="${action}/login" autocomplete="off">
<label for="username">Username</label>
<input id="username" name="username" required autofocus value="${escape(options.username ?? '')}"${options.error ? ' aria-describedby="login-error"' : ''}>
<label for="password">Password</label>
<input id="password" name="password" type="password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="${action}/abort"><button type="submit" class="secondary">Cancel</button></form>
<h2>Demo users</h2>
<p class="note">Password for every demo user: <code>${escape(DEMO_PASSWORD)}</code></p>
<table><thead><tr><th scope="col">Username</th><th scope="col">Platform roles</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/** oidc-provider's end-session confirmation: `form` is the provider's hidden form (id op.logoutForm). */
export function logoutPage(form: string): string {
  return layout(
    'Sign out',
    `<h1>Sign out of the local provider?</h1>
${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>
<button type="submit" class="secondary" form="op.logoutForm">Stay signed in</button>`,
  );
}

export function signedOutPage(): string {
  return layout('Signed out', '<h1>Signed out</h1><p>You have signed out of the local provider.</p>');
}

/** An error of the provider (an unknown client, a redirect URI it does not know, an expired interaction). */
export function errorPage(error: string, description: string | undefined): string {
  return layout(
    'Sign-in error',
    `<h1>Sign-in error</h1><p class="error" role="alert">${escape(error)}</p>${description ? `<p>${escape(description)}</p>` : ''}`,
  );
}
