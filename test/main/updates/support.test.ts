// Which desks update themselves: installed, signed builds that electron-updater can verify (Windows NSIS, macOS).
import { describe, expect, it } from 'vitest';
import { pinsPublisher, updateSupport, type DeskFacts } from '../../../main/updates';

/** app-update.yml as electron-builder writes it for a signed Windows build (publisherName from the certificate). */
const SIGNED_WINDOWS = `provider: generic
url: https://updates.invalid/card-payments-desk
publisherName:
  - Hotel Group Call Centers S.A. de C.V.
updaterCacheDirName: card-payments-desk-updater
`;
const UNSIGNED = `provider: generic
url: https://updates.invalid/card-payments-desk
updaterCacheDirName: card-payments-desk-updater
`;

const windows: DeskFacts = { platform: 'win32', packaged: true, appUpdateConfig: SIGNED_WINDOWS, nsisInstall: true };

describe('pinsPublisher', () => {
  it('true only when app-update.yml names the publisher (a list or one name)', () => {
    expect(pinsPublisher(SIGNED_WINDOWS)).toBe(true);
    expect(pinsPublisher('publisherName: Hotel Group\nprovider: generic\n')).toBe(true);
    expect(pinsPublisher(SIGNED_WINDOWS.replace('\r\n', '\n').replaceAll('\n', '\r\n'))).toBe(true);
    expect(pinsPublisher(UNSIGNED)).toBe(false);
    expect(pinsPublisher('publisherName:\nupdaterCacheDirName: x\n')).toBe(false);
    expect(pinsPublisher(undefined)).toBe(false);
  });
});

describe('updateSupport', () => {
  it('a signed Windows build installed by the NSIS installer updates itself', () => {
    expect(updateSupport(windows)).toBeUndefined();
  });

  it('macOS updates itself (Squirrel.Mac checks the signature)', () => {
    expect(
      updateSupport({ ...windows, platform: 'darwin', appUpdateConfig: UNSIGNED, nsisInstall: false }),
    ).toBeUndefined();
  });

  it.each([
    ['a development run', { packaged: false }, /not an installed build/],
    ['a build packaged without app-update.yml', { appUpdateConfig: undefined }, /no app-update\.yml/],
    ['an MSI install', { nsisInstall: false }, /installed with the MSI/],
    ['an unsigned Windows build', { appUpdateConfig: UNSIGNED }, /not signed/],
    ['Linux', { platform: 'linux' as const }, /package manager/],
  ])('%s does not', (_case, facts, reason) => {
    expect(updateSupport({ ...windows, ...facts })).toMatch(reason);
  });
});
