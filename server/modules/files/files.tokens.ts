import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Upload links (docs/decisions/files.md): `/api/objects/uploads/<id>?expires=<ms>&signature=<s>`,
 * where s is an HMAC-SHA256, under a key derived from the files key, of the id, the uploader and
 * the expiry. The signature makes the link unforgeable and its expiry untamperable; the
 * object_uploads row makes it single-use and names the uploader (who need not send a cookie).
 */
export const UPLOAD_PATH_PREFIX = '/api/objects/uploads/';

export interface UploadGrant {
  id: string;
  uploaderId: string;
  expiresAt: Date;
}

function signatureOf(key: Buffer, grant: UploadGrant): string {
  return createHmac('sha256', key)
    .update(`clinic-ehr upload v1\n${grant.id}\n${grant.uploaderId}\n${grant.expiresAt.getTime()}`)
    .digest('base64url');
}

/** The path and query of a grant's upload link (the route adds the origin). */
export function uploadLinkOf(key: Buffer, grant: UploadGrant): string {
  return `${UPLOAD_PATH_PREFIX}${grant.id}?expires=${grant.expiresAt.getTime()}&signature=${signatureOf(key, grant)}`;
}

/** Whether the link's expiry and signature are the ones this server made for the grant. */
export function linkIsGenuine(key: Buffer, grant: UploadGrant, sent: { expires: number; signature: string }): boolean {
  if (sent.expires !== grant.expiresAt.getTime()) return false;
  const expected = Buffer.from(signatureOf(key, grant));
  const given = Buffer.from(sent.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The upload id a fileURL names, or null. Only this server's upload path is accepted, as the
 * URL parser resolves it (so `..` segments and encoded separators cannot point elsewhere); the
 * host is ignored: the id is looked up among the caller's own uploads anyway.
 */
export function uploadIdOfUrl(fileURL: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(fileURL, 'http://upload.invalid').pathname;
  } catch {
    return null;
  }
  if (!pathname.startsWith(UPLOAD_PATH_PREFIX)) return null;
  const id = pathname.slice(UPLOAD_PATH_PREFIX.length);
  return UUID.test(id) && !/[%\\]|\.\./.test(fileURL.split('?')[0]!) ? id : null;
}
