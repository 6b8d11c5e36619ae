import { inArray } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { keyFingerprints } from '../db/schema/key-fingerprints.ts';
import { keyFingerprint } from '../storage/storage.ts';
import { loadOrCreateKey } from './key-file.ts';

/** Two instances (or an instance and its data) that do not share the keys the data was written with. */
export class KeysDifferError extends Error {
  constructor(names: string[]) {
    super(
      `This instance's ${names.join(' and ')} differ from those this database's data was written with. ` +
        'Every instance on one database must use the same keys: set them in the environment of each ' +
        `(${names.map((n) => (n === 'files key' ? 'FILES_KEY' : 'AUDIT_HEAD_KEY')).join(', ')}), copied from the first instance's DATA_DIR ` +
        '(files.key, audit-head.key). See docs/production.md, "Several instances".',
    );
    this.name = 'KeysDifferError';
  }
}

/**
 * At start: records the fingerprints of the files key and the audit head's key, or checks them
 * against those recorded (issue 48). An attachment stored through an instance with another key
 * answered 500 through the rest; now such an instance does not start.
 */
type TKeySource = { key: Buffer | undefined; keyFile: string };

export async function checkKeysMatch(db: Db, config: { files: TKeySource; auditHead: TKeySource }): Promise<void> {
  const mine = {
    'files key': keyFingerprint(loadOrCreateKey(config.files.key, config.files.keyFile)),
    'audit head key': keyFingerprint(loadOrCreateKey(config.auditHead.key, config.auditHead.keyFile)),
  };
  await db
    .insert(keyFingerprints)
    .values(Object.entries(mine).map(([name, fingerprint]) => ({ name, fingerprint })))
    .onConflictDoNothing();
  const recorded = await db
    .select()
    .from(keyFingerprints)
    .where(inArray(keyFingerprints.name, Object.keys(mine)));
  const differ = recorded.filter((r) => mine[r.name as keyof typeof mine] !== r.fingerprint).map((r) => r.name);
  if (differ.length > 0) throw new KeysDifferError(differ);
}
