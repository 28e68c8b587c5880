/**
 * Packages and software tools through the app, one request per reference parameter: every answer
 * is compared with what the dataset's records say it must hold (not only the status). The app
 * validates its own responses against the document while these run.
 */
import { describe, expect, it } from 'vitest';
import { call, sharedDataset, testApp } from '../../testing/mock-app.js';

const dataset = sharedDataset();
const app = await testApp();
const packages = Array.from({ length: dataset.packages.size }, (_, i) =>
  dataset.packages.record(i),
);
const tools = Array.from({ length: dataset.softwareTools.size }, (_, i) =>
  dataset.softwareTools.record(i),
);

/** Every record a list answers for a query, walking all pages at the largest page size. */
async function listAll<T>(list: string, query: string): Promise<T[]> {
  const all: T[] = [];
  for (let page = 0; ; page++) {
    const res = await call(
      app,
      `${list}?${[query, `limit=100&offset=${page}`].filter(Boolean).join('&')}`,
    );
    expect(res.status, `${list}?${query}: ${res.text.slice(0, 200)}`).toBe(200);
    all.push(...(res.body.data as T[]));
    if (!res.body.pagination.has_more) return all;
  }
}
const sorted = (list: string[]) => [...list].sort();

describe("GET /packages (the reference's parameters)", () => {
  it('packageCode is exact (any letter case)', async () => {
    const code = packages[3].packageCode;
    expect(
      (
        await listAll<{ packageCode: string }>(
          '/packages',
          `packageCode=${encodeURIComponent(code.toLowerCase())}`,
        )
      ).map((p) => p.packageCode),
    ).toEqual([code]);
    expect(
      (await call(app, `/packages?packageCode=${encodeURIComponent(code.slice(0, -1))}`)).body
        .pagination.total,
    ).toBe(packages.filter((p) => p.packageCode === code.slice(0, -1)).length);
  });

  it('packageType and packageStatus select exactly their records, and combine with AND', async () => {
    const type = packages[0].packageType;
    const inactive = packages.filter((p) => p.packageStatus === 'Inactive');
    expect(inactive.length).toBeGreaterThan(0);
    expect(
      sorted(
        (
          await listAll<{ packageCode: string }>(
            '/packages',
            `packageType=${encodeURIComponent(type)}`,
          )
        ).map((p) => p.packageCode),
      ),
    ).toEqual(sorted(packages.filter((p) => p.packageType === type).map((p) => p.packageCode)));
    expect(
      sorted(
        (await listAll<{ packageCode: string }>('/packages', 'packageStatus=Inactive')).map(
          (p) => p.packageCode,
        ),
      ),
    ).toEqual(sorted(inactive.map((p) => p.packageCode)));
    const both = packages
      .filter((p) => p.packageType === type && p.packageStatus === 'Active')
      .map((p) => p.packageCode);
    expect(
      sorted(
        (
          await listAll<{ packageCode: string }>(
            '/packages',
            `packageType=${encodeURIComponent(type)}&packageStatus=Active`,
          )
        ).map((p) => p.packageCode),
      ),
    ).toEqual(sorted(both));
  });

  it.each(['packageCode', 'packageType', 'packageStatus', 'wwwUpdateDate'] as const)(
    'order=%s sorts by that field, both directions',
    async (key) => {
      for (const direction of ['asc', 'desc'] as const) {
        const got = (
          await listAll<Record<string, string>>(
            '/packages',
            `order=${key}&orderDirection=${direction}`,
          )
        ).map((p) => p[key].toLowerCase());
        const want = [...got].sort();
        expect(got).toEqual(direction === 'asc' ? want : want.reverse());
      }
    },
  );

  it('refuses the sort key the reference does not list (title)', async () => {
    expect((await call(app, '/packages?order=title')).status).toBe(400);
  });
});

describe("GET /software-tools (the reference's parameters)", () => {
  const active = tools.filter((t) => !t.discontinued);

  it('lists only active tools by default; includeDiscontinued=true lists every tool', async () => {
    expect(tools.length).toBeGreaterThan(active.length);
    expect(
      sorted(
        (await listAll<{ softwareToolName: string }>('/software-tools', '')).map(
          (t) => t.softwareToolName,
        ),
      ),
    ).toEqual(sorted(active.map((t) => t.softwareToolName)));
    expect(
      (await call(app, '/software-tools?includeDiscontinued=false')).body.pagination.total,
    ).toBe(active.length);
    expect(
      (await call(app, '/software-tools?includeDiscontinued=true')).body.pagination.total,
    ).toBe(tools.length);
  });

  it('softwareToolName matches a substring of the title, in any letter case', async () => {
    const needle = tools[0].softwareToolName.split(' ')[1].slice(1, 4).toUpperCase();
    const want = tools.filter((t) =>
      t.softwareToolName.toLowerCase().includes(needle.toLowerCase()),
    );
    expect(want.length).toBeGreaterThan(0);
    const got = await listAll<{ softwareToolName: string }>(
      '/software-tools',
      `softwareToolName=${encodeURIComponent(needle)}&includeDiscontinued=true`,
    );
    expect(sorted(got.map((t) => t.softwareToolName))).toEqual(
      sorted(want.map((t) => t.softwareToolName)),
    );
  });

  it('softwareType is exact; "all" (the default) lists every type', async () => {
    const type = tools[0].softwareType;
    const got = await listAll<{ softwareType: string }>(
      '/software-tools',
      `softwareType=${encodeURIComponent(type)}&includeDiscontinued=true`,
    );
    expect(got.length).toBe(tools.filter((t) => t.softwareType === type).length);
    expect(got.every((t) => t.softwareType === type)).toBe(true);
    for (const any of ['all', 'ALL'])
      expect(
        (await call(app, `/software-tools?softwareType=${any}&includeDiscontinued=true`)).body
          .pagination.total,
      ).toBe(tools.length);
  });

  it.each(['softwareToolName', 'softwareType', 'wwwUpdateDate'] as const)(
    'order=%s sorts by that field, both directions',
    async (key) => {
      for (const direction of ['asc', 'desc'] as const) {
        const got = (
          await listAll<Record<string, string>>(
            '/software-tools',
            `order=${key}&orderDirection=${direction}&includeDiscontinued=true`,
          )
        ).map((t) => t[key].toLowerCase());
        const want = [...got].sort();
        expect(got).toEqual(direction === 'asc' ? want : want.reverse());
      }
    },
  );

  it("serves parentSoftwareCategory as the reference's strings", async () => {
    const tool = (
      await call(app, `/software-tools/${encodeURIComponent(tools[0].softwareToolName)}`)
    ).body;
    expect(tool.parentSoftwareCategory.length).toBeGreaterThan(0);
    expect(tool.parentSoftwareCategory.every((c: unknown) => typeof c === 'string')).toBe(true);
  });
});
