import { X } from 'lucide-react';
import { useRef, type MouseEvent } from 'react';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { LOGIN_PATH, PRODUCT_NAME } from '../../lib/brand.ts';
import { isDemoMode } from '../../lib/demo-mode.ts';

/**
 * 'Contact Sales' (the spec names the button and shows no action): a clinic runs this software
 * on its own server, so there is no sales desk to write to. The button says how to get help
 * instead, in a native modal <dialog> (focus kept inside, Escape closes, focus returns to the
 * button), which costs the visitor's first page no dialog library (docs/decisions/web-shell.md).
 */
export function ContactSalesButton() {
  const dialog = useRef<HTMLDialogElement>(null);
  const demo = isDemoMode();
  // A click on the dimmed backdrop lands on the <dialog> itself: it closes, as Escape does.
  const closeOnBackdrop = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget) event.currentTarget.close();
  };

  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        className={buttonClass({ size: 'lg', variant: 'outline-inverse' })}
        onClick={() => dialog.current?.showModal()}
      >
        Contact Sales
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="contact-title"
        aria-describedby="contact-summary"
        data-testid="contact-dialog"
        onClick={closeOnBackdrop}
        className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-lg border bg-white p-0 text-left text-slate-900 shadow-lg backdrop:bg-[rgb(0_0_0/0.6)]"
      >
        <div className="relative space-y-4 p-6">
          <h2 id="contact-title" className="pr-8 text-lg font-semibold">
            Getting help with {PRODUCT_NAME}
          </h2>
          <p id="contact-summary" className="text-sm text-slate-700">
            {PRODUCT_NAME} runs on your clinic&apos;s own server, so help comes from the people who run it there, not from a sales desk.
          </p>
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="font-semibold">Working at a clinic that uses it?</dt>
              <dd className="text-slate-700">
                Your clinic&apos;s administrator looks after accounts, roles and password resets: ask them for access or a new sign-in link.
              </dd>
            </div>
            <div>
              <dt className="font-semibold">Trying it out?</dt>
              <dd className="text-slate-700">
                {demo
                  ? 'This server runs the demo clinic: the sign-in page lists its accounts, one for each role.'
                  : 'Sign in with the account your administrator gave you.'}
              </dd>
            </div>
            <div>
              <dt className="font-semibold">Setting it up for your clinic?</dt>
              <dd className="text-slate-700">
                The README that comes with the software explains installing it, creating the first admin account and every setting.
              </dd>
            </div>
          </dl>
          <form method="dialog" className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <button type="submit" className={buttonClass({ variant: 'outline' })}>
              Close
            </button>
            <a href={LOGIN_PATH} className={buttonClass({})}>
              {demo ? 'View Demo' : 'Sign in'}
            </a>
          </form>
          <form method="dialog" className="absolute right-4 top-4">
            <button
              type="submit"
              aria-label="Close"
              className="rounded-sm p-1 opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </form>
        </div>
      </dialog>
    </>
  );
}
