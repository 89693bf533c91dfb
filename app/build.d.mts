/** The gzip budget of the member app's script and styles, in bytes. */
export const BUDGET: { js: number; css: number };
/**
 * Builds the member app's static files into `outdir` (index.html, hashed script and styles,
 * favicon); rejects when the gzip size of the script or the styles is over `budget`.
 */
export function buildMemberApp(options: {
  outdir: string;
  minify?: boolean;
  budget?: { js: number; css: number };
  log?: (line: string) => void;
}): Promise<{ outdir: string; files: string[]; sizes: { js: number; css: number } }>;
