// Español / English, saved as the desk's preference in main (unless IT locked it).
import type { JSX } from 'react';
import type { Language } from '../../../shared/language';
import { useI18n } from '../i18n';
import { useSetLanguage } from './api';

export function LanguageSwitch({ locked }: { locked: boolean }): JSX.Element {
  const { t, language, setLanguage } = useI18n();
  const save = useSetLanguage();
  const next: Language = language === 'es-MX' ? 'en-US' : 'es-MX';

  return (
    <button
      type="button"
      lang={next}
      disabled={locked}
      title={locked ? t('ws.languageLocked') : undefined}
      onClick={() => save.mutate(next, { onSuccess: (saved) => setLanguage(saved.language) })}
    >
      {next === 'en-US' ? 'English' : 'Español'}
    </button>
  );
}
