/**
 * @module docs.test
 * The docs page on a bare Hono app: raw document in both formats, a reference page that points at
 * the local bundle (no CDN, no web fonts) with the server and demo key configured, and the bundle
 * itself with a long cache header.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readSpecText } from '../contract/index.js';
import { mountDocs } from './docs.js';

const specText = readSpecText();
const API_BASE = 'http://127.0.0.1:4010/web-data/v1';
const DEMO_KEY = 'demo-production-key';

function docsApp(options: { demoKey?: string } = { demoKey: DEMO_KEY }): Hono {
  const app = new Hono();
  mountDocs(app, { specText, apiBaseUrl: API_BASE, ...options });
  return app;
}

describe('mountDocs', () => {
  it('serves the raw document as YAML, byte for byte', async () => {
    const res = await docsApp().request('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(await res.text()).toBe(specText);
  });

  it('serves the same document as JSON', async () => {
    const res = await docsApp().request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(parseYaml(specText));
  });

  it('renders a page that loads only local scripts, with server and demo key configured', async () => {
    const res = await docsApp().request('/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^\/docs\/assets\/scalar-api-reference\.[0-9a-f]+\.js$/);
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:\/\//);
    expect(html).not.toContain('cdn.jsdelivr.net');
    expect(html).toContain('"withDefaultFonts": false');
    // The AI agent panel would fetch a registry from scalar.com on load.
    expect(html).toMatch(/"agent": \{\s*"disabled": true\s*\}/);
    expect(html).toContain('"telemetry": false');
    expect(html).toContain(`"url": "${API_BASE}"`);
    expect(html).toContain(`"value": "${DEMO_KEY}"`);
    expect(html).toContain('"url": "/openapi.json"');
  });

  it('leaves the key empty when no demo key is given', async () => {
    const html = await (await docsApp({}).request('/docs')).text();
    expect(html).not.toContain(DEMO_KEY);
    expect(html).not.toContain('securitySchemes');
  });

  it('serves the Scalar bundle from node_modules with a long cache header', async () => {
    const app = docsApp();
    const html = await (await app.request('/docs')).text();
    const src = /<script[^>]*\ssrc="([^"]+)"/.exec(html)![1];
    const res = await app.request(src);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toMatch(/max-age=31536000/);
    const body = await res.text();
    expect(body.length).toBeGreaterThan(100_000);
    expect(body).toContain('createApiReference');
  });

  it('refuses an empty document', () => {
    expect(() => mountDocs(new Hono(), { specText: ' ', apiBaseUrl: API_BASE })).toThrow(
      /specText/,
    );
  });
});
