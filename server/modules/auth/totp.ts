import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 seconds. */
const PERIOD_S = 30;
/** One step either side: a phone's clock a little off, or a code typed as it turned over. */
const WINDOW = 1;

const totpOf = (secret: string, issuer: string, account: string) =>
  new TOTP({ issuer, label: account, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secret) });

/** A new secret (160 bits, as RFC 4226 recommends), in base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an app scans, and the same as a QR code in SVG. */
export async function totpEnrolment(secret: string, issuer: string, account: string): Promise<{ uri: string; qrSvg: string }> {
  const uri = totpOf(secret, issuer, account).toString();
  return { uri, qrSvg: await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) };
}

/**
 * The time step a code belongs to, or null when it is not valid now. The caller accepts a step
 * only once, and only after the last one taken (no replay inside the window).
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  const delta = totpOf(secret, 'x', 'x').validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
}

/** The code of a step, for tests and for the demo's own checks. */
export const totpCodeAt = (secret: string, at: Date): string => totpOf(secret, 'x', 'x').generate({ timestamp: at.getTime() });
