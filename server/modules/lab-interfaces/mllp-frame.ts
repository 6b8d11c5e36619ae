/** MLLP's framing (HL7 v2's minimal lower layer protocol): start block, message, end block and carriage return. */
export const VT = 0x0b;
export const FS = 0x1c;
export const CR = 0x0d;

export const frame = (text: string) => Buffer.concat([Buffer.from([VT]), Buffer.from(text, 'utf8'), Buffer.from([FS, CR])]);
