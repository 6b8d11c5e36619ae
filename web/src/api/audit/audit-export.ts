import { queryKeyToUrl } from '../../lib/api-request.ts';
import type { TAuditFilterValues } from './audit-events.ts';

/** GET /api/admin/audit/export.csv with the viewer's filters: a plain link, so the browser downloads the stream. */
export function auditExportHref(filters: TAuditFilterValues): string {
  return queryKeyToUrl(['/api/admin/audit/export.csv', { ...filters }]);
}
