// The desk after sign-in: the top bar, the sections the operator's role opens (agents: the workspace alone) as tabs,
// F2 back to the search from anywhere, and main's payment events followed while signed in.
import { lazy, Suspense, useEffect, useRef, useState, type JSX, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { OperatorView } from '../../../shared/operators';
import { LiveNote, RefundOutcomes } from '../features/live';
import { LateSuccessAlert, RecoveredNotices, usePaymentEvents } from '../features/payment';
import { IdleWarning, lockSession, useActivityReport } from '../features/session';
import { UpdateBanner } from '../features/updates';
import { useI18n } from '../i18n';
import { AgentDesk } from './AgentDesk';
import { useAppInfo } from './api';
import { LanguageSwitch } from './LanguageSwitch';
import { requestsRefunds, SECTION_LABELS, sectionsFor, type Section } from './sections';
import './workspace.css';

// The supervisor's and admin's screens are loaded when first opened: agents never download them.
const PaymentsDesk = lazy(() =>
  import('../features/payments/ui/PaymentsDesk').then((m) => ({ default: m.PaymentsDesk })),
);
const Approvals = lazy(() => import('../features/refunds/ui/Approvals').then((m) => ({ default: m.Approvals })));
const AuditTrail = lazy(() => import('../features/audit/ui/AuditTrail').then((m) => ({ default: m.AuditTrail })));
const EndOfDay = lazy(() => import('../features/reports/ui/EndOfDay').then((m) => ({ default: m.EndOfDay })));
const Accounts = lazy(() => import('../features/admin/ui/Accounts').then((m) => ({ default: m.Accounts })));
const ImportReservations = lazy(() =>
  import('../features/admin/ui/ImportReservations').then((m) => ({ default: m.ImportReservations })),
);

interface Props {
  operator: OperatorView;
  onSignOut: () => void;
}

export function Workspace({ operator, onSignOut }: Props): JSX.Element {
  const { t } = useI18n();
  const info = useAppInfo();
  const lookupRef = useRef<HTMLInputElement>(null);
  const sections = sectionsFor(operator.role);
  const [section, setSection] = useState<Section>('workspace');
  const tabRefs = useRef(new Map<Section, HTMLButtonElement>());
  usePaymentEvents();
  useActivityReport();

  // F2: back to the search from anywhere (from another section too).
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      if (event.key === 'F2') {
        event.preventDefault();
        const focusLookup = (): void => {
          lookupRef.current?.focus();
          lookupRef.current?.select();
        };
        // On the workspace the search takes the very next keystroke; from another section, it mounts first.
        if (lookupRef.current) focusLookup();
        else {
          setSection('workspace');
          requestAnimationFrame(focusLookup);
        }
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  /** Arrow keys, Home and End move between the tabs (WAI-ARIA tabs pattern, automatic activation). */
  function onTabKey(event: ReactKeyboardEvent<HTMLButtonElement>): void {
    const index = sections.indexOf(section);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % sections.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + sections.length) % sections.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? sections.length - 1
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const target = sections[next] ?? 'workspace';
    setSection(target);
    tabRefs.current.get(target)?.focus();
  }

  return (
    <div className="workspace">
      <header className="topbar">
        <h1 className="topbar__title">{t('app.title')}</h1>
        {info.data?.environment === 'training' && <span className="badge badge--training">{t('ws.training')}</span>}
        {info.data?.environment === 'sandbox' && <span className="badge badge--sandbox">{t('ws.sandbox')}</span>}
        <span className="topbar__spacer" />
        <span>{t('ws.signedInAs', { name: operator.displayName, role: t(`role.${operator.role}`) })}</span>
        <LanguageSwitch locked={info.data?.languageLocked ?? false} />
        <button type="button" onClick={lockSession}>
          {t('ws.lock')}
        </button>
        <button type="button" onClick={onSignOut}>
          {t('ws.signOut')}
        </button>
      </header>
      <IdleWarning />
      <UpdateBanner />
      <LateSuccessAlert />
      {requestsRefunds(operator.role) && <RefundOutcomes operatorId={operator.id} />}
      <LiveNote />
      {sections.length > 1 && (
        <nav className="sections" aria-label={t('nav.label')}>
          <div role="tablist" aria-label={t('nav.label')} className="sections__list">
            {sections.map((name) => (
              <button
                key={name}
                ref={(element) => {
                  if (element) tabRefs.current.set(name, element);
                  else tabRefs.current.delete(name);
                }}
                type="button"
                role="tab"
                id={`tab-${name}`}
                aria-selected={section === name}
                aria-controls={`panel-${name}`}
                tabIndex={section === name ? 0 : -1}
                className="sections__tab"
                onClick={() => setSection(name)}
                onKeyDown={onTabKey}
              >
                {t(SECTION_LABELS[name])}
              </button>
            ))}
          </div>
        </nav>
      )}
      {/* What main completed after a restart, told first to the operator who began it, whatever the section. */}
      <RecoveredNotices />
      {section === 'workspace' ? (
        <div
          id="panel-workspace"
          {...(sections.length > 1 ? { role: 'tabpanel', 'aria-labelledby': 'tab-workspace' } : {})}
        >
          <AgentDesk operator={operator} lookupRef={lookupRef} />
        </div>
      ) : (
        <main id={`panel-${section}`} role="tabpanel" aria-labelledby={`tab-${section}`} className="section">
          <Suspense fallback={<p aria-busy="true">{t('common.loading')}</p>}>
            {section === 'payments' && <PaymentsDesk role={operator.role} />}
            {section === 'approvals' && <Approvals />}
            {section === 'audit' && <AuditTrail />}
            {section === 'report' && <EndOfDay />}
            {section === 'accounts' && <Accounts self={operator.id} />}
            {section === 'import' && <ImportReservations />}
          </Suspense>
        </main>
      )}
    </div>
  );
}
