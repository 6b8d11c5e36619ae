import { FileJson, FileText } from 'lucide-react';
import { recordExportHref } from '../../api/patients/record-export.ts';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';

/**
 * 'Export record' (issue 35): a copy of the patient's whole record, which she has a right to
 * under HIPAA, as a readable PDF summary and as the FHIR R4 Bundle other systems import. Both are
 * read in the caller's scope, and each download is recorded in the patient's access log.
 */
export function ExportRecordDialog({ patientId, name, onClose }: { patientId: string; name: string; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent data-testid="export-record-dialog">
        <DialogHeader>
          <DialogTitle>Export record</DialogTitle>
          <DialogDescription>
            A copy of {name}&apos;s record: details, allergies, appointments, finalized notes and lab results you can see. Each download is recorded in the
            patient&apos;s access log.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-3 sm:grid-cols-2">
          <a href={recordExportHref(patientId, 'pdf')} download className={buttonClass({ variant: 'outline' })} data-testid="export-record-pdf">
            <FileText aria-hidden="true" />
            Summary (PDF)
          </a>
          <a href={recordExportHref(patientId, 'json')} download className={buttonClass({ variant: 'outline' })} data-testid="export-record-json">
            <FileJson aria-hidden="true" />
            FHIR R4 (JSON)
          </a>
        </div>
        <p className="text-xs text-slate-500">The JSON file is for another clinic&apos;s or an app&apos;s import; the PDF is for reading and printing.</p>
      </DialogContent>
    </Dialog>
  );
}
