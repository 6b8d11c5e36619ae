import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './server/db/schema/api-clients.ts',
    './server/db/schema/backups.ts',
    './server/db/schema/bulk-export.ts',
    './server/db/schema/auth.ts',
    './server/db/schema/chart.ts',
    './server/db/schema/clinical.ts',
    './server/db/schema/collaboration.ts',
    './server/db/schema/enums.ts',
    './server/db/schema/events.ts',
    './server/db/schema/files.ts',
    './server/db/schema/key-fingerprints.ts',
    './server/db/schema/lab-interfaces.ts',
    './server/db/schema/labs.ts',
    './server/db/schema/prescriptions.ts',
    './server/db/schema/restricted-records.ts',
    './server/db/schema/second-factors.ts',
    './server/db/schema/supplies.ts',
  ],
  out: './server/db/migrations',
});
