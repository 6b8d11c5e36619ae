import { Stethoscope } from 'lucide-react';
import { PRODUCT_NAME } from '../../lib/brand.ts';

export function LandingFooter() {
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div>
          <p className="flex items-center gap-2 font-semibold text-white">
            <Stethoscope className="size-5" aria-hidden="true" />
            {PRODUCT_NAME}
          </p>
          <p className="mt-2 text-sm">Practice management and electronic health records for medical clinics.</p>
        </div>
        <p className="text-sm">
          HIPAA compliant · Role-based access · Real-time updates
          <br />© {new Date().getFullYear()} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
