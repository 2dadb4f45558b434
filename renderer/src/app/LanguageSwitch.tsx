// Español / English, saved as the desk's preference in main (unless IT locked it).
import { useQueryClient } from '@tanstack/react-query';
import type { JSX } from 'react';
import type { Language } from '../../../shared/language';
import { unwrap } from '../bridge/client';
import { bridge, keys } from '../api/queries';
import { useI18n } from '../i18n';

export function LanguageSwitch({ locked }: { locked: boolean }): JSX.Element {
  const { t, language, setLanguage } = useI18n();
  const queryClient = useQueryClient();
  const next: Language = language === 'es-MX' ? 'en-US' : 'es-MX';

  async function change(): Promise<void> {
    const saved = await unwrap(bridge().app.setLanguage({ language: next })).catch(() => ({ language: next }));
    setLanguage(saved.language);
    void queryClient.invalidateQueries({ queryKey: keys.appInfo });
  }

  return (
    <button type="button" lang={next} disabled={locked} title={locked ? t('ws.languageLocked') : undefined} onClick={() => void change()}>
      {next === 'en-US' ? 'English' : 'Español'}
    </button>
  );
}
