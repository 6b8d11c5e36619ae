import type { StorageGuard } from './db/storage-guard.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { EventBus } from './events/event-bus.ts';
import type { SessionCache } from './sessions/session-cache.ts';
import type { TPatient } from '#domain/patients';
import type { ShortLived } from './cache/short-lived.ts';
import type { ClinicCounts } from './clinic/clinic-counts.ts';
import type { FileStorage } from './storage/storage.ts';
import type { ClinicSettingsHolder } from './clinic/clinic-settings.ts';
import type { SecretBox } from './secrets/secret-box.ts';
import type { TServedPage } from './http/paging.ts';

/** A page of patients shared by many requests, encoded once for all of them. */
export type TSharedPatientPage = TServedPage<TPatient> & { encoded: string };

/** What services need from the app; passed in, never read from globals. */
export interface Deps {
  db: Db;
  config: Config;
  /** Committed domain events go out here (raise them through inTransaction). */
  events: EventBus;
  /** Sessions this instance resolved recently (sessions/session-cache.ts). */
  sessions: SessionCache;
  /** The clinic-wide figures, shared by every request (clinic/clinic-counts.ts). */
  counts: ClinicCounts;
  /** Where attachment bytes live, and the key upload links are signed with (storage/storage.ts). */
  files: FileStorage;
  /** The clinic's name, time zone and idle timeout in force (clinic/clinic-settings.ts); config holds only their defaults. */
  settings: ClinicSettingsHolder;
  /** Seals the small secrets the database holds (TOTP seeds) with a key kept outside it. */
  secrets: SecretBox;
  /** The unfiltered list's first page and search pages, shared for a few seconds by readers who reach no restricted patient (patients.service.ts). */
  patientPages: ShortLived<string, TSharedPatientPage>;
  /** The embedded engine's disk, when it is on one (db/storage-guard.ts): health reports it. */
  storage?: StorageGuard | undefined;
}
