/** Builds the admin portal's static files into `outdir` (index.html, hashed app script and styles, favicon). */
export function buildPortal(options: { outdir: string; minify?: boolean }): Promise<{ outdir: string; files: string[] }>;
