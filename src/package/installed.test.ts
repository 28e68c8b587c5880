/**
 * The package as a user gets it, in the project global-setup.ts packed and installed once for the
 * package project's files: the two commands with their exit statuses, every example of
 * docs/library.md as an ES module file, an integrator's vitest file run with the vitest the user
 * added, and a TypeScript file type-checked against the installed declarations.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-root.js';
import {
  flagsTheDocsName,
  flagsTheDocsUse,
  helpNames,
  importsTheDocsUse,
  type Page,
} from '../testing/doc-usage.js';
import {
  installedProject,
  installProduction,
  killStartedMocks,
  MINUTES,
  ok,
  runIn,
  startMockIn,
  type Ran,
} from './installed-project.js';

let project: string;
/** The packed package's file name in `project`. */
let tarball: string;

beforeAll(() => {
  ({ project, tarball } = installedProject());
});

/** A command in the installed project. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return runIn(project, command, args, env);
}

/** The ```js blocks of docs/library.md, in order. */
function docExamples(language: 'js' | 'ts' = 'js'): string[] {
  const text = readFileSync(join(PACKAGE_ROOT, 'docs', 'library.md'), 'utf8');
  return [...text.matchAll(new RegExp(`^\`\`\`${language}\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (m) => m[1],
  );
}

/**
 * An integrator's own vitest file, as they would write it with the public API alone: one test per
 * need of issue 29 (a stub they see, a stub the contract refuses, a record of their own in a list,
 * a filter and a search, a verified search body and its near miss, only page 2 failing, their
 * client over `vary` seeds, a reset between tests). Plain ES module JS; no `${` or backslash in it,
 * so String.raw keeps it byte for byte.
 */
const INTEGRATOR_TEST = String.raw`// An integrator's test of a small client, against the Web Data API double, in process.
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApp, QaControlError, VerificationError } from 'web-data-api-double';

const mock = await createMockApp();
const headers = { 'x-api-key': mock.keys.fullAccess, 'content-type': 'application/json' };

async function call(app, path, body) {
  const response = await app.fetch(
    new Request(app.url + path, {
      method: body ? 'POST' : 'GET',
      headers,
      body: body && JSON.stringify(body),
    }),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

// The code under test: a card per product, and titles read page by page.
function productCard(p) {
  return {
    id: p.productId,
    title: typeof p.title === 'string' && p.title !== '' ? p.title : p.productId,
    image: Array.isArray(p.images) && p.images.length > 0 ? p.images[0] : null,
  };
}

async function titles(pages) {
  const all = [];
  for (let page = 0; page < pages; page++) {
    const { status, body } = await call(mock, '/products?limit=5&offset=' + page);
    if (status !== 200) throw new Error('page ' + (page + 1) + ' failed with ' + status);
    all.push(...body.data.map((p) => productCard(p).title));
  }
  return all;
}

const productId = mock.examples.ids.products[0];
const productPath = '/products/' + encodeURIComponent(productId);

afterEach(() => mock.qa.reset());

describe('my client against the Web Data API double', () => {
  it('shows a product that has no images', async () => {
    await mock.qa.stub({
      operationId: 'getProduct',
      match: { params: { product_id: productId } },
      patch: { images: [] },
    });
    expect(productCard((await call(mock, productPath)).body).image).toBeNull();
  });

  it('cannot stub an answer the service could never send', async () => {
    const stub = mock.qa.stub({ operationId: 'getProduct', patch: { images: 'none' } });
    await expect(stub).rejects.toThrow(QaControlError);
    await expect(stub).rejects.toThrow('"/images" must be array');
  });

  it('finds a part it added in a list, a filter and a search', async () => {
    const { body: part } = await call(
      mock,
      '/product-parts/' + encodeURIComponent(mock.examples.ids.productParts[0]),
    );
    const mine = { ...part, orderableId: '0-MY-PART#PBF' };
    await mock.qa.records.put('productParts', mine);
    const ids = ({ body }) => body.data.map((p) => p.orderableId);

    const list = await call(mock, '/product-parts?order=part_number&orderDirection=asc&limit=1');
    expect(ids(list)).toEqual(['0-MY-PART#PBF']);
    const filter = await call(mock, '/product-parts?part_number=0-MY-PART%23PBF');
    expect(ids(filter)).toEqual(['0-MY-PART#PBF']);
    const search = await call(mock, '/product-parts/search', {
      productId: mine.genericId,
      limit: 100,
    });
    expect(ids(search)).toContain('0-MY-PART#PBF');
  });

  it('sends the search body it means to', async () => {
    const { productId: searched } = mock.examples.operations.searchProductParts.body;
    await call(mock, '/product-parts/search', { productId: searched, limit: 20 });
    await mock.qa.verify(
      { operationId: 'searchProductParts', body: { productId: searched, limit: 20 } },
      { times: 1 },
    );

    const nearMiss = mock.qa.verify({
      operationId: 'searchProductParts',
      body: { productId: searched, limit: 10 },
    });
    await expect(nearMiss).rejects.toThrow(VerificationError);
    await expect(nearMiss).rejects.toThrow('/body/limit: expected 10, actual 20');
  });

  it('says which page failed when only page 2 fails', async () => {
    await mock.qa.armFault({
      match: { operationId: 'listProducts', query: { limit: 5, offset: 1 } },
      status: 500,
    });
    await expect(titles(3)).rejects.toThrow('page 2 failed with 500');
    expect(await titles(1)).toHaveLength(5);
  });

  it('copes with whatever the contract lets the service leave out or add', async () => {
    for (const seed of [1, 2, 3]) {
      const varied = await createMockApp({ vary: { seed } });
      const { headers: sent, body } = await call(varied, '/products?limit=20');
      const variation = sent.get('x-mock-variation');
      expect(variation).toMatch('seed=' + seed + '; ');
      expect(body.data.map(productCard), variation).toHaveLength(20);
    }
  });

  it('starts each test from the seed: a reset clears a stub', async () => {
    await mock.qa.stub({ operationId: 'getProduct', patch: { title: 'Stubbed' } });
    expect((await call(mock, productPath)).body.title).toBe('Stubbed');
    await mock.qa.reset();
    expect(await mock.qa.stubs()).toEqual([]);
    expect((await call(mock, productPath)).body.title).not.toBe('Stubbed');
  });
});
`;

/**
 * A user's TypeScript file, checked with `types: []` and `skipLibCheck: false`: every function of
 * the package root and the QA calls named in issue 36, so every declaration they reach is checked.
 */
const NO_NODE_TYPES_USE = `import {
  createMockApp, qaControls, runContract, startMock, startProxy, QaControlError, VerificationError,
  type ContractReport, type Examples, type FaultToArm, type MockOptions, type Product,
  type RunContractOptions, type RunningMock, type RunningProxy, type StartProxyOptions,
} from 'web-data-api-double';
const options: MockOptions = { seed: 2, release: '1.3.0', environment: 'both', adminToken: 't' };
const mock: RunningMock = await startMock({ ...options, port: 0 });
const examples: Examples = mock.examples;
const id: string = examples.ids.products[0];
const fault: FaultToArm = { operationId: 'listProducts', status: 429, retryAfterSeconds: 5 };
await mock.qa.armFault(fault);
const qa = qaControls({ origin: mock.origin, adminToken: 't' });
await qa.stub({ operationId: 'getProduct', respond: { status: 404 } });
await qa.verify({ operationId: 'listProducts' });
const app = await createMockApp({ origin: 'https://api.example.com' });
const response: Response = await app.fetch(new Request(app.url + '/products'));
const suite: RunContractOptions = { baseUrl: mock.url, apiKey: mock.keys.fullAccess };
const report: ContractReport = await runContract(suite);
const proxyOptions = {} as StartProxyOptions;
const proxy: RunningProxy = await startProxy(proxyOptions);
const product: Product = { productId: id, title: 't', additionalDetails: null, relatedProducts: [] };
const errors = [QaControlError, VerificationError];
export { response, report, proxy, product, errors };
await mock.close();
`;

/** A user's strict ES module project, as both TypeScript checks below write it. */
const STRICT_NODENEXT = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  noEmit: true,
};

/** A strict project with no ambient types at all, and every library declaration checked. */
const NO_NODE_TYPES_CONFIG = {
  compilerOptions: {
    ...STRICT_NODENEXT,
    skipLibCheck: false,
    lib: ['ES2022', 'DOM'],
    types: [],
  },
  files: ['use.ts'],
};

afterAll(killStartedMocks);

/** `npx web-data-mock --port 0` in the installed project. */
const startInstalledMock = () => startMockIn(project);

describe('the installed package', () => {
  it(
    'has every import path and flag its docs use',
    async () => {
      const root = join(project, 'node_modules', 'web-data-api-double');
      const pages: Page[] = [
        'README.md',
        ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`),
      ]
        .filter((name) => name.endsWith('.md'))
        .map((name) => ({ name, text: readFileSync(join(root, name), 'utf8') }));
      const helps = new Map<string, string>();
      const helpOf = async (command: string): Promise<string> => {
        if (!helps.has(command)) {
          const [bin, ...words] = command.split(' ');
          helps.set(command, await ok(run('npx', ['--no-install', bin, ...words, '--help'])));
        }
        return helps.get(command)!;
      };
      const unknown: string[] = [];
      for (const use of flagsTheDocsUse(pages))
        if (!helpNames(await helpOf(use.command), use.flag))
          unknown.push(`${use.where}: ${use.command} has no ${use.flag}`);
      const everyHelp =
        (
          await Promise.all(
            ['web-data-mock', 'web-data-mock --proxy', 'web-data-contract'].map(helpOf),
          )
        ).join('\n') + [...helps.values()].join('\n');
      for (const use of flagsTheDocsName(pages))
        if (!helpNames(everyHelp, use.flag))
          unknown.push(`${use.where}: no command of the package has ${use.flag}`);
      for (const { specifier, where } of importsTheDocsUse(pages)) {
        const resolved = await run('node', [
          '--input-type=module',
          '-e',
          `import.meta.resolve(${JSON.stringify(specifier)})`,
        ]);
        if (resolved.status !== 0) unknown.push(`${where}: ${specifier} does not resolve`);
      }
      expect(flagsTheDocsUse(pages).length).toBeGreaterThan(20);
      expect(unknown).toEqual([]);
    },
    5 * MINUTES,
  );

  it('carries compiled code only: no TypeScript sources, no tsx', () => {
    const root = join(project, 'node_modules', 'web-data-api-double');
    expect(existsSync(join(root, 'dist', 'src', 'index.js'))).toBe(true);
    expect(existsSync(join(root, 'dist', 'src', 'index.d.ts'))).toBe(true);
    expect(existsSync(join(root, 'src'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
    for (const file of ['LICENSE', 'spec/openapi.yaml', 'config/keys.json', 'docs/library.md'])
      expect(existsSync(join(root, file)), file).toBe(true);
  });

  it(
    'npx web-data-mock --port 0 answers, and stops on SIGTERM to npx',
    { timeout: MINUTES },
    async () => {
      const mock = await startInstalledMock();
      const answer = await fetch(`${mock.url}/products?limit=1`, {
        headers: { 'x-api-key': 'demo-production-key' },
      });
      expect(answer.status).toBe(200);
      expect(await mock.stop()).toBe(true);
    },
  );

  it(
    'npx web-data-contract checks its own mock: exit 0',
    async () => {
      const result = await run('npx', ['--no-install', 'web-data-contract', '--report-dir', 'own']);
      expect(result.status, result.stderr.slice(-2000)).toBe(0);
      expect(
        JSON.parse(readFileSync(join(project, 'own', 'contract-report.json'), 'utf8')).passed,
      ).toBe(true);
    },
    5 * MINUTES,
  );

  it(
    'npx web-data-contract <url> against a running mock: exit 0',
    async () => {
      const mock = await startInstalledMock();
      try {
        const result = await run(
          'npx',
          ['--no-install', 'web-data-contract', mock.url, '--report-dir', 'against-url'],
          { CONTRACT_API_KEY: 'demo-unlimited-key' },
        );
        expect(result.status, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(0);
      } finally {
        await mock.stop();
      }
    },
    5 * MINUTES,
  );

  it(
    'npx web-data-contract against a broken target: exit 1',
    async () => {
      // Answers every request with the same JSON that no operation's schema accepts.
      const broken: Server = createServer((_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"unexpected":true}');
      });
      await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
      const { port } = broken.address() as AddressInfo;
      try {
        const result = await run(
          'npx',
          [
            '--no-install',
            'web-data-contract',
            `http://127.0.0.1:${port}/web-data/v1`,
            '--report-dir',
            'broken',
          ],
          { CONTRACT_API_KEY: 'k' },
        );
        expect(result.status).toBe(1);
        expect(
          JSON.parse(readFileSync(join(project, 'broken', 'contract-report.json'), 'utf8')).passed,
        ).toBe(false);
      } finally {
        broken.close();
      }
    },
    5 * MINUTES,
  );

  it('npx web-data-contract with a bad flag: exit 2 and one line', async () => {
    const result = await run('npx', ['--no-install', 'web-data-contract', '--no-such-flag']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^web-data-contract: Unknown option '--no-such-flag' \(see --help\)\n$/,
    );
  });

  it.each(docExamples().map((code, i) => [i + 1, code] as const))(
    'example %i of docs/library.md runs as an ES module file',
    async (i, code) => {
      writeFileSync(join(project, `example-${i}.mjs`), code);
      await ok(run(process.execPath, [`example-${i}.mjs`]));
    },
    5 * MINUTES,
  );

  it(
    "an integrator's vitest file, public API only, passes with the vitest the user added",
    async () => {
      // vitest is an optional peer dependency: the user's project added it (above).
      expect(existsSync(join(project, 'node_modules', 'vitest', 'package.json'))).toBe(true);
      writeFileSync(join(project, 'client.test.mjs'), INTEGRATOR_TEST);
      const result = await run('npx', ['--no-install', 'vitest', 'run', 'client.test.mjs']);
      expect(result.status, result.stdout.slice(-3000) + result.stderr.slice(-3000)).toBe(0);
      expect(result.stdout).toMatch(/Tests\s+7 passed \(7\)/);
    },
    5 * MINUTES,
  );

  it(
    'the declarations type-check without @types/node or skipLibCheck, on the TypeScript range stated',
    async () => {
      // A project of its own, outside the shared one (whose msw brings @types/node, which a type
      // reference anywhere in the package's dependencies would find walking up): the same
      // tarball, production dependencies only, and the lowest TypeScript docs/library.md states.
      const consumer = mkdtempSync(join(tmpdir(), 'web-data-no-node-types-'));
      try {
        writeFileSync(
          join(consumer, 'package.json'),
          JSON.stringify({ name: 'typed-user', private: true, type: 'module' }),
        );
        await installProduction(project, consumer, [join(project, tarball), 'typescript@5.7']);
        expect(existsSync(join(consumer, 'node_modules', '@types', 'node'))).toBe(false);
        writeFileSync(join(consumer, 'use.ts'), NO_NODE_TYPES_USE);
        writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(NO_NODE_TYPES_CONFIG));
        const compilers = [
          join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
          join(consumer, 'node_modules', 'typescript', 'bin', 'tsc'),
        ];
        for (const tsc of compilers) {
          const result = await run(process.execPath, [tsc, '-p', join(consumer, 'tsconfig.json')]);
          expect(result.status, `${tsc}\n${result.stdout.slice(0, 3000)}`).toBe(0);
        }
      } finally {
        rmSync(consumer, { recursive: true, force: true });
      }
    },
    5 * MINUTES,
  );

  it(
    'a TypeScript file using the API type-checks against the installed declarations',
    async () => {
      const docTypeScript = docExamples('ts').map((code, i) => {
        writeFileSync(join(project, `doc-example-${i + 1}.ts`), code);
        return `doc-example-${i + 1}.ts`;
      });
      expect(docTypeScript.length).toBeGreaterThan(0);
      writeFileSync(
        join(project, 'use.ts'),
        `import { createMockApp, runContract, startMock, qaControls, type ContractReport, type MockOptions, type RunningMock, type Product, type ErrorBody, type OperationId } from 'web-data-api-double';
const options: MockOptions = { seed: 2, scale: 1, release: '1.3.0', environment: 'both', latency: '0-5', faults: 'error=0.01', adminToken: 't' };
const mock: RunningMock = await startMock({ ...options, port: 0 });
const id: string = mock.examples.ids.products[0];
const key: string = mock.keys.fullAccess;
await mock.qa.armFault({ operationId: 'listProducts', status: 429, retryAfterSeconds: 5 });
const product: Product = { productId: id, title: 'typed', additionalDetails: null, relatedProducts: [] };
const failure: ErrorBody = { error: 'x', code: 429, retry_after: 1 };
const operation: OperationId = 'getProductPart';
// @ts-expect-error a typo in an operationId fails to compile
await mock.qa.armFault({ operationId: 'listProduct', status: 500 });
// @ts-expect-error not a release of the document
await startMock({ release: '1.3' });
// @ts-expect-error a Product has a string productId
const wrong: Product = { productId: 1 };
export { product, failure, operation, wrong };
const journal = await qaControls({ origin: mock.origin, adminToken: 't' }).journal(5);
const at: string = journal[0].at;
const app = await createMockApp({ origin: 'https://api.example.com' });
const response: Response = await app.fetch(new Request(app.url + '/products'));
const report: ContractReport = await runContract({ baseUrl: mock.url, apiKey: key, strict: true, xrefNumbers: ['a'] });
const passed: boolean = report.passed;
// @ts-expect-error scale is a number or 'live'
await startMock({ scale: 'huge' });
// @ts-expect-error no such option
await runContract({ bogus: 1 });
export { id, at, response, passed };
await mock.close();
`,
      );
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            ...STRICT_NODENEXT,
            skipLibCheck: true,
            lib: ['ES2023', 'DOM'],
            types: ['node'],
            typeRoots: [join(PACKAGE_ROOT, 'node_modules', '@types')],
          },
          // The TypeScript examples of docs/library.md are type-checked with the client.
          files: ['use.ts', ...docTypeScript],
        }),
      );
      const tsc = join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      await ok(run(process.execPath, [tsc, '-p', 'tsconfig.json']));
    },
    2 * MINUTES,
  );
});
