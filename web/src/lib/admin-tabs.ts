import type { TCurrentUser } from '#domain/auth';
import { can, type TCapability } from '#domain/permissions';

/**
 * The Admin Panel's tabs (spec section 2, plus the audit trail of issue 20) and who sees each.
 * The server enforces the same capabilities on every route behind them
 * (docs/decisions/admin-panel.md); hiding a tab only spares a user a refusal.
 */
export const ADMIN_TABS = [
  // Managed by an admin, read as the staff directory by a scheduler (user-management-tab.tsx).
  { value: 'users', label: 'User Management', capability: 'users.readDirectory' },
  { value: 'analytics', label: 'Analytics', capability: 'analytics.view' },
  { value: 'notifications', label: 'Notifications', capability: 'admin.panel' },
  // The lab test catalogue: tests, analytes, units and reference ranges (issue 30).
  { value: 'lab-tests', label: 'Lab Tests', capability: 'labs.catalogue' },
  // The reference labs orders are sent to over HL7, and the sends that failed (issue 54).
  { value: 'lab-interface', label: 'Lab Interface', capability: 'labs.interface' },
  // The formulary and the problem list's codes the chart shares (issue 51).
  { value: 'formulary', label: 'Formulary', capability: 'formulary.manage' },
  // Who may sign prescriptions (issue 52).
  { value: 'prescribers', label: 'Prescribers', capability: 'prescriptions.grant' },
  { value: 'settings', label: 'Settings', capability: 'settings.manage' },
  { value: 'audit', label: 'Audit Trail', capability: 'audit.read' },
  // The break-glass review queue (issue 33).
  { value: 'emergency-access', label: 'Emergency Access', capability: 'patients.restrict' },
  // Software reading the FHIR API as a staff account (issue 35).
  { value: 'api-clients', label: 'API Clients', capability: 'apiClients.manage' },
  // Patient groups API clients export with Group/{id}/$export (issue 53).
  { value: 'patient-groups', label: 'Patient Groups', capability: 'patientGroups.manage' },
] as const satisfies readonly { value: string; label: string; capability: TCapability }[];

export type TAdminTab = (typeof ADMIN_TABS)[number]['value'];

export const adminTabsFor = (user: TCurrentUser) => ADMIN_TABS.filter((tab) => can(user, tab.capability));

/** The panel's address with a tab and extra filters (the audit tab's patient, say); the first tab is left out. */
export function adminHref(tab: TAdminTab, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  search.set('tab', tab);
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  return `/admin?${search.toString()}`;
}
