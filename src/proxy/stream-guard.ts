/**
 * @module proxy/stream-guard
 * A body the proxy streams (a download, JSON over the size cap) is passed on byte for byte: its
 * length and checksum must stay true, so the key cannot be replaced in it. Instead the stream is
 * scanned for the key in the same encodings as buffered bodies, holding back just enough bytes
 * that an occurrence split across chunks is seen before any of it is sent; when one is found the
 * stream is cut (the client sees a broken download, never the key) and the caller is told.
 */
import type { SecretScrubber } from '../redaction.js';

export function guardStream(
  body: ReadableStream<Uint8Array>,
  scrubber: SecretScrubber,
  onKeyFound: () => void,
): ReadableStream<Uint8Array> {
  const keep = scrubber.longestForm - 1;
  /** Bytes not yet sent, as latin1 text (one character per byte). */
  let pending = '';
  const send = (controller: TransformStreamDefaultController<Uint8Array>, text: string) => {
    if (text.length > 0) controller.enqueue(new Uint8Array(Buffer.from(text, 'latin1')));
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
        if (scrubber.foundIn(pending)) {
          onKeyFound();
          controller.error(new Error('the live body contained the API key; stream cut'));
          return;
        }
        if (pending.length > keep) {
          send(controller, pending.slice(0, pending.length - keep));
          pending = pending.slice(pending.length - keep);
        }
      },
      flush(controller) {
        send(controller, pending);
      },
    }),
  );
}
