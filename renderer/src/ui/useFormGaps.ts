// The app's own check of a form's required and too-short fields (forms are noValidate: no browser bubble in the
// browser's language), worded in the desk's language with the field named by its label.
import { useState, type FormEvent } from 'react';
import { useI18n } from '../i18n';

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isField = (element: Element): element is Field =>
  element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement;

/** A field's label as the agent reads it, without the "(optional)"-style tail of a hint. */
const labelOf = (field: Field): string => field.labels?.[0]?.textContent?.trim() ?? field.name;

export interface FormGaps {
  /** The message for the first gap found on the last submit, or undefined. */
  gap: string | undefined;
  /** True when every required field is filled (and long enough); else says why, marks the field and focuses it. */
  check: (form: HTMLFormElement) => boolean;
  /** Forgets the last gap (the form was reset, or sent another way). */
  clear: () => void;
  /** A form's submit handler: the page stays, and `send` gets what the form holds once no field has a gap. */
  onSubmit: (send: (form: FormData, element: HTMLFormElement) => void) => (event: FormEvent<HTMLFormElement>) => void;
}

export function useFormGaps(): FormGaps {
  const { t } = useI18n();
  const [gap, setGap] = useState<string>();

  function check(form: HTMLFormElement): boolean {
    const fields = Array.from(form.elements).filter(isField);
    for (const field of fields) field.removeAttribute('aria-invalid');
    for (const field of fields) {
      if (field.disabled) continue;
      const value = field.value.trim();
      const min = field instanceof HTMLSelectElement ? -1 : field.minLength;
      const problem =
        field.required && value === ''
          ? t('form.required', { field: labelOf(field) })
          : min > 0 && value !== '' && field.value.length < min
            ? t('form.tooShort', { field: labelOf(field), min })
            : undefined;
      if (problem !== undefined) {
        field.setAttribute('aria-invalid', 'true');
        field.focus();
        setGap(problem);
        return false;
      }
    }
    setGap(undefined);
    return true;
  }

  const onSubmit =
    (send: (form: FormData, element: HTMLFormElement) => void) =>
    (event: FormEvent<HTMLFormElement>): void => {
      event.preventDefault();
      const element = event.currentTarget;
      if (check(element)) send(new FormData(element), element);
    };

  return { gap, check, clear: () => setGap(undefined), onSubmit };
}
