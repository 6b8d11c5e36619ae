import net from 'node:net';
import { CR, FS, frame, VT } from './mllp-frame.ts';

/**
 * The MLLP transport (HL7's minimal lower layer protocol): a message is the bytes between a
 * start block (VT) and an end block (FS CR), and each is answered on the same connection.
 * Medplum's own server buffers without a limit and listens on every address, so the transport is
 * this small file, written for a listener on a clinic's network: one address, a cap on
 * connections, on a message's size and on how long a message may take, messages answered in
 * the order they came, and a connection closed (never the process) for anything malformed.
 */

/** Of a message over the size limit, what is kept to read its header and answer it. */
const HEAD_BYTES = 64 * 1024;
/** Frames waiting on one connection before it is read no further until they are answered. */
const QUEUE_HIGH = 8;

export interface TMllpOptions {
  host: string;
  port: number;
  maxMessageBytes: number;
  maxConnections: number;
  idleMs: number;
}

export interface TMllpHandlers {
  /** A whole message: the acknowledgement to send, or null to close without one. Throwing closes too (the sender sends it again). */
  message(bytes: Buffer, peer: string): Promise<{ ack: string | null }>;
  /** A message over the size limit, as far as it was read. */
  oversize(head: Buffer, peer: string): Promise<{ ack: string | null }>;
}

export interface TMllpLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface TMllpListener {
  readonly port: number;
  close(): Promise<void>;
}

export async function listenMllp(options: TMllpOptions, handlers: TMllpHandlers, log: TMllpLog): Promise<TMllpListener> {
  const sockets = new Set<net.Socket>();
  const working = new Set<Promise<void>>();

  const server = net.createServer((socket) => {
    const peer = socket.remoteAddress ?? 'unknown';
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', (error) => log.warn({ peer, err: error.message }, 'lab interface: connection error'));
    socket.setNoDelay(true);
    // Labs keep a connection open between messages; one silent ten times a message's deadline is let go.
    socket.setTimeout(options.idleMs * 10, () => {
      log.info({ peer }, 'lab interface: idle connection closed');
      socket.destroy();
    });

    let inFrame = false;
    let parts: Buffer[] = [];
    let size = 0;
    let lastWasFs = false;
    let frameTimer: NodeJS.Timeout | undefined;
    let queue: Promise<void> = Promise.resolve();
    let queued = 0;
    let closing = false;

    const startFrame = () => {
      inFrame = true;
      parts = [];
      size = 0;
      lastWasFs = false;
      // A sender that drips a message byte by byte keeps the connection from idling: the message itself has a deadline.
      frameTimer = setTimeout(() => {
        log.warn({ peer, bytes: size }, 'lab interface: a message not finished in time (torn frame), connection closed');
        socket.destroy();
      }, options.idleMs);
    };
    const endFrame = () => {
      inFrame = false;
      clearTimeout(frameTimer);
    };
    socket.on('close', () => clearTimeout(frameTimer));

    /** Answers in the order messages came; the connection closes when a message gets no answer. */
    const enqueue = (work: () => Promise<{ ack: string | null }>, last: boolean) => {
      queued += 1;
      if (queued >= QUEUE_HIGH) socket.pause();
      const run = queue.then(async () => {
        if (socket.destroyed) return;
        try {
          const { ack } = await work();
          if (ack === null) socket.destroy();
          else if (last) socket.end(frame(ack));
          else socket.write(frame(ack));
        } catch (error) {
          log.error(
            { peer, err: error instanceof Error ? error.message : String(error) },
            'lab interface: a message could not be kept; closed without an answer, for the sender to send it again',
          );
          socket.destroy();
        } finally {
          queued -= 1;
          if (queued < QUEUE_HIGH / 2 && !closing) socket.resume();
        }
      });
      const tracked = run.finally(() => working.delete(tracked));
      working.add(tracked);
      queue = run;
    };

    const complete = (message: Buffer) => {
      endFrame();
      enqueue(() => handlers.message(message, peer), false);
    };

    socket.on('data', (chunk: Buffer) => {
      if (closing) return;
      let i = 0;
      while (i < chunk.length) {
        if (!inFrame) {
          const start = chunk.indexOf(VT, i);
          if (start < 0) break; // Bytes between messages (a stray newline) are not a message.
          startFrame();
          i = start + 1;
          continue;
        }
        if (lastWasFs) {
          lastWasFs = false;
          if (chunk[i] === CR) {
            const whole = Buffer.concat(parts, size);
            complete(whole.subarray(0, whole.length - 1));
            i += 1;
            continue;
          }
        }
        const end = chunk.indexOf(FS, i);
        const restart = chunk.indexOf(VT, i);
        if (restart >= 0 && (end < 0 || restart < end)) {
          // A new start block before this message ended: the sender gave up on it.
          log.warn({ peer, bytes: size + restart - i }, 'lab interface: a message without its end block (torn frame), discarded');
          endFrame();
          i = restart;
          continue;
        }
        // The part of the chunk up to the end block (FS CR), or all of it; an FS alone at the chunk's end may be followed by CR in the next.
        const ends = end >= 0 && end + 1 < chunk.length && chunk[end + 1] === CR;
        const upTo = end < 0 ? chunk.length : ends ? end : end + 1;
        const part = chunk.subarray(i, upTo);
        parts.push(part);
        size += part.length;
        if (size > options.maxMessageBytes) {
          endFrame();
          // The rest is read and dropped, not left unread: closing on unread bytes resets the
          // connection, and the sender could lose the refusal sent just before.
          closing = true;
          const head = Buffer.concat(parts, size).subarray(0, HEAD_BYTES);
          parts = [];
          enqueue(() => handlers.oversize(head, peer), true);
          return;
        }
        if (ends) {
          complete(Buffer.concat(parts, size));
          i = end + 2;
        } else {
          lastWasFs = end === chunk.length - 1;
          i = upTo;
        }
      }
    });
  });
  server.maxConnections = options.maxConnections;
  server.on('drop', (data) => log.warn({ peer: data?.remoteAddress, max: options.maxConnections }, 'lab interface: too many connections, one refused'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => log.error({ err: error.message }, 'lab interface: listener error'));
  const address = server.address() as net.AddressInfo;
  log.info({ host: options.host, port: address.port }, 'lab interface: listening for HL7 v2 over MLLP');
  return {
    port: address.port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Messages being kept are finished (their senders get their answers); then every connection ends.
        void Promise.allSettled([...working]).then(() => {
          for (const socket of sockets) socket.destroy();
        });
      });
    },
  };
}
