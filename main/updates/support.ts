/** Whether this desk may update itself: only an installed, signed build that electron-updater can verify and install. */

export interface DeskFacts {
  platform: NodeJS.Platform;
  /** app.isPackaged: a development run never updates. */
  packaged: boolean;
  /** The text of resources/app-update.yml, written by electron-builder (undefined when the file is missing). */
  appUpdateConfig: string | undefined;
  /** Windows: the per-user NSIS installer's uninstaller sits next to the executable (IT's MSI has none). */
  nsisInstall: boolean;
}

/**
 * True when app-update.yml names the publisher whose Authenticode signature every Windows update must
 * carry. electron-builder writes `publisherName` only for a signed build; without it electron-updater
 * would install an update without checking its signature.
 */
export function pinsPublisher(appUpdateConfig: string | undefined): boolean {
  return appUpdateConfig !== undefined && /^publisherName:[ \t]*(?:[^\s#]|\r?\n[ \t]*-[ \t]*\S)/m.test(appUpdateConfig);
}

/** Undefined when the desk can update itself; otherwise the reason, in a sentence for IT's logs and --print-config. */
export function updateSupport(facts: DeskFacts): string | undefined {
  if (!facts.packaged) return 'This is not an installed build (development run): updates are off.';
  if (facts.appUpdateConfig === undefined)
    return 'This build has no app-update.yml (it was packaged without a publish setting): updates are off.';
  switch (facts.platform) {
    case 'win32':
      if (!facts.nsisInstall)
        return 'This desk was installed with the MSI: IT deploys new versions (Intune, Group Policy); updates are off.';
      if (!pinsPublisher(facts.appUpdateConfig))
        return "This build is not signed, so an update's signature could not be checked: updates are off.";
      return undefined;
    case 'darwin':
      // Squirrel.Mac installs an update only when it is signed by the same team as the running app.
      return undefined;
    default:
      return 'On Linux, IT deploys new versions with the package manager (the deb package); updates are off.';
  }
}
