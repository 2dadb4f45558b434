// Serves the built renderer read-only to Chromium, as the app's protocol handler will: nothing outside the folder.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Serves out/renderer read-only; anything outside it (or missing) is a 404. */
export function startStaticServer(root: string): Promise<Server> {
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname === '/favicon.ico') {
      // Chromium asks for it on its own; the Electron window never does.
      response.writeHead(204).end();
      return;
    }
    const relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
    const file = path.join(root, path.normalize(relative));
    const notFound = (): void => {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    };
    if (!file.startsWith(root + path.sep)) {
      notFound();
      return;
    }
    readFile(file).then((body) => {
      const type = contentTypes[path.extname(file)] ?? 'application/octet-stream';
      response.writeHead(200, { 'content-type': type }).end(body);
    }, notFound);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve(server);
    });
  });
}
