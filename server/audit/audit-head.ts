import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AUDIT_HEAD_FORMAT, auditHeadMessage, type TSavedHeadCheck, type TSignedAuditHead } from '#domain/audit';
import type { Config } from '../config.ts';
import { queryRows, type Queryable } from '../db/database.ts';
import { loadOrCreateKey } from '../secrets/key-file.ts';

/** Signs the audit chain's head and checks heads it signed (docs/decisions/audit-chain.md). */
export interface AuditHeadSigner {
  keyId: string;
  sign(head: { seq: number; hash: string }, at: Date): TSignedAuditHead;
  /** Whether this server's key signed exactly this head. */
  signed(head: TSignedAuditHead): boolean;
}

/** PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): how node:crypto takes a key made of 32 bytes. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * Ed25519 with a key derived from a 32-byte seed kept outside the database (AUDIT_HEAD_KEY, or
 * DATA_DIR/audit-head.key). Asymmetric so that the public half could be handed to an auditor
 * without letting her sign; the seed never leaves this module.
 */
export function auditHeadSigner(settings: Config['auditHead']): AuditHeadSigner {
  const seed = loadOrCreateKey(settings.key, settings.keyFile);
  const privateKey: KeyObject = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const keyId = createHash('sha256')
    .update(publicKey.export({ format: 'der', type: 'spki' }))
    .digest('hex')
    .slice(0, 16);
  return {
    keyId,
    sign(head, at) {
      const unsigned = { format: AUDIT_HEAD_FORMAT, seq: head.seq, hash: head.hash, signedAt: at.toISOString(), keyId } as const;
      return { ...unsigned, signature: sign(null, Buffer.from(auditHeadMessage(unsigned)), privateKey).toString('base64') };
    },
    signed(head) {
      if (head.keyId !== keyId) return false;
      const { signature, ...unsigned } = head;
      return verify(null, Buffer.from(auditHeadMessage(unsigned)), publicKey, Buffer.from(signature, 'base64'));
    },
  };
}

/**
 * Looks for a saved head in the chain as it is now. Its row is found by number; the links
 * between it and today's head are checked by verify itself, so a head still in the chain and an
 * intact chain together say nothing before it was lost or rewritten.
 */
export async function findSavedHead(q: Queryable, signer: AuditHeadSigner, head: TSignedAuditHead): Promise<TSavedHeadCheck> {
  const answer = (state: TSavedHeadCheck['state']): TSavedHeadCheck => ({ state, seq: head.seq, signedAt: head.signedAt });
  if (!signer.signed(head)) return answer('not signed here');
  const [row] = await queryRows<{ hash: string | null; last: string | null }>(
    q,
    sql`select (select hash from audit_events where seq = ${head.seq}) as hash,
               (select max(seq)::text from audit_events) as last`,
  );
  if (row?.hash === head.hash) return answer('in chain');
  if (row?.hash) return answer('rewritten');
  return answer(row?.last === null || Number(row?.last) < head.seq ? 'cut' : 'missing');
}
