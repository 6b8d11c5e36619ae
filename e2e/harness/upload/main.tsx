// The upload widget alone, as a form would hold it, for e2e/upload-widget.test.ts: served by a
// Vite dev server that proxies /api to a real app server (e2e/helpers/harness.ts).
import { createRoot } from 'react-dom/client';
import './harness.css';
import { Toaster } from '../../../web/src/components/ui/toaster.tsx';
import { Button } from '../../../web/src/components/ui/button.tsx';
import { FileUpload } from '../../../web/src/components/upload/file-upload.tsx';
import { useFileUploader } from '../../../web/src/components/upload/use-file-uploader.ts';

function Harness() {
  const uploader = useFileUploader({ purpose: 'patient-attachment', maxFiles: 5 });
  return (
    <div className="mx-auto max-w-xl space-y-4 p-4">
      <h1 className="text-lg font-semibold">Attachments</h1>
      <FileUpload uploader={uploader} purpose="patient-attachment" hint="Supports: JPG, PNG, PDF, DOC (Max 10MB each)" />
      <Button disabled={uploader.busy} data-testid="submit">
        Save
      </Button>
      <pre data-testid="attachments">{JSON.stringify(uploader.attachments)}</pre>
      <Toaster />
    </div>
  );
}

createRoot(document.getElementById('root')!).render(<Harness />);
