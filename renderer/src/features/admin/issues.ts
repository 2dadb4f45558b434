// A reservation file's problems in the desk's language: each worded from the catalogues by its code and numbers.
import type { Language } from '../../../../shared/language';
import {
  RESERVATION_CSV_COLUMNS,
  type CsvImportIssue,
  type ReservationCsvColumn,
} from '../../../../shared/reservations';
import { messageFor } from '../../i18n/catalogue';

const COLUMNS = RESERVATION_CSV_COLUMNS.map((column) => column.name).join(', ');
const isColumn = (name: string | undefined): name is ReservationCsvColumn =>
  RESERVATION_CSV_COLUMNS.some((column) => column.name === name);

/** A problem in the file, worded from the catalogues by its code and numbers (main's English `message` is for its logs). */
export function issueText(issue: CsvImportIssue, language: Language): string {
  const count = new Intl.NumberFormat(language);
  const numbers = Object.fromEntries(
    Object.entries(issue.params ?? {}).map(([name, value]) => [
      name,
      name === 'firstLine' ? String(value) : count.format(value),
    ]),
  );
  if (issue.code === 'invalid_value' && isColumn(issue.column))
    return messageFor(language, `import.issue.invalid_value.${issue.column}`);
  return messageFor(language, `import.issue.${issue.code}`, { ...numbers, column: issue.column ?? '', known: COLUMNS });
}
