import type { BuildOptions } from 'esbuild';

export const OPTIONAL_ADDONS: string[];
export const ADMIN_COMMANDS: string[];
export function serverBundleOptions(outdir?: string): BuildOptions;
