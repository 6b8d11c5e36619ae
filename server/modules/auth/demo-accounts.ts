import type { TRole } from '#domain/roles';

/** The demo clinic's staff (contract: these emails, this password, only in demo mode). */
export const DEMO_PASSWORD = 'demo-clinic-2026';

export const DEMO_USERS: { email: string; role: TRole; firstName: string; lastName: string }[] = [
  { email: 'admin@demo.clinic', role: 'admin', firstName: 'Alex', lastName: 'Morgan' },
  { email: 'scheduler@demo.clinic', role: 'scheduler', firstName: 'Sam', lastName: 'Rivera' },
  { email: 'nurse@demo.clinic', role: 'nurse', firstName: 'Nora', lastName: 'Bennett' },
  { email: 'nurse2@demo.clinic', role: 'nurse', firstName: 'Noah', lastName: 'Kim' },
  { email: 'scribe@demo.clinic', role: 'scribe', firstName: 'Sara', lastName: 'Lopez' },
  { email: 'supplier@demo.clinic', role: 'supplier', firstName: 'Sid', lastName: 'Patel' },
];

const DEMO_EMAILS = new Set(DEMO_USERS.map((u) => u.email));

/**
 * Whether an account is a demo account that must stay shut: outside demo mode its published
 * password must open nothing, even if an admin reactivated it or gave it a new password.
 */
export const isShutDemoAccount = (config: { demo: boolean }, email: string) => !config.demo && DEMO_EMAILS.has(email);
