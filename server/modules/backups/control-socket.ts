import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * How `npm run backup` reaches the running app (issue 36): the embedded engine lives inside the
 * app's process, so only that process can take a consistent copy of it. The app listens on a
 * Unix socket in a directory of DATA_DIR that only its own user may enter; whoever can connect
 * could read DATA_DIR anyway. One JSON line asks; the app says at once that it took it
 * (`{"taken":true}`), and one more JSON line answers when the backup is done. A client that
 * hears nothing in ACK_TIMEOUT_MS is talking to a frozen app, and says so (issue 48).
 */
export const ACK_TIMEOUT_MS = 10_000;
export const controlSocketPath = (dataDir: string) => path.join(dataDir, 'run', 'control.sock');

export const ZControlRequest = z.object({ op: z.literal('backup'), dest: z.string().min(1), includeKeys: z.boolean(), create: z.boolean().default(false) });
/** What a client sends (`create` may be left out), and what the app hands its handler. */
export type TControlRequest = z.input<typeof ZControlRequest>;
type TTakenRequest = z.output<typeof ZControlRequest>;
export type TControlAnswer = { ok: true; dir: string; bytes: number; objects: number } | { ok: false; message: string };

export async function serveControlSocket(dataDir: string, handle: (request: TTakenRequest) => Promise<TControlAnswer>): Promise<() => Promise<void>> {
  const file = controlSocketPath(dataDir);
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await fs.promises.chmod(path.dirname(file), 0o700);
  // A socket file left by a process that died: the data directory's lock says none runs now.
  await fs.promises.rm(file, { force: true });
  const server = net.createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 10_000) socket.destroy();
      const end = text.indexOf('\n');
      if (end < 0) return;
      socket.pause();
      let answer: Promise<TControlAnswer>;
      try {
        const request = ZControlRequest.safeParse(JSON.parse(text.slice(0, end)));
        if (request.success) socket.write(`${JSON.stringify({ taken: true })}\n`);
        answer = request.success ? handle(request.data) : Promise.resolve({ ok: false, message: 'Not a request this server understands.' });
      } catch {
        answer = Promise.resolve({ ok: false, message: 'Not JSON.' });
      }
      void answer
        .catch((error: unknown): TControlAnswer => ({ ok: false, message: error instanceof Error ? error.message : String(error) }))
        .then((a) => socket.end(`${JSON.stringify(a)}\n`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Asks the app running on `dataDir`; null when none listens there (not running, or an older version). */
export async function askRunningApp(dataDir: string, request: TControlRequest, ackTimeoutMs = ACK_TIMEOUT_MS): Promise<TControlAnswer | null> {
  const file = controlSocketPath(dataDir);
  if (!fs.existsSync(file)) return null;
  return new Promise((resolve, reject) => {
    const socket = net.connect(file);
    let text = '';
    // A frozen app still has its socket accept (the kernel does): only its own word says it is alive.
    const frozen = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `The running app took the request but did not answer within ${ackTimeoutMs / 1000} s: it may be frozen. Check it (its log, its health at /api/health), restart it, and run this again.`,
        ),
      );
    }, ackTimeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) clearTimeout(frozen);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(frozen);
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(null);
      else reject(error);
    });
    socket.on('end', () => {
      clearTimeout(frozen);
      try {
        const lines = text.split('\n').filter(Boolean);
        resolve(JSON.parse(lines.at(-1) ?? '') as TControlAnswer);
      } catch {
        reject(new Error(`The running app answered something unreadable: ${text.slice(0, 200)}`));
      }
    });
  });
}
