import net from 'node:net';
import { CR, FS, frame, VT } from './mllp-frame.ts';

/**
 * One message sent to a lab over MLLP and its acknowledgement read back (issue 54, orders out):
 * connect, write the frame, read up to the end block, close. Whatever goes wrong (refused,
 * unreachable, no answer in time, a torn answer) rejects with a reason an admin can act on.
 */
export function sendMllp(target: { host: string; port: number }, text: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.host, port: target.port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | null, answer?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const timer = setTimeout(() => finish(new Error(`No acknowledgement from ${target.host}:${target.port} within ${timeoutMs / 1000} s`)), timeoutMs);
    socket.setNoDelay(true);
    socket.once('connect', () => socket.write(frame(text)));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      const start = all.indexOf(VT);
      const end = all.indexOf(Buffer.from([FS, CR]), start + 1);
      if (start >= 0 && end > start) finish(null, all.subarray(start + 1, end).toString('utf8'));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish(new Error(`${target.host}:${target.port}: ${error.code ?? error.message}`)));
    socket.on('close', () => finish(new Error(`${target.host}:${target.port} closed the connection without an acknowledgement`)));
  });
}
