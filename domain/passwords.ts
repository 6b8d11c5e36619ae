/**
 * The password rules (docs/security.md, 'Passwords'), shared by the set-password page and the
 * server, which decides. Length is what makes a password strong: no composition rules, which
 * push people to 'Password1!'. A short list of the passwords attackers try first is refused,
 * and so is one built on the account's own email name.
 */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

const COMMON = [
  'password',
  'passw0rd',
  '123456',
  '12345678',
  '123456789',
  '1234567890',
  'qwerty',
  'qwertyuiop',
  'letmein',
  'welcome',
  'iloveyou',
  'admin',
  'abc123',
  'monkey',
  'dragon',
  'sunshine',
  'football',
  'baseball',
  'princess',
  'trustno1',
  'changeme',
  'medicare',
  'clinic',
  'hospital',
  'nurse',
  'doctor',
  'health',
  'patient',
];

/** Why this password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters`;
  if (new Set(password).size < 4) return 'Use more different characters';
  // 'Password2026', 'qwertyqwerty', '123456789012': a common word, repeated or with digits after it.
  const plain = password.toLowerCase().replace(/[^a-z0-9]/g, '');
  const base = plain.replace(/\d+$/, '');
  const repeats = (word: string) => base.length >= word.length && word.repeat(Math.ceil(base.length / word.length)).startsWith(base);
  if (base === '' || COMMON.some(repeats)) return 'This password is too common; choose another';
  const name =
    email
      .split('@')[0]
      ?.toLowerCase()
      .replace(/[^a-z0-9]/g, '') ?? '';
  if (name.length >= 4 && plain.includes(name)) return 'Do not use your email name in your password';
  return null;
}
