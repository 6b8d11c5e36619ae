/**
 * A cookie the page can read, set with every load of the web app's page while the server runs
 * in demo mode (and cleared when it does not), so every screen shows the demo banner without
 * asking the API: a visitor's landing page makes no request, and a 404 from asking outside demo
 * mode would be logged by the browser as an error. It grants nothing; the server never reads it
 * except to clear a stale one.
 */
export const DEMO_HINT_COOKIE = 'demo_clinic';

/** The banner on every page in demo mode: demo data is never patient data. */
export const DEMO_BANNER_TEXT = 'Demo clinic — not for patient data';
