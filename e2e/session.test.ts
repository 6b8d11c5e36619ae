import { describe, expect, it } from 'vitest';
import { DEMO_EMAILS, DEMO_PASSWORD, signInAs } from './helpers/auth.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();
const LOGGED_OUT_TEXT = 'You are logged out. Logging in again...';

describe('logged-out handling', () => {
  it('an expired session mid-use shows the Unauthorized toast, then goes to sign in', async () => {
    const { page, context } = e2e;
    await signInAs(page, 'nurse');
    await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();

    // Timed inside the page, so a slow test machine cannot blur the 500 ms delay.
    await page.evaluate((text) => {
      const observer = new MutationObserver(() => {
        if (!sessionStorage.getItem('toastAt') && document.body.innerText.includes(text)) {
          sessionStorage.setItem('toastAt', String(Date.now()));
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      addEventListener('pagehide', () => sessionStorage.setItem('leftAt', String(Date.now())));
    }, LOGGED_OUT_TEXT);

    await context.clearCookies(); // the session cookie is gone, as when it expires
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Patients' }).click();

    await page.getByText(LOGGED_OUT_TEXT, { exact: true }).waitFor();
    expect(await page.getByText('Unauthorized', { exact: true }).isVisible()).toBe(true);
    // Then /api/login, which leads a browser without a session to the sign-in page, keeping the
    // page that was asked for.
    await page.waitForURL('/login?next=%2Fpatients');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const [toastAt, leftAt] = await page.evaluate(() => [sessionStorage.getItem('toastAt'), sessionStorage.getItem('leftAt')]);
    expect(Number(leftAt) - Number(toastAt)).toBeGreaterThanOrEqual(450);
  });

  it('any call answered 401 Unauthorized leads to the same handling', async () => {
    const { page } = e2e;
    await signInAs(page, 'scribe');
    // The user check still passes; only the stats call finds the session gone.
    await page.route('**/api/dashboard/stats', (route) => route.fulfill({ status: 401, json: { message: 'Unauthorized' } }));
    const leaving = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/login');
    await page.goto('/');
    await page.getByText(LOGGED_OUT_TEXT, { exact: true }).waitFor();
    // The real session is still valid, so the server sends this browser on from /api/login to
    // '/'; what matters here is that the app left for /api/login.
    await leaving;
    // Back on '/', the intercepted call would send it round again: stop the loop.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.goto('about:blank');
  });

  it('a visitor opening a signed-in screen is sent to sign in, and comes back to it after (issue 29)', async () => {
    const { page } = e2e;
    // The toast shows for 500 ms before the page leaves: watched from inside the page, so a busy
    // machine cannot make the test miss it.
    await page.addInitScript((text) => {
      new MutationObserver(() => {
        if (document.body?.innerText.includes(text)) sessionStorage.setItem('sawLoggedOut', 'yes');
      }).observe(document, { subtree: true, childList: true, characterData: true });
    }, LOGGED_OUT_TEXT);
    await page.goto('/notes?tab=reviewed');
    await page.waitForURL('/login?next=%2Fnotes%3Ftab%3Dreviewed');
    expect(await page.evaluate(() => sessionStorage.getItem('sawLoggedOut'))).toBe('yes');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(DEMO_EMAILS.scribe);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('/notes?tab=reviewed');
  });

  it("shows a full-screen 'Loading...' while the sign-in check runs", async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/user', async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.getByRole('status').getByText('Loading...').waitFor();
    release();
    await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
    expect(await page.getByText('Loading...').count()).toBe(0);
  });

  it('shows a visitor the landing page without asking who is signed in', async () => {
    const { page } = e2e;
    const checks: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/user') checks.push(request.url());
    });
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
    // No check, so no 401 for the browser to log as an error (Lighthouse counts those).
    expect(checks).toEqual([]);
  });

  it('a signed-in hint without a session costs one check, then shows the landing page', async () => {
    const { page, context, baseUrl } = e2e;
    await context.addCookies([{ name: 'signed_in', value: '1', url: baseUrl }]);
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
    // The 401 cleared the stale hint, so the next visit asks nothing.
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('signed_in');
  });

  it('shows the not-found page to a signed-in user too', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin', { landOn: '/no-such-screen' });
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
  });
});
