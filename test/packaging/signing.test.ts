// How `npm run dist` signs: decided from the environment only, refusing half-set credentials, and labelling unsigned builds.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

interface Plan {
  signed: boolean;
  label: string;
  how: string;
  config: Record<string, unknown>;
  env: Record<string, string>;
}
interface Signing {
  signingPlan: (platform: string, env: Record<string, string | undefined>, config: Record<string, unknown>) => Plan;
  labelled: (artifactName: string, label: string) => string;
  AZURE_VARIABLES: string[];
}

const { signingPlan, labelled, AZURE_VARIABLES } = createRequire(import.meta.url)(
  '../../scripts/package-signing.cjs',
) as Signing;

/** The artifact names of electron-builder.yml. */
const CONFIG = {
  nsis: { artifactName: '${productName}-Setup-${version}.${ext}' },
  msi: { artifactName: '${productName}-${version}.${ext}' },
  mac: { artifactName: '${productName}-${version}-${arch}-mac.${ext}' },
  dmg: { artifactName: '${productName}-${version}-${arch}.${ext}' },
};
const AZURE = Object.fromEntries(AZURE_VARIABLES.map((name) => [name, `value-of-${name}`]));

describe('Windows', () => {
  it('no signing variables: unsigned, and both installers say so in their names', () => {
    const plan = signingPlan('win', {}, CONFIG);
    expect(plan).toMatchObject({ signed: false, label: '-UNSIGNED' });
    expect(plan.config).toEqual({
      nsis: { artifactName: '${productName}-Setup-${version}-UNSIGNED.${ext}' },
      msi: { artifactName: '${productName}-${version}-UNSIGNED.${ext}' },
    });
    expect(plan.how).toMatch(/never updates itself/);
  });

  it('a certificate (CSC_LINK or WIN_CSC_LINK): signed by electron-builder itself, names unchanged', () => {
    expect(signingPlan('win', { CSC_LINK: 'C:\\certs\\desk.pfx', CSC_KEY_PASSWORD: 'x' }, CONFIG)).toEqual({
      signed: true,
      label: '',
      how: expect.stringMatching(/certificate/) as unknown,
      config: {},
      env: {},
    });
    expect(signingPlan('win', { WIN_CSC_LINK: 'base64…' }, CONFIG).signed).toBe(true);
  });

  it('Azure Trusted Signing: the account from the environment becomes win.azureSignOptions (the secret stays in the environment)', () => {
    const plan = signingPlan('win', AZURE, CONFIG);
    expect(plan.signed).toBe(true);
    expect(plan.config).toEqual({
      win: {
        azureSignOptions: {
          endpoint: 'value-of-AZURE_TRUSTED_SIGNING_ENDPOINT',
          codeSigningAccountName: 'value-of-AZURE_TRUSTED_SIGNING_ACCOUNT',
          certificateProfileName: 'value-of-AZURE_TRUSTED_SIGNING_PROFILE',
          publisherName: 'value-of-AZURE_TRUSTED_SIGNING_PUBLISHER',
        },
      },
    });
    expect(JSON.stringify(plan)).not.toContain('value-of-AZURE_CLIENT_SECRET');
  });

  it('refuses half-set Azure variables (naming what is missing) and two signings at once', () => {
    expect(() => signingPlan('win', { ...AZURE, AZURE_TRUSTED_SIGNING_PROFILE: ' ' }, CONFIG)).toThrow(
      /half configured: set AZURE_TRUSTED_SIGNING_PROFILE too/,
    );
    expect(() => signingPlan('win', { ...AZURE, CSC_LINK: 'x' }, CONFIG)).toThrow(/choose one/);
  });
});

describe('macOS', () => {
  it('no identity: unsigned, not notarized, no keychain identity picked up, and the names say so', () => {
    const plan = signingPlan('mac', {}, CONFIG);
    expect(plan).toMatchObject({ signed: false, label: '-UNSIGNED', env: { CSC_IDENTITY_AUTO_DISCOVERY: 'false' } });
    expect(plan.config).toEqual({
      mac: { artifactName: '${productName}-${version}-${arch}-mac-UNSIGNED.${ext}', notarize: false, identity: null },
      dmg: { artifactName: '${productName}-${version}-${arch}-UNSIGNED.${ext}' },
    });
  });

  it('signed without Apple credentials: labelled not notarized', () => {
    const plan = signingPlan('mac', { CSC_LINK: 'developer-id.p12' }, CONFIG);
    expect(plan).toMatchObject({ signed: true, label: '-UNNOTARIZED' });
    expect(plan.config).toMatchObject({
      mac: { notarize: false, artifactName: '${productName}-${version}-${arch}-mac-UNNOTARIZED.${ext}' },
    });
  });

  it('signed and notarized with an API key, or an Apple ID: nothing to change', () => {
    expect(
      signingPlan(
        'mac',
        { CSC_LINK: 'x', APPLE_API_KEY: 'k.p8', APPLE_API_KEY_ID: 'id', APPLE_API_ISSUER: 'iss' },
        CONFIG,
      ),
    ).toMatchObject({ signed: true, label: '', config: {} });
    expect(
      signingPlan(
        'mac',
        {
          CSC_NAME: 'Developer ID Application: Hotel',
          APPLE_ID: 'a',
          APPLE_APP_SPECIFIC_PASSWORD: 'b',
          APPLE_TEAM_ID: 'c',
        },
        CONFIG,
      ).label,
    ).toBe('');
  });

  it('refuses half-set notarization credentials', () => {
    expect(() => signingPlan('mac', { CSC_LINK: 'x', APPLE_API_KEY: 'k.p8' }, CONFIG)).toThrow(
      /set APPLE_API_KEY_ID, APPLE_API_ISSUER too/,
    );
  });
});

describe('Linux and names', () => {
  it('Linux packages are not signed one by one (the apt repository is)', () => {
    expect(signingPlan('linux', { CSC_LINK: 'x' }, CONFIG)).toMatchObject({ signed: false, label: '', config: {} });
  });

  it('labels go before the extension; a name without ${ext} is refused', () => {
    expect(labelled('${productName}-${version}.${ext}', '-UNSIGNED')).toBe('${productName}-${version}-UNSIGNED.${ext}');
    expect(labelled('a.${ext}', '')).toBe('a.${ext}');
    expect(() => labelled('a.exe', '-UNSIGNED')).toThrow(/must end with/);
    expect(() => signingPlan('beos', {}, CONFIG)).toThrow(/Unknown platform/);
  });
});
