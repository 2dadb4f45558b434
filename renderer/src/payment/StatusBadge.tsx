// A payment's status in words and colour (the words carry the meaning; colour only helps).
import type { JSX } from 'react';
import { useI18n, type MessageKey } from '../i18n';

const KNOWN = ['processing', 'requires_action', 'pending_confirmation', 'succeeded', 'failed', 'expired'] as const;
type Known = (typeof KNOWN)[number];
const isKnown = (status: string): status is Known => (KNOWN as readonly string[]).includes(status);

export function StatusBadge({ status }: { status: string }): JSX.Element {
  const { t } = useI18n();
  const key: MessageKey | undefined = isKnown(status) ? `status.${status}` : undefined;
  return <span className={`badge badge--${isKnown(status) ? status : 'other'}`}>{key === undefined ? status : t(key)}</span>;
}
