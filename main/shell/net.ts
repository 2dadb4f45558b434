/** Main's one fetch: Electron's net.fetch, Chromium's network stack (the OS proxy settings, PAC files and certificate store). */
import { net } from 'electron';

/**
 * What the stack is given as its `fetch` (payments, tokens, messaging, the partner's reservation system). Node's global
 * fetch ignores the OS proxy and certificates; electron-updater already goes through `net`, and now so does every request.
 * net.fetch takes a string or a Request: a URL object is passed as its text.
 */
export const netFetch: typeof fetch = (input, init) => net.fetch(input instanceof URL ? input.href : input, init);
