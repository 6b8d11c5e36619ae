/** The product name shown in the top bar, landing page and document title. Change it here only. */
export const PRODUCT_NAME = 'MediCare EHR';

/** Server routes that start and end a session; both are full-page navigations, not fetches. */
export const LOGIN_PATH = '/api/login';
export const LOGOUT_PATH = '/api/logout';

/** The sign-in page that GET /api/login leads to (when no single sign-on is configured). */
export const SIGN_IN_PATH = '/login';
