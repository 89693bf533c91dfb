import type { Metafile } from 'esbuild';

/**
 * Builds the admin portal's static files into `outdir` (index.html, hashed app script and styles,
 * favicon); `metafile` names every source file the bundles took in.
 */
export function buildPortal(options: {
  outdir: string;
  minify?: boolean;
}): Promise<{ outdir: string; files: string[]; metafile: Metafile }>;
