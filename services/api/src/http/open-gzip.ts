import { constants, crc32, deflateRawSync } from 'node:zlib';

/** A gzip member's header (RFC 1952): deflate, no name or time, made on Unix, as zlib writes it. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]);
/** The head's CRC-32 and length, kept after its blocks for `closeGzip`. */
const STATE_BYTES = 8;
/** The most a stored deflate block holds (its LEN is 16 bits). */
const STORED_MAX = 0xffff;

/**
 * `head` compressed once as a gzip member left open, to be finished by `closeGzip` with a tail
 * that differs per answer: a cached body framed per request (the public JSON's `meta`,
 * docs/status-pages.md) is then sent gzipped without compressing the body again.
 *
 * Layout: the gzip header, `head` as raw deflate ended by a sync flush (so the blocks end on a
 * byte boundary and none is final), then the head's CRC-32 and length (little-endian, 4 bytes each).
 */
export function openGzip(head: Buffer): Buffer {
  const blocks = deflateRawSync(head, { finishFlush: constants.Z_SYNC_FLUSH });
  const state = Buffer.alloc(STATE_BYTES);
  state.writeUInt32LE(crc32(head), 0);
  state.writeUInt32LE(head.length >>> 0, 4);
  return Buffer.concat([GZIP_HEADER, blocks, state]);
}

/**
 * The complete gzip member of `head` then `tail`, from `open` (made by `openGzip`). The tail
 * goes in stored (uncompressed) blocks, the last one final: it is a few dozen bytes, and a stored
 * block needs no compressor. The trailer's CRC-32 is continued from the head's over the tail only.
 */
export function closeGzip(open: Buffer, tail: Buffer): Buffer {
  const cut = open.length - STATE_BYTES;
  if (cut < GZIP_HEADER.length) throw new RangeError('not an open gzip member (openGzip)');
  const parts: Buffer[] = [open.subarray(0, cut)];
  for (let at = 0; ; at += STORED_MAX) {
    const length = Math.min(STORED_MAX, tail.length - at);
    const isFinal = at + length >= tail.length;
    const header = Buffer.alloc(5);
    header.writeUInt8(isFinal ? 1 : 0, 0);
    header.writeUInt16LE(length, 1);
    header.writeUInt16LE(~length & 0xffff, 3);
    parts.push(header, tail.subarray(at, at + length));
    if (isFinal) break;
  }
  const headCrc = open.readUInt32LE(cut);
  const trailer = Buffer.alloc(8);
  // zlib's crc32 answers 0 for an empty buffer without storage (Buffer.alloc(0).subarray()), not the CRC it was given.
  trailer.writeUInt32LE(tail.length === 0 ? headCrc : crc32(tail, headCrc), 0);
  trailer.writeUInt32LE((open.readUInt32LE(cut + 4) + tail.length) >>> 0, 4);
  parts.push(trailer);
  return Buffer.concat(parts);
}
