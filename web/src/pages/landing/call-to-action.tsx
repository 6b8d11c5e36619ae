import { buttonClass } from '../../components/ui/button-variants.ts';
import { LOGIN_PATH } from '../../lib/brand.ts';
import { ContactSalesButton } from './contact-dialog.tsx';

/**
 * 'Start Free Trial' goes to sign-in (spec). The spec gives 'View Demo' and 'Contact Sales'
 * no action; here View Demo also goes to sign-in, where demo mode lists the demo clinic's
 * accounts, and Contact Sales says how to get help with a clinic's own copy (docs/decisions/web-shell.md).
 */
export function CallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="bg-primary">
      <div className="mx-auto max-w-4xl px-4 py-20 text-center sm:px-6">
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight text-white">
          Ready to modernize your practice?
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-blue-100">Start your 30-day free trial today. No setup fees, and all 5 user roles included.</p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <a href={LOGIN_PATH} className={buttonClass({ size: 'lg', variant: 'inverse' })}>
            Start Free Trial
          </a>
          <ContactSalesButton />
          <a href={LOGIN_PATH} className={buttonClass({ size: 'lg', variant: 'outline-inverse' })}>
            View Demo
          </a>
        </div>
      </div>
    </section>
  );
}
