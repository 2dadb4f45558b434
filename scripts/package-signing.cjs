// How `npm run dist` signs a build, decided from the environment only (no secret is ever in the repository):
// which signing applies, the electron-builder settings it adds, and the label an unsigned build carries in its file names.
'use strict';

/** Azure Trusted Signing (Windows): the service principal's credentials and the signing account, all from the environment. */
const AZURE_VARIABLES = [
  'AZURE_TENANT_ID',
  'AZURE_CLIENT_ID',
  'AZURE_CLIENT_SECRET',
  'AZURE_TRUSTED_SIGNING_ENDPOINT',
  'AZURE_TRUSTED_SIGNING_ACCOUNT',
  'AZURE_TRUSTED_SIGNING_PROFILE',
  'AZURE_TRUSTED_SIGNING_PUBLISHER',
];
/** Apple notarization: one of these sets (an App Store Connect API key is the recommended one). */
const NOTARIZATION_SETS = [
  ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'],
  ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'],
  ['APPLE_KEYCHAIN', 'APPLE_KEYCHAIN_PROFILE'],
];

const present = (env, name) => typeof env[name] === 'string' && env[name].trim() !== '';

/** `${productName}-1.0.0.${ext}` → `${productName}-1.0.0-UNSIGNED.${ext}` */
function labelled(artifactName, label) {
  if (label === '') return artifactName;
  if (!artifactName.endsWith('.${ext}')) throw new Error(`artifactName "${artifactName}" must end with .\${ext}`);
  return `${artifactName.slice(0, -'.${ext}'.length)}${label}.\${ext}`;
}

/**
 * The signing plan for one platform ('win', 'mac' or 'linux'), from the environment and electron-builder.yml's config.
 * Returns { signed, label, how, config (electron-builder overrides), env (variables to add) } or throws when the
 * environment is half set (a signing that would silently not happen).
 */
function signingPlan(platform, env, config) {
  if (platform === 'linux') {
    return {
      signed: false,
      label: '',
      how: "Linux packages are not signed one by one: publish the deb through IT's signed apt repository.",
      config: {},
      env: {},
    };
  }
  if (platform === 'win') {
    const azureSet = AZURE_VARIABLES.filter((name) => present(env, name));
    const certificate = present(env, 'WIN_CSC_LINK') || present(env, 'CSC_LINK');
    if (azureSet.length > 0 && azureSet.length < AZURE_VARIABLES.length) {
      throw new Error(
        `Azure Trusted Signing is half configured: set ${AZURE_VARIABLES.filter((name) => !present(env, name)).join(', ')} too.`,
      );
    }
    const azure = azureSet.length === AZURE_VARIABLES.length;
    if (azure && certificate)
      throw new Error('Both Azure Trusted Signing and a certificate (CSC_LINK) are set: choose one.');
    if (azure) {
      return {
        signed: true,
        label: '',
        how: 'Windows: Azure Trusted Signing',
        config: {
          win: {
            azureSignOptions: {
              endpoint: env.AZURE_TRUSTED_SIGNING_ENDPOINT,
              codeSigningAccountName: env.AZURE_TRUSTED_SIGNING_ACCOUNT,
              certificateProfileName: env.AZURE_TRUSTED_SIGNING_PROFILE,
              publisherName: env.AZURE_TRUSTED_SIGNING_PUBLISHER,
            },
          },
        },
        env: {},
      };
    }
    if (certificate)
      return { signed: true, label: '', how: 'Windows: certificate from WIN_CSC_LINK / CSC_LINK', config: {}, env: {} };
    return {
      signed: false,
      label: '-UNSIGNED',
      how: 'Windows: UNSIGNED (no CSC_LINK, no Azure Trusted Signing); such a build never updates itself',
      config: {
        nsis: {
          artifactName: labelled(config.nsis?.artifactName ?? '${productName}-Setup-${version}.${ext}', '-UNSIGNED'),
        },
        msi: { artifactName: labelled(config.msi?.artifactName ?? '${productName}-${version}.${ext}', '-UNSIGNED') },
      },
      env: {},
    };
  }
  if (platform === 'mac') {
    const identity = present(env, 'CSC_LINK') || present(env, 'CSC_NAME');
    const notarizing = NOTARIZATION_SETS.find((set) => set.every((name) => present(env, name)));
    const partial = NOTARIZATION_SETS.find(
      (set) => set.some((name) => present(env, name)) && !set.every((name) => present(env, name)),
    );
    if (partial !== undefined && notarizing === undefined) {
      throw new Error(
        `Apple notarization is half configured: set ${partial.filter((name) => !present(env, name)).join(', ')} too.`,
      );
    }
    const names = (label) => ({
      mac: {
        artifactName: labelled(config.mac?.artifactName ?? '${productName}-${version}-${arch}-mac.${ext}', label),
        notarize: label === '',
      },
      dmg: { artifactName: labelled(config.dmg?.artifactName ?? '${productName}-${version}-${arch}.${ext}', label) },
    });
    if (!identity) {
      const unsigned = names('-UNSIGNED');
      // identity null: electron-builder skips signing instead of picking any identity it finds in the keychain.
      return {
        signed: false,
        label: '-UNSIGNED',
        how: 'macOS: UNSIGNED and not notarized (no CSC_LINK / CSC_NAME); Gatekeeper blocks it and it never updates itself',
        config: { ...unsigned, mac: { ...unsigned.mac, identity: null } },
        env: { CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
      };
    }
    if (notarizing === undefined) {
      return {
        signed: true,
        label: '-UNNOTARIZED',
        how: 'macOS: signed but NOT notarized (no Apple notarization credentials)',
        config: names('-UNNOTARIZED'),
        env: {},
      };
    }
    return {
      signed: true,
      label: '',
      how: `macOS: signed and notarized (${notarizing.join(', ')})`,
      config: {},
      env: {},
    };
  }
  throw new Error(`Unknown platform ${platform}: use win, mac or linux.`);
}

module.exports = { AZURE_VARIABLES, NOTARIZATION_SETS, labelled, signingPlan };
