/**
 * @module journal/journal-window.test
 * A journal that forgets says so: `verify` and the journal listings name the requests the window
 * no longer keeps, and a verdict those requests could change fails with that said, instead of
 * passing on what is left. The size is an option (`journal: { size }`, `--journal-size`).
 */
import { describe, expect, it } from 'vitest';
import { createMockApp, VerificationError, type MockAppHandle } from '../../index.js';

async function mockWithRequests(size: number, requests: number): Promise<MockAppHandle> {
  const mock = await createMockApp({ adminToken: 'qa', journal: { size } });
  for (let i = 0; i < requests; i += 1) {
    const res = await mock.fetch(
      new Request(`${mock.url}/products?limit=1`, {
        headers: { 'x-api-key': mock.keys.fullAccess },
      }),
    );
    await res.text();
  }
  return mock;
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as Error,
  );

describe('the journal window', () => {
  it('fails times: 25 after 25 requests to a journal of size 10, naming the window', async () => {
    const mock = await mockWithRequests(10, 25);
    const error = await rejection(mock.qa.verify({ operationId: 'listProducts' }, { times: 25 }));
    expect(error).toBeInstanceOf(VerificationError);
    expect(error.message).toContain('received 10 (of 10 in the journal)');
    expect(error.message).toContain(
      '10 kept; 15 earlier requests no longer kept (journal size 10)',
    );
    expect(error.message).toContain('cannot tell');
    const found = await mock.qa.requests({ operationId: 'listProducts' });
    expect(found).toHaveLength(10);
    expect(found.window).toEqual({
      kept: 10,
      dropped: 15,
      size: 10,
      note: '10 kept; 15 earlier requests no longer kept (journal size 10)',
    });
    expect((await mock.qa.journal(3)).window.dropped).toBe(15);
  });

  it('fails atMost: 0 once the request has scrolled out, and times: 10 it cannot be sure of', async () => {
    const mock = await mockWithRequests(3, 3);
    await (
      await mock.fetch(
        new Request(`${mock.url}/packages?limit=1`, {
          headers: { 'x-api-key': mock.keys.fullAccess },
        }),
      )
    ).text();
    // listProducts x3 then listPackages: the first listProducts is gone.
    const error = await rejection(mock.qa.verify({ operationId: 'listProducts' }, { atMost: 2 }));
    expect(error.message).toContain('3 kept; 1 earlier request no longer kept');
    await expect(mock.qa.verify({ operationId: 'listProducts' }, { times: 2 })).rejects.toThrow(
      /cannot tell/,
    );
  });

  it('still passes what the dropped requests cannot change: atLeast already met', async () => {
    const mock = await mockWithRequests(5, 12);
    await mock.qa.verify({ operationId: 'listProducts' }, { atLeast: 5 });
    // Too few even if every dropped request matched: a plain failure, the window named beside it.
    const short = await rejection(mock.qa.verify({ operationId: 'listProducts' }, { times: 13 }));
    expect(short.message).not.toContain('cannot tell');
    expect(short.message).toContain("the journal's window: 5 kept; 7 earlier requests");
    await expect(mock.qa.verify({ operationId: 'listProducts' }, { atMost: 4 })).rejects.toThrow(
      /7 earlier requests no longer kept/,
    );
  });

  it('a full window with nothing dropped, and a reset that starts the count again', async () => {
    const mock = await mockWithRequests(5, 5);
    await mock.qa.verify({ operationId: 'listProducts' }, { times: 5 });
    const list = async () => {
      const res = await mock.fetch(
        new Request(`${mock.origin}/__mock/requests?limit=5`, {
          headers: { 'x-mock-admin-token': 'qa' },
        }),
      );
      return (await res.json()) as { window: { kept: number; dropped: number; note?: string } };
    };
    expect((await list()).window).toEqual({ kept: 5, dropped: 0, size: 5 });
    await (
      await mock.fetch(
        new Request(`${mock.url}/products?limit=1`, {
          headers: { 'x-api-key': mock.keys.fullAccess },
        }),
      )
    ).text();
    expect((await list()).window).toMatchObject({
      kept: 5,
      dropped: 1,
      note: expect.stringContaining('1 earlier request no longer kept'),
    });
    await mock.qa.reset();
    expect((await list()).window).toEqual({ kept: 0, dropped: 0, size: 5 });
  });

  it("holds none of the mock's own pages: the handle's read of /examples.json takes no place", async () => {
    const mock = await createMockApp({ adminToken: 'qa', journal: { size: 3 } });
    for (const path of ['/examples.json', '/openapi.json', '/docs', '/docs/x'])
      await (await mock.fetch(new Request(`${mock.origin}${path}`))).arrayBuffer();
    const journal = await mock.qa.journal();
    expect(journal).toEqual([]);
    expect(journal.window).toEqual({ kept: 0, dropped: 0, size: 3 });
  });

  it('refuses a journal size out of bounds, naming it', async () => {
    await expect(createMockApp({ journal: { size: 0 } })).rejects.toThrow(
      'journal.size must be an integer from 1 to 100000 (got 0)',
    );
    await expect(createMockApp({ journal: { size: 2.5 } })).rejects.toThrow(TypeError);
    await expect(
      createMockApp({ journal: { sise: 3 } as unknown as { size: number } }),
    ).rejects.toThrow('journal: unknown option "sise" (did you mean "size"?)');
  });
});
