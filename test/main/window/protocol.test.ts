// The app:// protocol over a real folder: files inside it served with the CSP, everything else (traversal included) refused.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, CONTENT_SECURITY_POLICY, createAppProtocolHandler, resolveAppFile } from '../../../main/window';

let base: string;
let root: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'app-protocol-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}');
  // A neighbour of the served folder whose name starts like it, and a secret one level up.
  mkdirSync(join(base, 'renderer-secrets'));
  writeFileSync(join(base, 'renderer-secrets', 'x.txt'), 'outside');
  writeFileSync(join(base, 'secrets.json'), '{"clientSecret":"must-not-be-served"}');
});
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('resolveAppFile', () => {
  it('maps app://app/ paths to files under the folder, and / to index.html', () => {
    expect(resolveAppFile(root, APP_ENTRY_URL)).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://app/')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://app/assets/index-abc.js?v=1#x')).toBe(join(root, 'assets', 'index-abc.js'));
    expect(resolveAppFile(root, 'app://app/assets/a%20b.png')).toBe(join(root, 'assets', 'a b.png'));
  });

  // The URL parser clamps plain and %2e dot segments at the root (app://app/../x is app://app/x): those stay inside.
  it.each([
    'app://app/../secrets.json',
    'app://app/assets/../../secrets.json',
    'app://app/%2e%2e/secrets.json',
    'app://app/../renderer-secrets/x.txt',
    'app://app/%252e%252e/secrets.json',
  ])('keeps %s inside the folder', async (url) => {
    const file = resolveAppFile(root, url);
    expect(file === undefined || file.startsWith(join(root, '/'))).toBe(true);
    const body = await (await createAppProtocolHandler({ rootDir: root })(new Request(url))).text();
    expect(body).not.toMatch(/must-not-be-served|outside/);
  });

  it.each([
    'app://app/%2E%2E%2Fsecrets.json',
    'app://app/..%2fsecrets.json',
    'app://app/..%5csecrets.json',
    'app://app/assets%2f..%2f..%2fsecrets.json',
    'app://app/..\\secrets.json',
    'app://app/C:/Windows/win.ini',
    'app://app/index.html%00.js',
    'app://app/%E0%A4%A',
    'app://other/index.html',
    'app://user:pass@app/index.html',
    'file:///etc/passwd',
    'https://app/index.html',
    'not a url',
  ])('refuses %s', (url) => {
    expect(resolveAppFile(root, url)).toBeUndefined();
  });
});

describe('createAppProtocolHandler', () => {
  const handler = () => createAppProtocolHandler({ rootDir: root });

  it('serves a file with its type, the CSP and nosniff', async () => {
    const response = await handler()(new Request(APP_ENTRY_URL));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('<!doctype html><title>app</title>');

    const script = await handler()(new Request('app://app/assets/index-abc.js'));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1)');
    expect((await handler()(new Request('app://app/assets/index-abc.css'))).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
  });

  it('answers 404 for traversal, other hosts, missing files and folders, without echoing a path', async () => {
    for (const url of [
      'app://app/%2e%2e/secrets.json',
      'app://app/..%2fsecrets.json',
      'app://other/index.html',
      'app://app/missing.js',
      'app://app/assets',
    ]) {
      const response = await handler()(new Request(url));
      expect(response.status, url).toBe(404);
      const body = await response.text();
      expect(body).not.toContain('must-not-be-served');
      expect(body).not.toContain(base);
    }
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await handler()(new Request(APP_ENTRY_URL, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await handler()(new Request(APP_ENTRY_URL, { method: 'POST', body: 'x' }));
    expect(post.status).toBe(405);
  });

  it('reads through the given reader (Electron reads inside the asar)', async () => {
    const read: string[] = [];
    const custom = createAppProtocolHandler({
      rootDir: '/opt/app/resources/app.asar/out/renderer',
      readFile: (file) => {
        read.push(file);
        return Promise.resolve(new TextEncoder().encode('from asar'));
      },
    });
    expect(await (await custom(new Request('app://app/assets/x.js'))).text()).toBe('from asar');
    expect(read).toEqual([join('/opt/app/resources/app.asar/out/renderer', 'assets', 'x.js')]);
  });
});

describe('CONTENT_SECURITY_POLICY', () => {
  it('is the policy of renderer/index.html, so the header and the page agree', () => {
    const html = readFileSync(join(import.meta.dirname, '../../../renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(CONTENT_SECURITY_POLICY);
  });

  it('allows no inline script, no eval and nothing remote', () => {
    expect(CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self';/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });
});
