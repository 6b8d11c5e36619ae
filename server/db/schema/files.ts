import { sql } from 'drizzle-orm';
import { bigint, char, index, integer, pgEnum, pgTable, primaryKey, uuid, varchar } from 'drizzle-orm/pg-core';
import { OBJECT_OWNER_TYPES, OBJECT_PURPOSES } from '#domain/files';
import { at } from './columns.ts';
import { users } from './auth.ts';

export const objectPurpose = pgEnum('object_purpose', OBJECT_PURPOSES);
export const objectOwnerType = pgEnum('object_owner_type', OBJECT_OWNER_TYPES);

/**
 * Upload links handed out by POST /api/objects/upload (docs/decisions/files.md). The URL carries
 * the id, the expiry and an HMAC of both with the uploader; this row makes it single-use
 * (`used_at` is set by the one request that may send the bytes) and binds it to its uploader.
 * The stored object, if the upload completes, takes the same id.
 */
export const objectUploads = pgTable(
  'object_uploads',
  {
    id: uuid('id').primaryKey(),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('object_uploads_expires_idx').on(t.expiresAt)],
);

/**
 * Every stored file: its bytes live in the storage driver under `storage_key`. Confirmed for a
 * purpose after its type was checked from its bytes; claimed by the record it is attached to
 * (owner_type and owner_id stay null until then). Who may download it follows from the owner.
 */
export const storedObjects = pgTable(
  'stored_objects',
  {
    id: uuid('id').primaryKey(),
    storageKey: varchar('storage_key', { length: 200 }).notNull().unique(),
    sha256: char('sha256', { length: 64 }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** What the uploader's PUT said (Content-Type); only a hint, checked against the bytes. */
    declaredType: varchar('declared_type', { length: 200 }),
    /** The type found in the bytes at confirmation; the only type the file is ever served as. */
    contentType: varchar('content_type', { length: 100 }),
    fileName: varchar('file_name', { length: 255 }),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id),
    purpose: objectPurpose('purpose'),
    ownerType: objectOwnerType('owner_type'),
    ownerId: uuid('owner_id'),
    createdAt: at('created_at').notNull(),
    confirmedAt: at('confirmed_at'),
    claimedAt: at('claimed_at'),
  },
  (t) => [
    index('stored_objects_owner_idx').on(t.ownerType, t.ownerId),
    // What the clean-up looks for: uploads nobody confirmed, oldest first.
    index('stored_objects_unconfirmed_idx')
      .on(t.createdAt)
      .where(sql`confirmed_at is null`),
  ],
);

/**
 * A large upload in parts (the companion calls under /api/uploads/s3/multipart). `id` is the
 * uploadId the client holds, `object_id` the key it names and, once complete, the stored
 * object's id. Open until completed or aborted; one untouched for a day is swept away.
 */
export const multipartUploads = pgTable(
  'multipart_uploads',
  {
    id: uuid('id').primaryKey(),
    objectId: uuid('object_id').notNull().unique(),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id),
    /** What the client said at creation: hints only, checked against the bytes at confirmation. */
    fileName: varchar('file_name', { length: 255 }),
    declaredType: varchar('declared_type', { length: 200 }),
    createdAt: at('created_at').notNull(),
    /** The last part received: the clean-up counts a day from here. */
    touchedAt: at('touched_at').notNull(),
    completedAt: at('completed_at'),
  },
  (t) => [index('multipart_uploads_touched_idx').on(t.touchedAt)],
);

/** The parts received so far, each a blob of its own until completion joins them. */
export const multipartParts = pgTable(
  'multipart_parts',
  {
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => multipartUploads.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    storageKey: uuid('storage_key').notNull().unique(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The part's SHA-256, given back as its ETag. */
    etag: char('etag', { length: 64 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.partNumber] })],
);

/**
 * The bytes each user stored: one row per upload or part received, for the hourly upload quota
 * (UPLOAD_BYTES_PER_HOUR). A row is written before the bytes arrive, as a reservation, and set to
 * what was stored once they are; nothing stored, no row. It outlives the file (refused at
 * confirmation, an upload aborted): the bytes were taken all the same. The clean-up drops rows
 * older than the hour.
 */
export const uploadUsage = pgTable(
  'upload_usage',
  {
    id: uuid('id').primaryKey(),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id),
    at: at('at').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (t) => [index('upload_usage_uploader_at_idx').on(t.uploaderId, t.at)],
);
