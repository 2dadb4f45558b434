// Issue 14, item 5 (main side): every error that crosses the door has a code the renderer can say in the desk's
// language. The codes main writes are read from its source with the TypeScript checker (every `new …Error(code)` of a
// capability, unions included, and the door's own refusals), and each must be in the contract's list
// (shared/ipc/errors.ts); each listed code must have its sentence in the es-MX and en-US catalogues, made only of the
// params it carries. A code nobody listed fails here, as does a code without a translation.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode } from '../../../shared/ipc';
import { TEXT_ISSUES } from '../../../shared/text';
import { enUS } from '../../../renderer/src/i18n/messages.en-US';
import { esMX } from '../../../renderer/src/i18n/messages.es-MX';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** Each capability's error class and which constructor argument is its code. */
const CODE_ARGUMENT: Readonly<Record<string, number>> = {
  ServiceError: 1,
  OperatorError: 0,
  RefundError: 0,
  ReservationError: 0,
  SettingsError: 0,
  SecretError: 0,
  UpdateError: 0,
  MessagingError: 0,
};
/** Where the code is the payment service's own word, not one main writes: it crosses listed or as service_refused. */
const SERVICE_WORDS = ['main/payments/client.ts', 'main/payments/tokens.ts'];

function codesMainWrites(): { codes: Set<string>; open: string[] } {
  const config = ts.getParsedCommandLineOfConfigFile(`${root}main/tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('main/tsconfig.json not read');
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const codes = new Set<string>();
  const open: string[] = [];
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(`${root}main/`)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && Object.hasOwn(CODE_ARGUMENT, node.expression.text)) {
        const argument = node.arguments?.[CODE_ARGUMENT[node.expression.text] ?? 0];
        if (argument) {
          const type = checker.getTypeAtLocation(argument);
          for (const part of type.isUnion() ? type.types : [type]) {
            if (part.isStringLiteral()) codes.add(part.value);
            else open.push(file.fileName.slice(root.length));
          }
        }
      }
      // The door's own refusals: refuse('code', …).
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'refuse') {
        const first = node.arguments[0];
        if (first && ts.isStringLiteral(first)) codes.add(first.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return { codes, open };
}

const placeholders = (text: string): string[] => Array.from(text.matchAll(/\{(\w+)\}/g), (m) => m[1] ?? '');

describe('error codes across the door', () => {
  it('every code main writes is in the contract’s list; only the service’s own words are not literal', () => {
    const { codes, open } = codesMainWrites();
    for (const code of Object.keys(TEXT_ISSUES)) codes.add(code);
    // A sanity floor: the scan found the capabilities' codes, not nothing.
    expect(codes.size).toBeGreaterThan(60);
    expect([...codes].filter((code) => !isErrorCode(code)).sort()).toEqual([]);
    expect([...new Set(open)].sort()).toEqual(SERVICE_WORDS);
    // The door maps any code it does not list (main/ipc/dispatch.ts): the service's words cannot leak untranslatable.
    expect(readFileSync(`${root}main/ipc/dispatch.ts`, 'utf8')).toMatch(/isErrorCode\(error\.code\)/);
  });

  it.each(Object.entries(ERROR_CODES))('%s has its sentence in es-MX and en-US, made of its own params', (code, params) => {
    const key = `error.${code}`;
    for (const catalogue of [enUS, esMX] as Record<string, string>[]) {
      expect(Object.hasOwn(catalogue, key), `${key} missing`).toBe(true);
      const text = catalogue[key] ?? '';
      expect(text.trim()).not.toBe('');
      for (const name of placeholders(text)) expect(params as readonly string[]).toContain(name);
    }
    // The Spanish sentence is not the English one left untranslated.
    expect((esMX as Record<string, string>)[key]).not.toBe((enUS as Record<string, string>)[key]);
  });
});
