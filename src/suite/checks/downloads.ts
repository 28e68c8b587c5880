/**
 * @module checks/downloads
 * File downloads (a GET whose success is not JSON, with a HEAD on the same path): HEAD and GET
 * agree on status, `content-length` and `content-type`, and the GET body is as long as announced.
 * A content coding (gzip) or chunked framing changes what `content-length` counts, so lengths are
 * compared only on identity-coded answers.
 */
import { isJsonMediaType } from '../../contract/index.js';
import { applicable, type Check } from '../support/context.js';
import { successRequest } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import { inScope, scopeName } from '../support/records.js';

const HEADERS = ['content-length', 'content-type'];

export const checkDownloads: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const downloads = applicable(
    ctx.contract.operations.filter(
      (op) =>
        op.method === 'get' &&
        inScope(op, scope) &&
        (op.responses.get('200')?.contentTypes ?? []).some((t) => !isJsonMediaType(t)),
    ),
    `no download (a GET whose success is not JSON) in ${scopeName(scope)} at release ${ctx.contract.release}`,
  );
  for (const get of downloads) {
    const head = ctx.contract.operations.find((op) => op.method === 'head' && op.path === get.path);
    const spec = await successRequest(probe, get);
    if (!head || !spec) continue;
    const headEx = await probe.call(head, { ...spec, expectStatus: [200] });
    const getEx = await probe.call(get, { ...spec, expectStatus: [200] });
    const coded = [headEx, getEx].some(
      (e) => (e.headers.get('content-encoding') ?? 'identity') !== 'identity',
    );
    for (const name of HEADERS) {
      if (coded && name === 'content-length') continue;
      const a = headEx.headers.get(name);
      const b = getEx.headers.get(name);
      if (a !== b)
        probe.add(get, getEx, {
          rule: 'download-agree',
          source: get.source,
          pointer: `header:${name}`,
          expected: `the same ${name} as HEAD (${a})`,
          actual: String(b),
          message: `HEAD and GET disagree on ${name}`,
        });
    }
    const announced = Number(getEx.headers.get('content-length'));
    if (
      !coded &&
      getEx.status === 200 &&
      getEx.headers.has('content-length') &&
      Number.isFinite(announced) &&
      announced !== getEx.bytes
    ) {
      probe.add(get, getEx, {
        rule: 'download-length',
        source: get.source,
        pointer: 'header:content-length',
        expected: `a body of content-length ${announced} bytes`,
        actual: `${getEx.bytes} bytes`,
        message: 'body length differs from content-length',
      });
    }
  }
  return probe.result();
};
