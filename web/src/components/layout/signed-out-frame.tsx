import { ArrowLeft, Stethoscope } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import { PRODUCT_NAME } from '../../lib/brand.ts';
import { useToastsBelow } from '../../lib/toast-offset.ts';

/**
 * The frame of the pages a signed-out visitor works in (sign in, set a password): the product
 * name and a way back home above one centred card.
 */
export function SignedOutFrame({ children }: { children: ReactNode }) {
  const headerRef = useRef<HTMLElement>(null);
  useToastsBelow(headerRef);
  return (
    <div className="flex min-h-full flex-col bg-gradient-to-b from-blue-50 to-slate-50">
      <header ref={headerRef} className="mx-auto flex w-full max-w-5xl items-center justify-between px-4 py-4 sm:px-6">
        <Link
          href="/"
          className="flex items-center gap-2 rounded-md font-bold text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <span className="flex size-8 items-center justify-center rounded-md bg-primary text-white">
            <Stethoscope className="size-4" aria-hidden="true" />
          </span>
          {PRODUCT_NAME}
        </Link>
        <Link
          href="/"
          className="flex items-center gap-1 rounded-md text-sm text-slate-700 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to home
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-12 pt-4 sm:items-center sm:px-6">{children}</main>
    </div>
  );
}
