import { z } from 'zod';
import { lineString } from './text.ts';

/**
 * Attachments (spec sections 5, 7 and 9): a file is uploaded to a signed URL, confirmed for a
 * purpose, then claimed by the record it belongs to. These are the rules both sides share.
 */

/** Spec section 9: each note or chat attachment is at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10_485_760;
/** A signed upload URL works once, for this long. */
export const UPLOAD_URL_LIFETIME_MS = 15 * 60_000;
/** An upload nobody confirmed within this long is removed, with its bytes. */
export const UNCONFIRMED_OBJECT_LIFETIME_MS = 24 * 3_600_000;

export const OBJECT_PURPOSES = ['patient-attachment', 'chat-attachment'] as const;
export type TObjectPurpose = (typeof OBJECT_PURPOSES)[number];

/** The records a file can belong to. */
export const OBJECT_OWNER_TYPES = ['note', 'chat_message', 'lab_order'] as const;
export type TObjectOwnerType = (typeof OBJECT_OWNER_TYPES)[number];

/** Which purpose a file must have been confirmed for before an owner of this type may claim it. */
export const PURPOSE_OF_OWNER: Record<TObjectOwnerType, TObjectPurpose> = {
  note: 'patient-attachment',
  lab_order: 'patient-attachment',
  chat_message: 'chat-attachment',
};

/**
 * The most a file may hold to be attached to each kind of record: notes and chat messages take
 * 10 MB (spec section 9); lab orders take large files (lab images), up to the multipart limit.
 */
export const MAX_BYTES_OF_OWNER: Record<TObjectOwnerType, number> = {
  note: MAX_UPLOAD_BYTES,
  chat_message: MAX_UPLOAD_BYTES,
  lab_order: Number.MAX_SAFE_INTEGER,
};

/**
 * The types confirmation recognises from the bytes, each with the file name extensions that
 * may claim it. Anything else (HTML, SVG, scripts, archives) is refused.
 */
export const FILE_TYPES = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'application/pdf': ['.pdf'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'text/plain': ['.txt', '.text', '.log', '.csv', '.md'],
} as const satisfies Record<string, readonly string[]>;
export type TFileType = keyof typeof FILE_TYPES;

export const ALLOWED_TYPES: Record<TObjectPurpose, readonly TFileType[]> = {
  'patient-attachment': [
    'image/jpeg',
    'image/png',
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ],
  'chat-attachment': [
    'image/jpeg',
    'image/png',
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/plain',
  ],
};

/** Shown in the browser (images, PDFs); everything else is downloaded as an attachment. */
export const INLINE_TYPES: readonly TFileType[] = ['image/jpeg', 'image/png', 'application/pdf'];

/** Where a confirmed file is downloaded from: the `objectPath` the confirm calls return. */
export const OBJECT_PATH_PREFIX = '/api/objects/';
export const objectPathOf = (id: string) => `${OBJECT_PATH_PREFIX}${id}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The object id an objectPath names, or null for anything else (another path, a traversal). */
export function objectIdOfPath(objectPath: string): string | null {
  if (!objectPath.startsWith(OBJECT_PATH_PREFIX)) return null;
  const id = objectPath.slice(OBJECT_PATH_PREFIX.length);
  return UUID.test(id) ? id : null;
}

/**
 * A file name as a user gave it: a name, never a path. Separators, dot-only names and control
 * characters are refused rather than cleaned, so what is stored is what was shown.
 */
// The single-line text rule of every name, checked as sent: no control, bidirectional or
// invisible characters, so 'invoice\u202Efdp.exe' cannot display as 'invoiceexe.pdf'
// (docs/decisions/input-text.md).
export const ZFileName = lineString()
  .trim()
  .min(1, 'Required')
  .max(255, 'At most 255 characters')
  .refine((name) => !/[/\\]/.test(name), 'A file name, not a path')
  .refine((name) => !/^\.+$/.test(name), 'A file name, not a path');

export const ZUploadURL = z.object({ uploadURL: z.string() });
export type TUploadURL = z.infer<typeof ZUploadURL>;

/** `fileName` is optional (spec section 7 sends only fileURL); given, it is checked against the bytes and kept for display. */
export const ZPatientAttachment = z.object({ fileURL: z.string().min(1, 'Required').max(2000), fileName: ZFileName.optional() }).strict();
export const ZChatAttachment = z
  .object({
    fileURL: z.string().min(1, 'Required').max(2000),
    fileName: ZFileName,
    fileSize: z.number().int().min(0).max(MAX_UPLOAD_BYTES, `At most ${MAX_UPLOAD_BYTES} bytes`),
  })
  .strict();

export const ZObjectPath = z.object({ objectPath: z.string() });
export type TObjectPath = z.infer<typeof ZObjectPath>;

/** What the upload URL answers once the bytes are stored. */
export const ZUploaded = z.object({ size: z.number().int(), sha256: z.string() });

/**
 * Large files in parts (spec section 7's companion calls, what Uppy's AWS S3 plugin sends above
 * 100 MB): S3's own limits, so a client written for S3 works here unchanged.
 */
export const MULTIPART_MIN_PART_BYTES = 5 * 1024 * 1024;
export const MULTIPART_MAX_PARTS = 10_000;
/** Above this the upload widget switches to parts (spec section 9). */
export const MULTIPART_THRESHOLD_BYTES = 104_857_600;
/** The companion's answer when a sign request lacks what it needs (spec section 8). */
export const CANNOT_SIGN_MESSAGE = 'Cannot sign without a key, an uploadId, and a partNumber';

export const ZMultipartCreate = z.object({
  filename: ZFileName,
  type: lineString().max(200).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export const ZMultipartCreated = z.object({ uploadId: z.string(), key: z.string() });
export const ZUploadedPart = z.object({ PartNumber: z.number().int(), Size: z.number().int(), ETag: z.string() });
export type TUploadedPart = z.infer<typeof ZUploadedPart>;
export const ZSignedPart = z.object({ url: z.string(), expires: z.number().int() });
export const ZMultipartComplete = z.object({
  parts: z
    .array(z.object({ PartNumber: z.number().int().min(1).max(MULTIPART_MAX_PARTS), ETag: lineString().max(100) }))
    .min(1, 'At least one part')
    .max(MULTIPART_MAX_PARTS),
});
export const ZMultipartCompleted = z.object({ location: z.string() });
/** GET s3/params: where a single-request upload goes (the same signed link as POST /api/objects/upload). */
export const ZUploadParams = z.object({
  method: z.literal('PUT'),
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  headers: z.record(z.string(), z.string()),
});
