import { returnPathAfterSignIn } from '#domain/sign-in-paths';

/** Where this sign-in page sends the browser once signed in: its `?next=`, if a path of this site (domain/sign-in-paths.ts). */
export const pathAfterSignIn = (): string => returnPathAfterSignIn(new URLSearchParams(window.location.search).get('next'));
