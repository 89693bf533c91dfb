/** The gzip budget of the member app's script and styles (the first screen) and its service worker, in bytes. */
export const BUDGET: { js: number; css: number; sw: number };
/**
 * Builds the member app's static files into `outdir` (index.html, hashed script and styles,
 * favicon, sw.js); rejects when the gzip size of the script, the styles or the worker is over `budget`.
 */
export function buildMemberApp(options: {
  outdir: string;
  minify?: boolean;
  budget?: { js: number; css: number; sw?: number };
  log?: (line: string) => void;
}): Promise<{ outdir: string; files: string[]; sizes: { js: number; css: number; sw: number } }>;
