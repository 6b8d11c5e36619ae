import { TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { TDuplicatePatients } from '#domain/patients';
import { Button } from '../../components/ui/button.tsx';
import { formatDateOfBirth, fullName } from '../../lib/patient-format.ts';

/**
 * Shown when the server finds patients with the same name and date of birth: the user either
 * creates the patient anyway (a different person) or cancels (the patient is already on file).
 */
export function DuplicateWarning({
  duplicates,
  saving,
  onCreateAnyway,
  onCancel,
}: {
  duplicates: TDuplicatePatients['duplicates'];
  saving: boolean;
  onCreateAnyway: () => void;
  onCancel: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The warning appears at the foot of a long form: bring it into view and give it focus.
  useEffect(() => {
    heading.current?.focus();
  }, []);

  const one = duplicates.length === 1;
  return (
    <section
      role="alert"
      aria-labelledby="duplicate-warning-heading"
      data-testid="duplicate-warning"
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm"
    >
      <div className="flex gap-3">
        <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
        <div className="space-y-2">
          <h3 id="duplicate-warning-heading" ref={heading} tabIndex={-1} className="font-semibold text-amber-950 focus:outline-none">
            Possible duplicate patient
          </h3>
          <p className="text-amber-900">
            {one ? 'A patient' : `${duplicates.length} patients`} with the same name and date of birth {one ? 'already exists' : 'already exist'}. If this is a
            different person, create the record anyway; if it is the same person, cancel and use the existing record.
          </p>
          <ul className="space-y-1">
            {duplicates.map((duplicate) => (
              <li key={duplicate.id} className="font-medium text-amber-950" data-testid="duplicate-match">
                {fullName(duplicate)}
                <span className="font-normal text-amber-900">
                  {' · '}
                  {duplicate.dateOfBirth ? `born ${formatDateOfBirth(duplicate.dateOfBirth)}` : 'No DOB'}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" size="sm" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button size="sm" onClick={onCreateAnyway} disabled={saving}>
          Create anyway
        </Button>
      </div>
    </section>
  );
}
