import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');
const u32 = (n: number) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/**
 * A software WebAuthn authenticator for API tests: an ES256 key pair, 'none' attestation, a
 * signature counter. It answers options exactly as a browser passes them on, so the server's
 * real verification (@simplewebauthn/server) runs on what it makes. The browser tests use
 * Chromium's own virtual authenticator instead.
 */
export function softAuthenticator(origin: string, opts: { verifiesUser?: boolean; discoverable?: boolean } = {}) {
  const { verifiesUser = true, discoverable = true } = opts;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(16);
  let counter = 0;
  const rpIdHash = () => sha256(new URL(origin).hostname);
  const flags = (attested: boolean) => UP | (verifiesUser ? UV : 0) | (attested ? AT : 0);
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    credentialId: b64url(credentialId),
    /** The answer to navigator.credentials.create with these options. */
    register(options: { challenge: string }) {
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const idLength = Buffer.from([(credentialId.length >> 8) & 255, credentialId.length & 255]);
      const authData = Buffer.concat([rpIdHash(), Buffer.from([flags(true)]), u32(counter), Buffer.alloc(16), idLength, credentialId, cose]);
      const attestation: [string, string | Uint8Array | Map<string, string>][] = [
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ];
      const attestationObject = isoCBOR.encode(new Map(attestation));
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal' as const],
        },
        clientExtensionResults: { credProps: { rk: discoverable } },
      };
    },
    /** The answer to navigator.credentials.get with these options: each one a signature count higher. */
    authenticate(options: { challenge: string }) {
      counter += 1;
      const authData = Buffer.concat([rpIdHash(), Buffer.from([flags(false)]), u32(counter)]);
      const clientDataJSON = clientData('webauthn.get', options.challenge);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature) },
        clientExtensionResults: {},
      };
    },
  };
}
