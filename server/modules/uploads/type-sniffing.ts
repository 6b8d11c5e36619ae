import type { TFileType } from '#domain/files';

/**
 * What a file is, read from its bytes, never from its name or the type the client declared
 * (those are only checked against this). Recognises exactly the types attachments allow;
 * anything else is null and refused.
 */
export interface SniffInput {
  /** The first bytes of the file (at least the first 8 KiB, or all of a smaller file). */
  head: Buffer;
  size: number;
  /** Reads any range of the file (inclusive end), for formats identified by their end. */
  readRange(start: number, end: number): Promise<Buffer>;
}

const startsWith = (b: Buffer, ...bytes: number[]) => bytes.every((v, i) => b[i] === v);

export async function sniffType({ head, size, readRange }: SniffInput): Promise<TFileType | null> {
  if (startsWith(head, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (startsWith(head, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  // OLE2 compound file: Word 97-2003 (it also holds old Excel and PowerPoint; the name decides).
  if (startsWith(head, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return 'application/msword';
  if (startsWith(head, 0x50, 0x4b, 0x03, 0x04))
    return (await isWordDocument(size, readRange)) ? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' : null;
  if (isPlainText(head, size)) return 'text/plain';
  return null;
}

/**
 * A zip is a Word document when its central directory (at the end of the file) names
 * `[Content_Types].xml` and entries under `word/`. Two small range reads, whatever the size.
 */
async function isWordDocument(size: number, readRange: SniffInput['readRange']): Promise<boolean> {
  // The end-of-central-directory record: 22 bytes plus a comment of at most 65535.
  const tailStart = Math.max(0, size - (22 + 65_535));
  const tail = await readRange(tailStart, size - 1);
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > tail.length) return false;
  const directoryBytes = tail.readUInt32LE(eocd + 12);
  const directoryStart = tail.readUInt32LE(eocd + 16);
  if (directoryBytes === 0 || directoryBytes > 4 * 1024 * 1024 || directoryStart + directoryBytes > size) return false;
  const directory = await readRange(directoryStart, directoryStart + directoryBytes - 1);
  const names: string[] = [];
  for (let at = 0; at + 46 <= directory.length && directory.readUInt32LE(at) === 0x02014b50;) {
    const nameBytes = directory.readUInt16LE(at + 28);
    const extraBytes = directory.readUInt16LE(at + 30);
    const commentBytes = directory.readUInt16LE(at + 32);
    names.push(directory.subarray(at + 46, at + 46 + nameBytes).toString('utf8'));
    at += 46 + nameBytes + extraBytes + commentBytes;
  }
  return names.includes('[Content_Types].xml') && names.some((name) => name.startsWith('word/'));
}

/**
 * Text a person wrote: valid UTF-8 with no control characters but tab and line breaks, and not
 * markup a browser would run (HTML, SVG, XML), even though it is only ever served as an
 * attachment with nosniff.
 */
function isPlainText(head: Buffer, size: number): boolean {
  // A multi-byte character may be cut at the end of the sample: leave its bytes out.
  let sample = head;
  if (head.length < size) {
    let cut = head.length;
    for (let back = 1; back <= 3 && cut - back >= 0; back += 1) {
      const byte = head[cut - back]!;
      if ((byte & 0xc0) === 0xc0) {
        cut -= back;
        break;
      }
      if ((byte & 0x80) === 0) break;
    }
    sample = head.subarray(0, cut);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(sample);
  } catch {
    return false;
  }
  // Control characters other than tab, line feed, form feed and carriage return.
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text)) return false;
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 256)
    .toLowerCase();
  return !/^<(!doctype|html|head|body|script|svg|\?xml|iframe|object|embed|!--)/.test(start) && !/<(script|html|svg)[\s>]/.test(text.toLowerCase());
}
