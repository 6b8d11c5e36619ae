import type { TRole } from '#domain/roles';
import { createUser, TEST_PASSWORD } from './factories.ts';
import { Client, type TestApp } from './test-app.ts';

/** A new user of the role, signed in through the real endpoint. */
export async function signInAs(t: TestApp, role: TRole) {
  const user = await createUser(t.db, { role });
  const client = new Client(t.app);
  const res = await client.post('/api/auth/login', { email: user.email, password: TEST_PASSWORD });
  if (res.statusCode !== 200) throw new Error(`sign-in as ${role} failed: ${res.statusCode} ${res.body}`);
  return Object.assign(client, { user });
}

export const anonymous = (t: TestApp) => new Client(t.app);

export type SignedIn = Awaited<ReturnType<typeof signInAs>>;
