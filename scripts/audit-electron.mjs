// Advisory Electron security audit (`npm run audit:electron`): electronegativity over the app's own sources.
// Findings are printed and never fail the run; a crash of the tool, or a source file it could not read, does.
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** What ships: main process, preload, renderer (with its index.html and CSP), and the shared code they use. */
const SOURCES = ['main', 'preload', 'renderer', 'shared'];

/**
 * Checks left out, by the class name electronegativity knows them by. Each reason is in docs/security.md, "How it is checked".
 * A misspelt name makes electronegativity exit with an error, so this list cannot silently stop matching.
 */
const EXCLUDED_CHECKS = {
  // The `remote` module was removed in Electron 14: the check asks every window for `enableRemoteModule: false`,
  // an option Electron 45 no longer has.
  RemoteModuleJSCheck: 'the remote module and enableRemoteModule were removed in Electron 14',
  // `webPreferences.affinity` was removed in Electron 14 as well.
  AffinityJSCheck: 'webPreferences.affinity was removed in Electron 14',
  AffinityHTMLCheck: 'webPreferences.affinity was removed in Electron 14',
  AffinityGlobalCheck: 'webPreferences.affinity was removed in Electron 14',
  // Downloads a release list at every run from the electron/releases repository, which Electron deprecated in 2023
  // (electron/electron#37164), and reads the version from package.json, which is not among the audited sources.
  // Electron updates are tracked by npm (`npm outdated`, `npm audit`).
  AvailableSecurityFixesGlobalCheck:
    'reads release data from the deprecated electron/releases repository over the network',
};

const SEVERITY_ORDER = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'];

/** The Electron the app is built with, read from the package's own metadata (the binary may be absent). */
async function electronVersion() {
  const manifest = JSON.parse(await readFile(require.resolve('electron/package.json'), 'utf8'));
  return manifest.version;
}

function label(attribute) {
  // electronegativity's severity and confidence objects carry their name.
  return typeof attribute?.name === 'string' ? attribute.name : String(attribute?.format?.() ?? attribute);
}

async function main() {
  const run = require('@doyensec/electronegativity');
  if (typeof run !== 'function') throw new Error('@doyensec/electronegativity did not export its runner');
  const version = await electronVersion();

  // One folder holding only the app's sources: the tool scans a single input, and its global checks (CSP,
  // navigation, permissions) must see main, preload and the renderer's HTML together.
  const work = await mkdtemp(path.join(tmpdir(), 'audit-electron-'));
  try {
    for (const source of SOURCES) {
      await cp(path.join(root, source), path.join(work, source), { recursive: true });
    }
    const result = await run({
      input: work,
      output: undefined,
      isSarif: false,
      customScan: [],
      excludeFromScan: Object.keys(EXCLUDED_CHECKS),
      severitySet: undefined,
      confidenceSet: undefined,
      isRelative: true,
      isVerbose: true,
      electronUpgrade: undefined,
      electronVersionOverride: version,
      parserPlugins: [],
    });
    report(result, version);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function report({ issues, errors }, version) {
  const unreadable = errors.filter((error) => !error.tolerable);
  for (const error of errors) {
    const kind = error.tolerable ? 'warning' : 'error';
    console.error(`electronegativity ${kind}: ${error.file}: ${error.message}`);
  }

  const findings = issues
    .map((issue) => ({
      severity: label(issue.severity),
      confidence: label(issue.confidence),
      id: issue.id,
      where: issue.file === 'N/A' ? '(whole app)' : `${issue.file}:${issue.location.line}:${issue.location.column}`,
      review: issue.manualReview === true,
      description: String(issue.description ?? '').trim(),
      url: issue.shortenedURL,
    }))
    .sort(
      (a, b) =>
        SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
        a.id.localeCompare(b.id) ||
        a.where.localeCompare(b.where),
    );

  console.log(`Electron security audit (electronegativity, Electron ${version}) of ${SOURCES.join('/, ')}/ — advisory`);
  console.log(
    `Excluded checks: ${Object.entries(EXCLUDED_CHECKS)
      .map(([name, why]) => `${name} (${why})`)
      .join('; ')}`,
  );
  console.log('Each HIGH finding is fixed or explained in docs/security.md, "How it is checked".\n');
  for (const finding of findings) {
    console.log(
      `${finding.severity}/${finding.confidence}  ${finding.id}  ${finding.where}${finding.review ? '  [review required]' : ''}`,
    );
    if (finding.description !== '') console.log(`    ${finding.description}`);
    if (finding.url) console.log(`    ${finding.url}`);
  }
  const counts = SEVERITY_ORDER.map(
    (severity) => `${severity.toLowerCase()}=${findings.filter((f) => f.severity === severity).length}`,
  );
  console.log(`\nelectron-audit ${counts.join(' ')} unreadable_files=${unreadable.length}`);

  if (unreadable.length > 0) {
    // A file the tool could not parse was not audited at all: that is a failure of the audit, not a finding.
    console.error(
      'electron-audit: some sources could not be analysed (see the errors above); the audit is incomplete.',
    );
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(
    `electron-audit: electronegativity failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exitCode = 1;
});
