// Every error that crosses the door has a code the renderer can say in the desk's
// language. The codes main writes are read from its source with the TypeScript checker (every `new …Error(code)` of a
// capability, unions included, and the door's own refusals), and each must be in the contract's list
// (shared/ipc/errors.ts); each listed code must have its sentence in the es-MX and en-US catalogues
// (renderer/src/i18n/errors.*.ts), made only of what describeError fills from the params it carries. A code nobody
// listed fails here, as does a code without a translation.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode } from '../../../shared/ipc';
import { TEXT_ISSUES } from '../../../shared/text';
import { ApiError, describeError, knowsCode } from '../../../renderer/src/bridge/errors';
import { bindI18n } from '../../../renderer/src/i18n/bind';
import { CATALOGUES, placeholdersOf } from '../../../renderer/src/i18n/catalogue';

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
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}main/tsconfig.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('main/tsconfig.json not read');
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const codes = new Set<string>();
  const open: string[] = [];
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(`${root}main/`)) continue;
    const visit = (node: ts.Node): void => {
      // A capability's error class names its codes: class …Error extends UserError<'a' | 'b'> (or its code union).
      if (ts.isClassDeclaration(node)) {
        for (const clause of node.heritageClauses ?? []) {
          for (const base of clause.types) {
            if (!ts.isIdentifier(base.expression) || base.expression.text !== 'UserError') continue;
            for (const argument of base.typeArguments ?? []) {
              const type = checker.getTypeAtLocation(argument);
              for (const part of type.isUnion() ? type.types : [type])
                if (part.isStringLiteral()) codes.add(part.value);
            }
          }
        }
      }
      if (
        ts.isNewExpression(node) &&
        ts.isIdentifier(node.expression) &&
        Object.hasOwn(CODE_ARGUMENT, node.expression.text)
      ) {
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

const en = CATALOGUES['en-US'] as Readonly<Record<string, string>>;
const es = CATALOGUES['es-MX'] as Readonly<Record<string, string>>;

/**
 * The names describeError fills from a code's params (renderer/src/bridge/errors.ts): each param as it is, an amount
 * `{x}` from a param `xCents` said as money in `currency`, and `{field}`, the label of the field main named.
 */
function fillable(params: readonly string[]): Set<string> {
  const names = new Set([...params, 'field']);
  if (params.includes('currency'))
    for (const name of params) if (name.endsWith('Cents')) names.add(name.slice(0, -'Cents'.length));
  return names;
}

/** A value for each param, as main would send it. */
function sample(params: readonly string[]): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const name of params) {
    if (name.endsWith('Cents')) values[name] = 123456;
    else if (name === 'currency') values[name] = 'mxn';
    else if (name === 'role') values[name] = 'agent';
    else if (name === 'serviceCode') values[name] = 'brand_new_code';
    else if (['minutes', 'failures', 'status'].includes(name)) values[name] = 5;
    else values[name] = 'Ana López';
  }
  return values;
}

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

  it.each(Object.entries(ERROR_CODES))(
    '%s has its sentence in es-MX and en-US, made of what its params fill',
    (code, params: readonly string[]) => {
      expect(knowsCode(code), `no sentence for ${code}`).toBe(true);
      // The code's sentences: its own, the plain one, one per param or field, the card form's.
      const keys = Object.keys(en).filter(
        (key) => key === `error.${code}` || key.startsWith(`error.${code}.`) || key === `card.error.${code}`,
      );
      const allowed = fillable(params);
      for (const key of keys) {
        for (const catalogue of [en, es]) {
          const text = catalogue[key] ?? '';
          expect(text.trim(), key).not.toBe('');
          for (const name of placeholdersOf(text)) expect([...allowed], `${key}: {${name}}`).toContain(name);
        }
        // The Spanish sentence is not the English one left untranslated.
        expect(es[key], key).not.toBe(en[key]);
      }
      // Said with the params main sends, in both languages: no placeholder left, never main's English, never "unknown".
      const english = 'MAIN SAID THIS IN ENGLISH';
      for (const language of ['es-MX', 'en-US'] as const) {
        const t = bindI18n(language, () => undefined).t;
        const unknown = t('error.unknown', { code });
        for (const values of [sample(params), {}]) {
          const text = describeError(new ApiError({ code, message: english, params: values }), t);
          expect(text, code).not.toMatch(/\{\w+\}/);
          expect(text, code).not.toContain(english);
          expect(text, code).not.toBe(unknown);
        }
      }
    },
  );

  it('a service code the contract does not list is said as service_refused, or as itself when the catalogues know it', () => {
    const t = bindI18n('en-US', () => undefined).t;
    const unlisted = describeError(
      new ApiError({ code: 'service_refused', message: 'x', params: { serviceCode: 'brand_new_code' } }),
      t,
    );
    expect(unlisted).toBe(t('error.service_refused', { serviceCode: 'brand_new_code' }));
    const known = describeError(
      new ApiError({ code: 'service_refused', message: 'x', params: { serviceCode: 'rate_limited' } }),
      t,
    );
    expect(known).toBe(t('error.rate_limited'));
  });
});
