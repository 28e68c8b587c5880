/**
 * @module proxy/content-coding
 * A live body in a Content-Encoding is decoded before the key scan, or refused. The proxy asks
 * for `identity`, but a service may compress anyway. Node's fetch decodes a coding list only when
 * it knows every coding in it (gzip, x-gzip, deflate, br, and zstd from undici 7.11 where zlib
 * has it); otherwise it hands over the bytes as sent. Those the proxy decodes itself when zlib can
 * (the same codings, `identity`, and zstd where this Node's zlib has it); a body in any other coding
 * cannot be scanned for the key, so it is refused (502) instead of passed on.
 */
import { Duplex } from 'node:stream';
import * as zlib from 'node:zlib';

type Decoder = () => Duplex;

const zstd = (zlib as { createZstdDecompress?: Decoder }).createZstdDecompress;

/** What zlib here can undo; `identity` is no coding at all. */
const DECODERS: Record<string, Decoder | null> = {
  identity: null,
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
  ...(zstd ? { zstd } : {}),
};

/** Codings Node's fetch undoes by itself (all of a list, or none of it). */
const FETCH_DECODES = new Set(['gzip', 'x-gzip', 'deflate', 'br']);
if (zstd && undiciAtLeast(7, 11)) FETCH_DECODES.add('zstd');

function undiciAtLeast(major: number, minor: number): boolean {
  const [a = 0, b = 0] = (process.versions.undici ?? '0.0').split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

export type Decoded =
  | { ok: true; body: ReadableStream<Uint8Array>; coding: string | undefined }
  | { ok: false; error: string };

/**
 * The body as the client will get it, decoded; or why it cannot be. `coding` is the live
 * header's value (for messages), undefined when there was none.
 */
export function decodeLiveBody(headers: Headers, body: ReadableStream<Uint8Array>): Decoded {
  const header = headers.get('content-encoding');
  if (header === null) return { ok: true, body, coding: undefined };
  // Split and compared as Node's fetch does: lower case, trimmed, empty entries kept (and unknown).
  const codings = header
    .toLowerCase()
    .split(',')
    .map((c) => c.trim());
  if (codings.every((c) => FETCH_DECODES.has(c))) return { ok: true, body, coding: header };
  const unknown = codings.filter((c) => !(c in DECODERS));
  if (unknown.length > 0)
    return {
      ok: false,
      error: `upstream sent a body in Content-Encoding ${JSON.stringify(header)}, which the proxy cannot decode (${unknown.map((c) => JSON.stringify(c)).join(', ')} unknown here), so cannot scan for the key; not passed on`,
    };
  let decoded = body;
  // The last coding listed was applied last: undo it first.
  for (const coding of codings.reverse()) {
    const decoder = DECODERS[coding];
    // node:stream/web's stream types and the global ones are the same objects under two declarations.
    if (decoder)
      decoded = decoded.pipeThrough(
        Duplex.toWeb(decoder()) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
      );
  }
  return { ok: true, body: decoded, coding: header };
}
