import { Copy } from 'lucide-react';
import { useId } from 'react';
import { formatClinicTime } from '#domain/clinic-time';
import type { TPasswordLink } from '#domain/users';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { copyWithToast } from '../../lib/clipboard.ts';

/** A one-time link, shown once: the admin copies it and hands it over. */
export function LinkPanel({ link }: { link: TPasswordLink }) {
  const id = useId();
  const { timeZone } = useClinicTimeZone();
  const copy = () => copyWithToast(link.url, 'Link copied', 'Select the link and copy it yourself.');
  return (
    <div className="space-y-2 rounded-md border border-blue-200 bg-blue-50 p-3" data-testid="password-link">
      <Label htmlFor={id}>{link.purpose === 'invite' ? 'Invite link' : 'Password reset link'}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input id={id} readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
        <Button type="button" variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy link
        </Button>
      </div>
      <p className="text-sm text-slate-700">
        Hand this link to the person; it works once and expires {formatClinicTime(link.expiresAt, timeZone)}. It will not be shown again.
      </p>
    </div>
  );
}
