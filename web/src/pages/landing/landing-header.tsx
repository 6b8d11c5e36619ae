import { ShieldCheck, Stethoscope } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { LOGIN_PATH, PRODUCT_NAME } from '../../lib/brand.ts';

export function LandingHeader() {
  return (
    <header className="sticky top-0 z-20 border-b bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-1.5 px-3 sm:gap-3 sm:px-6">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary text-white sm:size-9">
          <Stethoscope className="size-5" aria-hidden="true" />
        </span>
        <span className="whitespace-nowrap text-base font-bold text-slate-900 sm:text-lg">{PRODUCT_NAME}</span>
        <Badge variant="outline" className="shrink-0 gap-1 border-green-200 bg-green-50 px-1.5 text-green-800 sm:px-2.5" data-testid="hipaa-badge">
          <ShieldCheck className="size-3.5" aria-hidden="true" />
          HIPAA<span className="hidden sm:inline"> Compliant</span>
        </Badge>
        {/* Compact under 640 px: at 375 px the full-size row was wider than the screen. */}
        <a href={LOGIN_PATH} className={buttonClass({ size: 'sm', className: 'ml-auto shrink-0 sm:h-10 sm:px-4' })}>
          Get Started
        </a>
      </div>
    </header>
  );
}
