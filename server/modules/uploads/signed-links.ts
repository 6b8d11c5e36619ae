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

/** The HMAC of one link's fields, under a label per kind of link, so no link passes for another. */
function signatureOf(key: Buffer, label: string, fields: (string | number)[]): string {
  return createHmac('sha256', key)
    .update([`clinic-ehr ${label} v1`, ...fields].join('\n'))
    .digest('base64url');
}

function signatureMatches(expected: string, sent: string): boolean {
  const [a, b] = [Buffer.from(expected), Buffer.from(sent)];
  return a.length === b.length && timingSafeEqual(a, b);
}

const uploadFields = (grant: UploadGrant) => [grant.id, grant.uploaderId, grant.expiresAt.getTime()];

/** The path and query of a grant's upload link (the route adds the origin). */
export function uploadLinkOf(key: Buffer, grant: UploadGrant): string {
  return `${UPLOAD_PATH_PREFIX}${grant.id}?expires=${grant.expiresAt.getTime()}&signature=${signatureOf(key, 'upload', uploadFields(grant))}`;
}

/** Whether the link's expiry and signature are the ones this server made for the grant. */
export function linkIsGenuine(key: Buffer, grant: UploadGrant, sent: { expires: number; signature: string }): boolean {
  return sent.expires === grant.expiresAt.getTime() && signatureMatches(signatureOf(key, 'upload', uploadFields(grant)), sent.signature);
}

/**
 * Part links of a large upload: `/api/uploads/parts/<uploadId>/<partNumber>?expires=&signature=`,
 * signed like upload links over the upload, the part number, the uploader and the expiry. A
 * part may be sent again (a retry replaces it) until the upload is completed or aborted.
 */
export const PART_PATH_PREFIX = '/api/uploads/parts/';

export interface PartGrant {
  uploadId: string;
  partNumber: number;
  uploaderId: string;
  expiresAt: Date;
}

const partFields = (grant: PartGrant) => [grant.uploadId, grant.partNumber, grant.uploaderId, grant.expiresAt.getTime()];

export function partLinkOf(key: Buffer, grant: PartGrant): string {
  return `${PART_PATH_PREFIX}${grant.uploadId}/${grant.partNumber}?expires=${grant.expiresAt.getTime()}&signature=${signatureOf(key, 'part', partFields(grant))}`;
}

export function partLinkIsGenuine(key: Buffer, grant: Omit<PartGrant, 'expiresAt'>, sent: { expires: number; signature: string }): boolean {
  return signatureMatches(signatureOf(key, 'part', partFields({ ...grant, expiresAt: new Date(sent.expires) })), sent.signature);
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
