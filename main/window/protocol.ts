/** The app:// protocol that serves the packaged renderer: files under one folder only, each answer with the CSP. */
import { readFile as readFileFromDisk } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from './csp';

export const APP_SCHEME = 'app';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The file an app:// URL names inside rootDir, or undefined when it names nothing there: another host,
 * a dot segment (also percent-encoded), a backslash, a NUL, or anything that resolves outside the folder.
 * Refused, never normalised into something else.
 */
export function resolveAppFile(rootDir: string, requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username !== '' || url.password !== '')
    return undefined;
  // The parser has removed plain dot segments already; the raw form still matters for encoded ones.
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0') || pathname.includes('\\') || /%2e|%2f|%5c/i.test(url.pathname)) return undefined;
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..' || /^[a-z]:$/i.test(segment))) return undefined;
  const root = path.resolve(rootDir);
  const file = path.resolve(root, ...(segments.length === 0 ? ['index.html'] : segments));
  return file.startsWith(root + path.sep) ? file : undefined;
}

export interface AppProtocolOptions {
  /** The built renderer (out/renderer, inside the asar when packaged). */
  rootDir: string;
  /** Tests pass their own; Electron's patched fs reads inside the asar. */
  readFile?: (file: string) => Promise<Uint8Array>;
}

const notFound = (): Response =>
  new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/** The handler for Electron's protocol.handle('app', …): GET and HEAD of files under rootDir, nothing else. */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const readFile = options.readFile ?? ((file: string) => readFileFromDisk(file));
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    const file = resolveAppFile(options.rootDir, request.url);
    if (file === undefined) return notFound();
    let body: Uint8Array;
    try {
      body = await readFile(file);
    } catch {
      // Missing, a folder, unreadable: all the same to the page, and no path is echoed back.
      return notFound();
    }
    const headers = {
      'content-type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    };
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}
