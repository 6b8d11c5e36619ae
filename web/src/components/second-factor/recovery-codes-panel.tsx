import { useState } from 'react';
import { Copy, Download } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { buttonClass } from '../ui/button-variants.ts';
import { copyWithToast } from '../../lib/clipboard.ts';
import { formatClinicTime } from '#domain/clinic-time';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';

/** The codes as a file to keep: one per line, with what they are for. */
function codesFile(codes: string[], timeZone: string): string {
  return [`Recovery codes, made ${formatClinicTime(new Date(), timeZone)}`, 'Each works once, in place of a code from your app.', '', ...codes, ''].join('\n');
}

/**
 * Ten recovery codes, shown this once: the user saves them (a file, or a copy) and says so
 * before going on, because the server keeps only their hashes.
 */
export function RecoveryCodesPanel({ codes, onDone, doneLabel = 'Continue' }: { codes: string[]; onDone: () => void; doneLabel?: string }) {
  const { timeZone } = useClinicTimeZone();
  const [saved, setSaved] = useState(false);
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(codesFile(codes, timeZone))}`;
  const copy = () => copyWithToast(codes.join('\n'), 'Recovery codes copied', 'Download the file instead, or write the codes down.');
  return (
    <section aria-labelledby="recovery-codes-title" className="space-y-4" data-testid="recovery-codes">
      <div>
        <h3 id="recovery-codes-title" className="font-semibold text-slate-900">
          Save your recovery codes
        </h3>
        <p className="text-sm text-slate-600">
          If you lose your phone or your passkey, each code signs you in once in its place. They are shown only now: keep them somewhere safe, away from the
          device you sign in with.
        </p>
      </div>
      <ol className="grid grid-cols-1 gap-2 rounded-md border bg-slate-50 p-3 font-mono text-sm sm:grid-cols-2" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className="text-slate-900">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <a href={href} download="recovery-codes.txt" className={buttonClass({ variant: 'outline', size: 'sm' })} data-testid="recovery-codes-download">
          <Download aria-hidden="true" />
          Download
        </a>
        <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy
        </Button>
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="checkbox" className="mt-0.5 size-4" checked={saved} onChange={(event) => setSaved(event.target.checked)} />I have saved these codes
      </label>
      <Button type="button" disabled={!saved} onClick={onDone}>
        {doneLabel}
      </Button>
    </section>
  );
}
