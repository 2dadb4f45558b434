// The reservation import's problems, worded from the catalogues by code and numbers in both languages: every code main
// can send (shared/reservations CSV_ISSUE_CODES) and every column's own "invalid value" sentence has a message, with
// every placeholder filled — never main's English `message`.
import { describe, expect, it } from 'vitest';
import { CSV_ISSUE_CODES, RESERVATION_CSV_COLUMNS, type CsvIssueCode } from '../../../../shared/reservations';
import { issueText } from '../../../../renderer/src/features/admin/issues';

const CODES = Object.keys(CSV_ISSUE_CODES) as CsvIssueCode[];

describe('import problems in the desk’s language', () => {
  for (const language of ['es-MX', 'en-US'] as const) {
    it(`every code and column has its sentence, placeholders filled (${language})`, () => {
      for (const code of CODES) {
        const params = Object.fromEntries(CSV_ISSUE_CODES[code].map((name) => [name, 20_000]));
        const text = issueText({ code, column: 'guest_emial', params, message: 'MAIN ENGLISH' }, language);
        expect(text, code).not.toMatch(/[{}]|MAIN ENGLISH|^import\./);
      }
      for (const { name } of RESERVATION_CSV_COLUMNS) {
        const text = issueText({ code: 'invalid_value', column: name, message: 'MAIN ENGLISH' }, language);
        expect(text, name).not.toMatch(/[{}]|MAIN ENGLISH|^import\./);
      }
    });
  }

  it('says the numbers the desk’s way and names the column', () => {
    expect(issueText({ code: 'too_many_rows', params: { rows: 20_001, max: 20_000 }, message: '' }, 'en-US')).toBe(
      'The file has 20,001 reservations; at most 20,000 can be imported at once. Split it into smaller files.',
    );
    expect(issueText({ code: 'cell_count', line: 4, params: { cells: 8, columns: 9 }, message: '' }, 'en-US')).toMatch(
      /^This line has 8 cells but the header has 9 columns\./,
    );
    expect(
      issueText(
        {
          code: 'duplicate_confirmation',
          line: 5,
          column: 'confirmation_number',
          params: { firstLine: 2 },
          message: '',
        },
        'es-MX',
      ),
    ).toBe(
      'Este número de confirmación ya está en la línea 2: cada reservación puede aparecer solo una vez en un archivo.',
    );
    expect(
      issueText(
        { code: 'invalid_value', column: 'currency', message: 'Invalid option: expected one of "mxn"|"usd"' },
        'es-MX',
      ),
    ).toBe('La moneda debe ser mxn o usd.');
    expect(issueText({ code: 'missing_column', column: 'currency', message: '' }, 'es-MX')).toBe(
      'La fila de encabezado no tiene la columna "currency", que toda reservación necesita.',
    );
  });
});
