import net from 'node:net';
import Client, { Message } from 'node-hl7-client';

/**
 * A lab's side of the interface, for tests: messages sent with node-hl7-client, a different
 * HL7 library from the one the app parses with (Medplum's), so the two must agree on the wire;
 * and a raw socket for what no library would send (torn frames, floods).
 */

/** Sends one message over MLLP with node-hl7-client and answers the acknowledgement's text. */
export async function sendHl7(port: number, text: string): Promise<string> {
  const version = text.split('\r', 1)[0]!.split('|')[11] ?? '2.5.1';
  const client = new Client({ host: '127.0.0.1', version } as ConstructorParameters<typeof Client>[0]);
  let connection: ReturnType<Client['createConnection']> | undefined;
  const ack = new Promise<string>((resolve) => {
    connection = client.createConnection({ port, maxAttempts: 1, autoConnect: false } as Parameters<Client['createConnection']>[0], async (res) => {
      resolve(res.getMessage().toString());
    });
  });
  try {
    await connection!.connect();
    await connection!.sendMessage(new Message({ text }));
    return await withTimeout(ack, 10_000, 'no acknowledgement');
  } finally {
    await connection!.close();
  }
}

const VT = 0x0b;
const FS = 0x1c;
const CR = 0x0d;
export const framed = (text: string | Buffer) =>
  Buffer.concat([Buffer.from([VT]), Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), Buffer.from([FS, CR])]);

/** A raw connection: what it was sent back (each acknowledgement unframed), and when it closed. */
export async function rawConnection(port: number) {
  const socket = net.connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    received = Buffer.concat([received, chunk]);
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const acks = () =>
    received
      .toString('utf8')
      .split(String.fromCharCode(FS, CR))
      .filter((s) => s.includes(String.fromCharCode(VT)))
      .map((s) => s.slice(s.indexOf(String.fromCharCode(VT)) + 1));
  return {
    socket,
    closed,
    acks,
    /** Resolves once `n` acknowledgements came back. */
    async waitForAcks(n: number, timeoutMs = 10_000): Promise<string[]> {
      const deadline = Date.now() + timeoutMs;
      while (acks().length < n) {
        if (Date.now() > deadline) throw new Error(`only ${acks().length} of ${n} acknowledgements`);
        await new Promise((resolve) => socket.once('data', resolve).once('close', resolve));
        if (socket.destroyed && acks().length < n) throw new Error(`closed after ${acks().length} of ${n} acknowledgements`);
      }
      return acks();
    },
  };
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
    }),
  ]);
}

/** A field of a segment of a message's text (HL7 numbering: MSH-1 is the separator). */
export function fieldOf(text: string, segment: string, field: number): string {
  const line = text.split('\r').find((l) => l.startsWith(`${segment}|`));
  if (!line) return '';
  const parts = line.split('|');
  return (segment === 'MSH' ? ['MSH', '|', ...parts.slice(1)] : parts)[field] ?? '';
}
