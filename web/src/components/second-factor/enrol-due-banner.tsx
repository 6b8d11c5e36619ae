import { ShieldAlert } from 'lucide-react';
import { Link } from 'wouter';
import type { TEnrolment } from '#domain/second-factor';
import { formatClinicTime } from '#domain/clinic-time';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';

/** While the clinic requires a second factor and the grace runs: how long is left, and where to set it up. */
export function EnrolDueBanner({ enrolment }: { enrolment: TEnrolment }) {
  const { timeZone } = useClinicTimeZone();
  if (enrolment.status !== 'due' || !enrolment.deadline) return null;
  const deadline = formatClinicTime(enrolment.deadline, timeZone, 'day');
  return (
    <div
      role="status"
      data-testid="enrol-due"
      className="mb-4 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <ShieldAlert className="size-4 shrink-0" aria-hidden="true" />
      <span>
        Your clinic requires a second factor. Set one up by <strong>{deadline}</strong>, or you will only be able to set it up after that.
      </span>
      <Link href="/account/security" className="font-semibold underline underline-offset-2 hover:text-amber-950">
        Set it up now
      </Link>
    </div>
  );
}
