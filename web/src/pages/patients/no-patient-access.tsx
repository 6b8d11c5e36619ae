import { ShieldOff } from 'lucide-react';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { PatientsHeader } from './patients-header.tsx';

/** /patients for a role without patient records (a supplier): said plainly, and no API call is made. */
export function NoPatientAccess() {
  return (
    <div className="mx-auto max-w-7xl">
      <PatientsHeader />
      <Card data-testid="patients-no-access">
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <ShieldOff className="size-8 text-slate-500" aria-hidden="true" />
          <p className="font-semibold text-slate-900">You have no access to patient records</p>
          <p className="max-w-md text-sm text-slate-600">
            Your role does not include patient records. Ask your clinic administrator if you need them for your work.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
