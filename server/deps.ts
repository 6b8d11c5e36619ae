import type { Config } from './config.ts';
import type { Db } from './db/database.ts';

/** What services need from the app; passed in, never read from globals. */
export interface Deps {
  db: Db;
  config: Config;
}
