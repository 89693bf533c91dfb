// Builds the admin portal (portal/src, TypeScript and CSS) into one folder of static files:
// index.html, app-<hash>.js, styles-<hash>.css, favicon.svg (web/build/staticSite.mjs). Used by
// development/build.mjs (`npm run build` → dist/portal) and, through it, by `npm start` and the portal tests.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStaticSite } from '../web/build/staticSite.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** @param {{ outdir: string, minify?: boolean }} options */
export async function buildPortal({ outdir, minify = true }) {
  const { files, metafile } = await buildStaticSite({
    site: 'portal',
    root: here,
    script: 'src/main.ts',
    entryNames: { script: 'app', styles: 'styles' },
    outdir,
    minify,
    page: { lang: 'en', title: 'Admin portal', skipLink: 'Skip to content', noscript: 'The admin portal needs JavaScript.' },
  });
  return { outdir, files, metafile };
}
