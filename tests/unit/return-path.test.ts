import { describe, expect, it } from 'vitest';
import { returnPathAfterSignIn } from '#domain/auth';

describe('the page a browser returns to after signing in (issue 29)', () => {
  it('is the path it asked for, with its query', () => {
    expect(returnPathAfterSignIn('/notes')).toBe('/notes');
    expect(returnPathAfterSignIn('/appointments?tab=all&date=2026-11-25')).toBe('/appointments?tab=all&date=2026-11-25');
  });

  it('is the dashboard for anything not a path of this site, or a sign-in page', () => {
    for (const next of [
      undefined,
      null,
      42,
      '',
      'notes',
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/notes\nSet-Cookie: x',
      '/notes\u0000',
      '/login',
      '/login?next=%2Fnotes',
      '/set-password#t',
      '/api/auth/user',
      `/${'a'.repeat(2001)}`,
    ]) {
      expect(returnPathAfterSignIn(next), String(next)).toBe('/');
    }
  });
});
