import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (19 MiB, 2 passes), the OWASP baseline.
export const hashPassword = (password: string) => hash(password);

// Verifying against this when the email is unknown keeps the answer time the same,
// so timing does not reveal which emails have accounts.
const decoy = hash('decoy-password-for-unknown-accounts');

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
