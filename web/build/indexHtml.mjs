// The page both front ends start from: the head they share, their own title and body. Nothing
// inline: the CSP allows scripts and styles from the site's own files only.

/**
 * @typedef {{ lang: string, title: string, themeColor?: string, skipLink?: string, noscript: string, manifest?: { href: string, touchIcon: string } }} Page
 * `skipLink`: the text of a skip link in the page itself (a site that draws its own leaves it out).
 * `manifest`: a web app manifest (installable) and the Home Screen icon iOS takes instead of it.
 */

const escapeHtml = (text) => text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]);

/** index.html for `page`, loading the built `files.js` (an ES module) and `files.css`. */
export function indexHtml(page, files) {
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(page.lang)}">`,
    '  <head>',
    '    <meta charset="utf-8" />',
    '    <meta name="viewport" content="width=device-width, initial-scale=1" />',
    '    <meta name="referrer" content="no-referrer" />',
    ...(page.themeColor ? [`    <meta name="theme-color" content="${escapeHtml(page.themeColor)}" />`] : []),
    `    <title>${escapeHtml(page.title)}</title>`,
    '    <link rel="icon" href="./favicon.svg" type="image/svg+xml" />',
    ...(page.manifest
      ? [
          `    <link rel="manifest" href="./${escapeHtml(page.manifest.href)}" />`,
          `    <link rel="apple-touch-icon" href="./${escapeHtml(page.manifest.touchIcon)}" />`,
        ]
      : []),
    `    <link rel="stylesheet" href="./${escapeHtml(files.css)}" />`,
    `    <script type="module" src="./${escapeHtml(files.js)}"></script>`,
    '  </head>',
    '  <body>',
    ...(page.skipLink ? [`    <a class="skip-link" href="#main">${escapeHtml(page.skipLink)}</a>`] : []),
    `    <div id="app"><noscript>${escapeHtml(page.noscript)}</noscript></div>`,
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}
