import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, lt, sql, sum } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../db/database.ts';
import { uploadUsage } from '../../db/schema/files.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * The hourly upload quota (UPLOAD_BYTES_PER_HOUR): what a user stored in the last hour, single
 * uploads and parts alike, read from `upload_usage`, so it holds across instances and restarts.
 * Before any bytes are written, a request reserves what it may send (its Content-Length, or the
 * rest of the budget) under a per-user lock, so parallel uploads cannot overrun the budget
 * together; once stored, the reservation becomes the size stored, and anything else drops it.
 */
type QuotaDeps = Pick<Deps, 'db' | 'config'>;

export const UPLOAD_QUOTA_WINDOW_MS = 3_600_000;

export interface UploadReservation {
  id: string;
  userId: string;
  /** The most the request may store: its body is cut off past this. */
  bytes: number;
}

const since = (deps: QuotaDeps) => new Date(deps.config.now().getTime() - UPLOAD_QUOTA_WINDOW_MS);

async function bytesUsed(q: Queryable, userId: string, from: Date): Promise<number> {
  const [row] = await q
    .select({ used: sum(uploadUsage.bytes).mapWith(Number) })
    .from(uploadUsage)
    .where(and(eq(uploadUsage.uploaderId, userId), gt(uploadUsage.at, from)));
  return row?.used ?? 0;
}

/**
 * Seconds until `need` more bytes fit: when enough of the window's oldest rows have left it. The
 * running total is summed in the database, oldest first.
 */
async function secondsUntilRoom(q: Queryable, deps: QuotaDeps, userId: string, used: number, need: number): Promise<number> {
  const excess = used + need - deps.config.files.uploadBytesPerHour;
  if (excess <= 0) return 1;
  const window = q
    .select({
      at: uploadUsage.at,
      freed: sql<number>`sum(${uploadUsage.bytes}) over (order by ${uploadUsage.at}, ${uploadUsage.id})`.mapWith(Number).as('freed'),
    })
    .from(uploadUsage)
    .where(and(eq(uploadUsage.uploaderId, userId), gt(uploadUsage.at, since(deps))))
    .as('window');
  const [row] = await q
    .select({ at: window.at })
    .from(window)
    .where(sql`${window.freed} >= ${excess}`)
    .orderBy(asc(window.at))
    .limit(1);
  const freeAt = row ? row.at.getTime() + UPLOAD_QUOTA_WINDOW_MS : deps.config.now().getTime() + UPLOAD_QUOTA_WINDOW_MS;
  return Math.max(1, Math.ceil((freeAt - deps.config.now().getTime()) / 1000));
}

/** 429 with Retry-After and a message that says which limit, and how long to wait. */
export function quotaReached(limit: number, retryAfterSeconds: number): HttpError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new HttpError('quota.uploadBytes', {
    message: `Hourly upload limit reached: at most ${bytesLabel(limit)} per hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

/** '4 GB', '1.5 MB', '900 KB': the budget as users read it. */
function bytesLabel(bytes: number): string {
  const [unit, size] = bytes >= 1024 ** 3 ? ['GB', 1024 ** 3] : bytes >= 1024 ** 2 ? ['MB', 1024 ** 2] : ['KB', 1024];
  return `${+(bytes / size).toFixed(1)} ${unit}`;
}

/**
 * For the calls that lead to an upload (a link, a part's link, a new upload in parts): refused
 * once the hour's budget is spent, so a client learns it before it sends anything.
 */
export async function assertUploadBudgetLeft(deps: QuotaDeps, userId: string): Promise<void> {
  const limit = deps.config.files.uploadBytesPerHour;
  const used = await bytesUsed(deps.db, userId, since(deps));
  if (used >= limit) throw quotaReached(limit, await secondsUntilRoom(deps.db, deps, userId, used, 1));
}

/**
 * Reserves room for one body: its declared length, or when none was declared as much as
 * `maxBytes` and the budget allow. 429 when the declared length does not fit, or nothing does.
 */
export async function reserveUploadBytes(
  deps: QuotaDeps,
  userId: string,
  body: { declaredLength: number | null; maxBytes: number },
): Promise<UploadReservation> {
  const limit = deps.config.files.uploadBytesPerHour;
  return deps.db.transaction(async (tx) => {
    // One reservation at a time per user, on every instance: the sum below then sees the others.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`upload-quota:${userId}`}))`);
    const used = await bytesUsed(tx, userId, since(deps));
    const room = limit - used;
    const need = Math.max(1, body.declaredLength ?? 1);
    if (need > room) throw quotaReached(limit, await secondsUntilRoom(tx, deps, userId, used, need));
    const reservation = { id: randomUUID(), userId, bytes: body.declaredLength ?? Math.min(body.maxBytes, room) };
    await tx.insert(uploadUsage).values({ id: reservation.id, uploaderId: userId, at: deps.config.now(), bytes: reservation.bytes });
    return reservation;
  });
}

/**
 * A body without a declared length ran past what the budget left it (nothing of it was kept):
 * its reservation goes, and the 429 says when at least one byte more than it had would fit.
 */
export async function budgetCutOff(deps: QuotaDeps, reservation: UploadReservation): Promise<HttpError> {
  await releaseReservation(deps.db, reservation);
  const used = await bytesUsed(deps.db, reservation.userId, since(deps));
  return quotaReached(deps.config.files.uploadBytesPerHour, await secondsUntilRoom(deps.db, deps, reservation.userId, used, reservation.bytes + 1));
}

/** The bytes were stored: the reservation becomes their size (in the caller's transaction, with the record of them). */
export async function settleReservation(q: Queryable, reservation: UploadReservation, storedBytes: number): Promise<void> {
  await q.update(uploadUsage).set({ bytes: storedBytes }).where(eq(uploadUsage.id, reservation.id));
}

/** Nothing was stored: the reservation goes, and counts for nothing. */
export async function releaseReservation(q: Queryable, reservation: UploadReservation): Promise<void> {
  await q.delete(uploadUsage).where(eq(uploadUsage.id, reservation.id));
}

/** The clean-up: rows that have left the window count for nothing any more. */
export async function deleteUsageBefore(q: Queryable, before: Date): Promise<void> {
  await q.delete(uploadUsage).where(lt(uploadUsage.at, before));
}
