// Who may call main: only the app's own window, its top frame, on the app's own page.
import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, createSenderCheck } from '../../../main/window';

describe('createSenderCheck', () => {
  const check = createSenderCheck({ appUrl: APP_ENTRY_URL, isAppWindow: (id) => id === 7 });

  it('trusts the app window’s top frame on app://app', () => {
    expect(check({ url: 'app://app/index.html', isMainFrame: true, webContentsId: 7 })).toBe(true);
    expect(check({ url: 'app://app/index.html#/payments', isMainFrame: true, webContentsId: 7 })).toBe(true);
  });

  it('refuses a sub-frame, another window, another page or scheme', () => {
    expect(check({ url: 'app://app/index.html', isMainFrame: false, webContentsId: 7 })).toBe(false);
    expect(check({ url: 'app://app/index.html', isMainFrame: true, webContentsId: 8 })).toBe(false);
    expect(check({ url: 'app://evil/index.html', isMainFrame: true, webContentsId: 7 })).toBe(false);
    expect(check({ url: 'file:///opt/app/index.html', isMainFrame: true, webContentsId: 7 })).toBe(false);
    expect(check({ url: 'https://app/index.html', isMainFrame: true, webContentsId: 7 })).toBe(false);
    expect(check({ url: '', isMainFrame: true, webContentsId: 7 })).toBe(false);
  });

  it('in development trusts the dev server only', () => {
    const dev = createSenderCheck({ appUrl: 'http://localhost:5173/', isAppWindow: () => true });
    expect(dev({ url: 'http://localhost:5173/index.html', isMainFrame: true, webContentsId: 1 })).toBe(true);
    expect(dev({ url: 'http://localhost:5174/', isMainFrame: true, webContentsId: 1 })).toBe(false);
    expect(dev({ url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 })).toBe(false);
  });
});
