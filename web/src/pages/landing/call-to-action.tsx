import { Button } from '../../components/ui/button.tsx';
import { LOGIN_PATH, SALES_EMAIL } from '../../lib/brand.ts';

/**
 * 'Start Free Trial' goes to sign-in (spec). The spec gives 'View Demo' and 'Contact Sales'
 * no action; here View Demo also goes to sign-in, where demo mode lists the demo clinic's
 * accounts, and Contact Sales opens an email (docs/decisions/web-shell.md).
 */
export function CallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="bg-primary">
      <div className="mx-auto max-w-4xl px-4 py-20 text-center sm:px-6">
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight text-white">
          Ready to modernize your practice?
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-blue-100">
          Start your 30-day free trial today. No setup fees, and all 5 user roles included.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Button asChild size="lg" variant="inverse">
            <a href={LOGIN_PATH}>Start Free Trial</a>
          </Button>
          <Button asChild size="lg" variant="outline-inverse">
            <a href={`mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Sales enquiry')}`}>Contact Sales</a>
          </Button>
          <Button asChild size="lg" variant="outline-inverse">
            <a href={LOGIN_PATH}>View Demo</a>
          </Button>
        </div>
      </div>
    </section>
  );
}
