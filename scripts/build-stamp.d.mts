/** Types of build-stamp.mjs, a plain script (it runs before anything is built). */
export interface TSourceStamp {
  hash: string;
  files: number;
  /** The hash of what a release keeps of the sources (package files, migrations). */
  release: string;
}
export const BUILD_INPUTS: { dirs: string[]; files: string[] };
export const STAMP_FILE: string;
export function sourceStamp(root?: string): TSourceStamp;
export function readStamp(root?: string): (TSourceStamp & { builtAt?: string }) | null;
export function writeStamp(stamp: TSourceStamp, root?: string): void;
export function staleBuildReason(root?: string, current?: TSourceStamp): string | null;
