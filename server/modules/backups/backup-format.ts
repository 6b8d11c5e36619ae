import { z } from 'zod';

/**
 * What a backup is on disk (issue 36; docs/production.md): one directory, named for its moment,
 * holding the embedded database's files each gzipped (`database/`) with their list, sizes and
 * checksums (`database.tsv`), the encrypted objects exactly as stored with theirs
 * (`objects.tsv`), and this manifest, written last. The directory gets
 * its name only when it is complete: a backup cut off halfway keeps `.partial` at its end.
 */
export const BACKUP_FORMAT = 'clinic-ehr-backup/1';
export const BACKUP_NAME_PREFIX = 'clinic-ehr-backup-';
export const DATABASE_DIR = 'database';
export const DATABASE_LIST = 'database.tsv';
export const OBJECTS_DIR = 'objects';
export const OBJECTS_LIST = 'objects.tsv';
export const MANIFEST_FILE = 'manifest.json';
/** Copies of the keys, only with `--include-keys`: beside the data they protect, they protect nothing. */
export const KEYS_DIR = 'keys';
export const FILES_KEY_FILE = 'files.key';
export const AUDIT_HEAD_KEY_FILE = 'audit-head.key';

export const ZBackupManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.string(),
  /** The last migration the database had (a restore into newer code applies the rest at start). */
  migration: z.string(),
  database: z.object({ files: z.number().int(), bytes: z.number().int() }),
  objects: z.object({ count: z.number().int(), bytes: z.number().int() }),
  /** Which keys open it (keyFingerprint, storage.ts), and whether copies of them are inside. */
  keys: z.object({ files: z.string(), auditHead: z.string(), included: z.boolean() }),
});
export type TBackupManifest = z.infer<typeof ZBackupManifest>;

/** `clinic-ehr-backup-20261126T233000Z`: sorts by time, safe in every file system. */
export function backupName(at: Date): string {
  return `${BACKUP_NAME_PREFIX}${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

/** A complete backup's directory name (retention only ever deletes these). */
export const isBackupName = (name: string) => /^clinic-ehr-backup-\d{8}T\d{6}Z(-\d+)?$/.test(name);
