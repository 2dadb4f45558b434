// A calendar day typed in the desk's format (dd/mm/aaaa in Spanish, mm/dd/yyyy in English), never the browser's own
// date picker in the browser's language; its value is the ISO day ("2025-03-14"), or '' when empty.
import { useState, type JSX } from 'react';
import { formatDateInput, parseDateInput, useI18n } from '../i18n';
import { Field } from './Field';
import { FieldHint } from './FieldHint';

interface Props {
  id: string;
  label: string;
  /** A form's field name: the ISO day is sent under it (a hidden input), '' when empty or not a day. */
  name?: string;
  /** The day at first ("2025-03-14"). */
  initial?: string;
  /** Told each time the text is a day (or empty: ''). */
  onChange?: (iso: string) => void;
}

export function DateField({ id, label, name, initial = '', onChange }: Props): JSX.Element {
  const { t, language } = useI18n();
  const [text, setText] = useState(() => formatDateInput(initial, language));
  const [left, setLeft] = useState(false);
  const parsed = parseDateInput(text, language);
  const wrong = parsed === undefined && left;
  const pattern = t('date.pattern');
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        inputMode="numeric"
        autoComplete="off"
        placeholder={pattern}
        value={text}
        aria-invalid={wrong}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setText(event.target.value);
          const day = parseDateInput(event.target.value, language);
          if (day !== undefined) onChange?.(day);
        }}
        onBlur={() => setLeft(true)}
      />
      {name !== undefined && <input type="hidden" name={name} value={parsed ?? ''} />}
      <FieldHint
        id={`${id}-hint`}
        problem={wrong ? t('date.invalid', { field: label, pattern }) : undefined}
        hint={pattern}
      />
    </Field>
  );
}
